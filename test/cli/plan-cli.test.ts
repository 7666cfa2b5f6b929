import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

describe("ctx plan", () => {
  it("creates plans, records decisions, and brings them into ctx query --plan", () => {
    const root = tempDir("ctx-plan-cli-");
    writeFiles(root, { "src/cache.ts": "export function evictOldest() { return 0; }\n" });
    expect(runCli(["index", "."], root).code).toBe(0);
    const parent = runCli(["plan", "create", "Cache", "rework"], root);
    expect(parent.code, parent.stderr).toBe(0);
    const parentId = parent.stdout.trim();
    expect(parentId).toMatch(/^\d+$/);
    const decided = runCli(
      [
        "plan",
        "decide",
        parentId,
        "--what",
        "LRU eviction",
        "--why",
        "Hot keys stay",
        "--alternative",
        "FIFO",
        "--alternative",
        "LFU",
      ],
      root,
    );
    expect(decided.stdout).toMatch(new RegExp(`^Recorded decision \\d+ in plan ${parentId}$`, "m"));
    const child = JSON.parse(
      runCli(["plan", "create", "Eviction", "metrics", "--parent", parentId, "--json"], root)
        .stdout,
    ) as { id: string; parentId: string; status: string };
    expect(child).toMatchObject({ parentId, status: "open" });
    runCli(
      [
        "plan",
        "decide",
        child.id,
        "--what",
        "Count evictions per minute",
        "--why",
        "Spot thrashing",
      ],
      root,
    );

    const query = runCli(["query", "evictOldest", "--plan", child.id, "--budget", "2000"], root);
    expect(query.code, query.stderr).toBe(0);
    const childAt = query.stdout.indexOf("Count evictions per minute");
    const parentAt = query.stdout.indexOf("LRU eviction");
    expect(childAt).toBeGreaterThan(0);
    expect(parentAt).toBeGreaterThan(childAt);
    expect(query.stdout).toMatch(/Instead of: FIFO; LFU/);

    const shown = JSON.parse(runCli(["plan", "show", parentId, "--json"], root).stdout) as {
      decisions: { what: string; alternatives: string[] }[];
    };
    expect(shown.decisions).toEqual([
      expect.objectContaining({ what: "LRU eviction", alternatives: ["FIFO", "LFU"] }),
    ]);
    expect(runCli(["plan", "close", child.id, "--outcome", "Shipped"], root).stdout).toBe(
      `Closed plan ${child.id}\n`,
    );
    const open = JSON.parse(runCli(["plan", "list", "--open", "--json"], root).stdout) as {
      id: string;
    }[];
    expect(open.map((plan) => plan.id)).toEqual([parentId]);
    expect(runCli(["plan", "list"], root).stdout).toMatch(
      new RegExp(`^${child.id} +closed +Eviction metrics \\(in ${parentId}\\) · 1 decision$`, "m"),
    );

    const refused = runCli(["plan", "decide", child.id, "--what", "x", "--why", "y"], root);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/plan \d+ is closed; start a follow-up/);
    const missing = runCli(["query", "x", "--plan", "999"], root);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/no plan 999 in this project/);
  });
});
