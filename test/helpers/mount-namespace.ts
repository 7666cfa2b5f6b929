import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, type CliResult, cliEnv } from "./run-cli.js";
import { tempDir } from "./temp-dir.js";

/**
 * Whether this machine lets a process mount file systems of its own (a small
 * tmpfs, a read-only bind mount) in a user and mount namespace: root inside,
 * nothing changed outside, all gone when it exits.
 */
export const canMountPrivately: boolean = (() => {
  const probe = spawnSync(
    "unshare",
    ["-rm", "sh", "-ec", 'mount -t tmpfs -o size=1m tmpfs "$0"', tempDir("ctx-mount-probe-")],
    { stdio: "ignore", timeout: 10_000 },
  );
  return probe.status === 0;
})();

/**
 * Runs a shell script in a mount namespace of its own (see canMountPrivately),
 * in `cwd`, where `ctx NAME ARGS…` runs the built CLI as a step whose result
 * `step(NAME)` gives back afterwards. `$SCRATCH` is a folder outside any
 * mount the script makes.
 */
export function inMountNamespace(
  script: string,
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): {
  readonly step: (name: string) => CliResult;
  readonly output: string;
  /** The folder the steps' results are written to (`$RESULTS` in the script). */
  readonly results: string;
} {
  const results = tempDir("ctx-steps-");
  const prelude = `
ctx() {
  name=$1; shift
  code=0
  node "$CLI" "$@" >"$RESULTS/$name.out" 2>"$RESULTS/$name.err" || code=$?
  echo "$code" >"$RESULTS/$name.code"
}
`;
  const run = spawnSync("unshare", ["-rm", "sh", "-ec", `${prelude}\n${script}`], {
    cwd,
    encoding: "utf8",
    env: { ...cliEnv(cwd, env), CLI, RESULTS: results, SCRATCH: tempDir("ctx-scratch-") },
    timeout: 300_000,
  });
  const output = `${run.stdout ?? ""}${run.stderr ?? ""}`;
  if (run.status !== 0) throw new Error(`the script failed (${run.status}): ${output}`);
  return {
    output,
    results,
    step(name) {
      const file = (ext: string) => join(results, `${name}.${ext}`);
      if (!existsSync(file("code"))) throw new Error(`no step ${name} ran: ${output}`);
      return {
        code: Number(readFileSync(file("code"), "utf8")),
        stdout: readFileSync(file("out"), "utf8"),
        stderr: readFileSync(file("err"), "utf8"),
      };
    },
  };
}
