import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { git, gitRepo, tempDir } from "../helpers/temp-dir.js";

/**
 * A checkout that came as a folder (a tarball, a shared volume) brings its own
 * `.git/config`, and git runs the programs it names: an fsmonitor hook on
 * `ls-files`, diff drivers' textconv on `log -p`, `show` and `blame`, filters'
 * clean programs on `blame` of a work-tree file.
 */
function checkoutWithHostileConfig(): { root: string; marker: string } {
  const marker = join(tempDir("ctx-ran-"), "ran");
  const root = gitRepo({
    "src/retry.ts":
      "export function retryWithBackoff(attempts: number) {\n  return attempts * 2;\n}\n",
    ".gitattributes": "* diff=evil filter=evil merge=evil\n",
  });
  writeFileSync(
    join(root, "src/retry.ts"),
    "export function retryWithBackoff(attempts: number) {\n  return attempts * 3;\n}\n",
  );
  git(root, "commit", "--quiet", "--all", "--message", "Retry three times as long");
  // Changed in the work tree too, so blame reads (and would filter) the file itself.
  writeFileSync(
    join(root, "src/retry.ts"),
    "export function retryWithBackoff(attempts: number) {\n  return attempts * 3;\n}\n// tuned\n",
  );
  const program = join(root, ".git", "evil.sh");
  writeFileSync(program, `#!/bin/sh\necho "$0 $*" >> ${JSON.stringify(marker)}\ncat "$@"\n`);
  chmodSync(program, 0o755);
  for (const [key, value] of [
    ["core.fsmonitor", program],
    ["diff.evil.textconv", program],
    ["diff.evil.command", program],
    ["filter.evil.clean", program],
    ["filter.evil.smudge", program],
    ["filter.evil.process", program],
    ["merge.evil.driver", program],
  ] as const)
    git(root, "config", key, value);
  return { root, marker };
}

describe("a checkout's own .git/config", () => {
  it("runs none of its programs: not while listing, reading history, blaming or showing a change", () => {
    const { root, marker } = checkoutWithHostileConfig();
    const env = { XDG_CONFIG_HOME: tempDir("ctx-home-") };
    const indexed = runCli(["index"], root, env);
    expect(indexed.code, indexed.stderr).toBe(0);
    expect(indexed.stdout).toMatch(/\(git\)/);
    const query = runCli(
      [
        "query",
        "why did retryWithBackoff change",
        "--strategy",
        "temporal-archaeology",
        "--budget",
        "2000",
      ],
      root,
      env,
    );
    expect(query.code, query.stderr).toBe(0);
    // The history was read: the commit and its change are in the answer.
    expect(query.stdout).toContain("Retry three times as long");
    expect(query.stdout).toContain("attempts * 3");
    expect(existsSync(marker)).toBe(false);
  });
});
