import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

describe("ctx query --json", () => {
  it("prints what --format json prints, and refuses another format beside it in one line", () => {
    const root = tempDir();
    writeFiles(root, {
      "src/ledger.ts":
        "export function settleLedger(postings: number[]): number {\n  return postings.length;\n}\n",
    });
    const json = runCli(["query", "settle the ledger", "--json", "--budget", "500"], root);
    expect(json.code, json.stderr).toBe(0);
    const answer = JSON.parse(json.stdout) as { fragments: { path: string }[] };
    expect(answer.fragments.map((fragment) => fragment.path)).toContain("src/ledger.ts");
    const format = runCli(
      ["query", "settle the ledger", "--format", "json", "--budget", "500"],
      root,
    );
    expect(JSON.parse(format.stdout)).toEqual(answer);

    const both = runCli(["query", "settle the ledger", "--json", "--format", "xml"], root);
    expect(both.code).toBe(2);
    expect(both.stderr.trim().split("\n")).toHaveLength(1);
    expect(both.stderr).toContain("--json and --format xml disagree");
  });
});
