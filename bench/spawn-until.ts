import { type ChildProcess, spawn } from "node:child_process";

/**
 * Starts `node args…` in `cwd` and resolves once its stderr matches `ready`
 * (a server's or watcher's "serving…" / "watching…" line), with what it has
 * printed so far; throws when it exits first or `timeoutMs` passes.
 */
export async function spawnUntil(
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; ready: RegExp; timeoutMs: number },
): Promise<{ child: ChildProcess; stderr: string }> {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (data: Buffer) => {
    stderr += data.toString();
  });
  for (let waited = 0; !options.ready.test(stderr); waited += 50) {
    if (waited > options.timeoutMs || child.exitCode !== null)
      throw new Error(`node ${args.join(" ")} did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, stderr };
}
