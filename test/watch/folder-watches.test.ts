import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli, startCliUntil } from "../helpers/run-cli.js";
import { gitRepo } from "../helpers/temp-dir.js";

const running: { kill(signal: NodeJS.Signals): boolean }[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill("SIGKILL");
});

/** The inotify watches a process holds (one `inotify wd:` line per watch in its fdinfo). */
function inotifyWatches(pid: number): number {
  let watches = 0;
  for (const fd of readdirSync(`/proc/${pid}/fdinfo`)) {
    try {
      const info = readFileSync(`/proc/${pid}/fdinfo/${fd}`, "utf8");
      watches += info.split("\n").filter((line) => line.startsWith("inotify wd:")).length;
    } catch {
      // closed meanwhile
    }
  }
  return watches;
}

describe.runIf(process.platform === "linux")("ctx watch on a tree of many files", () => {
  it("holds one system watch per folder, not per file, and still sees a saved file", async () => {
    const files: Record<string, string> = {};
    for (let folder = 0; folder < 4; folder++) {
      for (let file = 0; file < 500; file++) {
        files[`src/part${folder}/unit${file}.ts`] =
          `export const unit${folder}x${file} = ${file};\n`;
      }
    }
    const root = gitRepo(files);
    expect(runCli(["index"], root).code).toBe(0);
    const watch = await startCliUntil(["watch"], root, "for changes");
    running.push(watch.process);
    const { stderr } = watch;
    const pid = watch.process.pid as number;
    // The root, src, four parts and the git folder: a handful, where a watch per file was 2,000.
    expect(inotifyWatches(pid)).toBeLessThanOrEqual(10);
    expect(stderr).not.toContain("looking for changes every");

    writeFileSync(join(root, "src/part2/unit7.ts"), "export function quokkaSavedLate() {}\n");
    const deadline = Date.now() + 15_000;
    let answer = runCli(["query", "quokkaSavedLate", "--no-refresh"], root);
    // The answer's header names the task whatever it finds: wait for the file itself.
    while (!answer.stdout.includes("src/part2/unit7.ts") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      answer = runCli(["query", "quokkaSavedLate", "--no-refresh"], root);
    }
    expect(answer.stdout).toContain("src/part2/unit7.ts");
  });
});
