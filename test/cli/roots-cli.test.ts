import { cpSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

function searchPaths(cwd: string, query: string): string[] {
  const result = runCli(["search", query, "--json"], cwd);
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { results: { path: string }[] }).results.map(
    (hit) => hit.path,
  );
}

function roots(cwd: string): string[] {
  const result = runCli(["status", "--json"], cwd);
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { resources: { root: string }[] }).resources.map(
    (resource) => resource.root,
  );
}

describe("the roots an index covers", () => {
  it("follow the project when its folder is renamed or copied", async () => {
    const parent = tempDir();
    const before = join(parent, "before");
    writeFiles(before, { "src/retry.py": "def retry_with_backoff():\n    pass\n" });
    expect(runCli(["index", "."], before).code).toBe(0);

    const after = join(parent, "after");
    renameSync(before, after);
    writeFileSync(join(after, "src", "cache.py"), "def cache_lookup():\n    pass\n");
    expect(searchPaths(after, "cache_lookup")).toContain("src/cache.py");
    expect(roots(after)).toEqual([after]);

    // A copy refreshes its own files, not the original's.
    const copy = join(parent, "copy");
    cpSync(after, copy, { recursive: true });
    writeFileSync(join(copy, "src", "only_here.py"), "def only_in_copy():\n    pass\n");
    expect(searchPaths(copy, "only_in_copy")).toContain("src/only_here.py");
    expect(searchPaths(after, "only_in_copy")).not.toContain("src/only_here.py");
    expect(roots(copy)).toEqual([copy]);
  });

  it("keep a root that is gone, say so, and drop it on --forget", () => {
    const project = tempDir();
    const library = tempDir();
    writeFiles(project, { "app.py": "def main():\n    pass\n" });
    writeFiles(library, { "lib.py": "def parse_library():\n    pass\n" });
    expect(runCli(["index", ".", library], project).code).toBe(0);
    rmSync(library, { recursive: true });

    const query = runCli(["query", "parse_library", "--budget", "300"], project);
    expect(query.code, query.stderr).toBe(0);
    expect(query.stderr).toContain(`Missing: ${library} is gone`);
    expect(query.stdout).toContain("lib.py");

    const statusJson = JSON.parse(runCli(["status", "--json"], project).stdout) as {
      resources: { root: string; missing: boolean }[];
    };
    expect(statusJson.resources.map(({ root, missing }) => ({ root, missing }))).toEqual([
      { root: project, missing: false },
      { root: library, missing: true },
    ]);
    const status = runCli(["status"], project).stdout;
    expect(status).toMatch(
      new RegExp(`${library} \\(folder\\) · .* · missing: the folder is gone`),
    );

    const unknown = runCli(["index", "--forget", join(project, "nowhere")], project);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("is not a root of this index");

    const forget = runCli(["index", "--forget", library, "--json"], project);
    expect(forget.code, forget.stderr).toBe(0);
    expect(JSON.parse(forget.stdout)).toMatchObject({
      forgotten: [{ root: library, documents: 1 }],
    });
    expect(roots(project)).toEqual([project]);
    expect(searchPaths(project, "parse_library")).toEqual([]);
  });
});
