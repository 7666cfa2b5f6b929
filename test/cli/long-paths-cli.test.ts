import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deepFile, longFolderNames, removeDeep } from "../helpers/deep-paths.js";
import { runCli } from "../helpers/run-cli.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

describe("files whose path is past the system's limit", () => {
  it("are counted as path-too-long and named in the index report, not dropped silently", () => {
    const root = tempDir();
    writeFiles(root, { "src/ok.ts": "export function shortPath() { return 1; }\n" });
    const names = longFolderNames(20, "d");
    deepFile(join(root, "src"), names, "deep.ts");
    try {
      const indexed = runCli(["index", "."], root, { XDG_CONFIG_HOME: root });
      expect(indexed.code, indexed.stderr).toBe(0);
      expect(indexed.stdout).toMatch(/Skipped: .*path-too-long 1\b/);
      // Named, shortened in the middle: the start of the path and the end of the folder's name.
      const line = indexed.stdout.split("\n").find((text) => text.startsWith("Not indexed, path"));
      expect(line).toMatch(/^Not indexed, path too long to open: src\/d0d{30,}…d+\/$/);
      // The count stays with the root for `ctx status`.
      const status = runCli(["status"], root, { XDG_CONFIG_HOME: root });
      expect(status.stdout).toMatch(/skipped: .*path-too-long 1\b/);
    } finally {
      removeDeep(join(root, "src", names[0] as string));
    }
  });
});
