import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

describe("a mistyped flag or command", () => {
  it.each([
    [["query", "settle the ledger", "--budgt", "500"], "unknown option '--budgt'", "--budget"],
    [["index", "--forse"], "unknown option '--forse'", "--force"],
    [["status", "--jsno"], "unknown option '--jsno'", "--json"],
    [["qurey", "settle the ledger"], "unknown command 'qurey'", "query"],
  ])("ctx %j is bad usage that names the near one", (args, error, near) => {
    const result = runCli(args, tempDir());
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`ctx: error: ${error}`);
    expect(result.stderr).toContain(`(Did you mean ${near}?)`);
  });
});
