import { execFileSync } from "node:child_process";

/** The longest whole path the system opens (PATH_MAX less the closing NUL). */
export const LONGEST_PATH = 4095;

/** `count` folder names of 240 characters, `letter` then their number, then `letter` again. */
export function longFolderNames(count: number, letter: string): string[] {
  return Array.from({ length: count }, (_, i) => `${letter}${i}`.padEnd(240, letter));
}

/**
 * Makes the folders `names` one inside the other under `dir` and writes `file`
 * at the bottom: by relative steps in a child process, since no absolute path
 * that long could be made.
 */
export function deepFile(dir: string, names: readonly string[], file: string): void {
  const script = `
    const { mkdirSync, writeFileSync } = require("node:fs");
    const [file, ...names] = process.argv.slice(1);
    for (const name of names) { mkdirSync(name, { recursive: true }); process.chdir(name); }
    writeFileSync(file, "export const deep = 1;\\n");`;
  execFileSync(process.execPath, ["-e", script, file, ...names], { cwd: dir });
}

/** Removes a tree too deep for Node's own removal (which works on whole paths). */
export function removeDeep(dir: string): void {
  execFileSync("rm", ["-rf", dir]);
}
