import { spawn } from "node:child_process";
import { hostname } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { runCli, runCliAsync, startCliUntil } from "../helpers/run-cli.js";
import { gitRepo, writeFiles } from "../helpers/temp-dir.js";

const running: { kill(signal: NodeJS.Signals): boolean }[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill("SIGKILL");
});

/** Starts `ctx watch` in the project; resolves once it says it is watching. */
async function startWatch(root: string) {
  const watch = await startCliUntil(["watch"], root, "for changes");
  running.push(watch.process);
  return watch;
}

const DEBUG = { CTX_DEBUG: "1" };
const SKIPPED = /not refreshed: a watcher \(pid (\d+)\) keeps the index up to date/;

describe("a query while ctx watch runs for the project", () => {
  it("skips its own refresh yet answers with a file saved just before; refreshes itself once the watcher is gone", async () => {
    const root = gitRepo({
      "src/fares.ts": "export function fareFor(zone: number): number {\n  return zone * 2;\n}\n",
    });
    expect(runCli(["index"], root).code).toBe(0);
    const watch = await startWatch(root);

    const first = runCli(["query", "fareFor zone"], root, DEBUG);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("src/fares.ts");
    expect(SKIPPED.exec(first.stderr)?.[1]).toBe(String(watch.process.pid));

    // Saved just before asking: the query waits for the watcher to write it.
    writeFiles(root, {
      "src/tolls.ts":
        "export function tollForBridge(axles: number): number {\n  return axles;\n}\n",
    });
    const saved = runCli(["query", "tollForBridge axles"], root, DEBUG);
    expect(saved.stdout).toContain("src/tolls.ts");
    expect(saved.stderr).toMatch(SKIPPED);

    // A watcher killed outright cannot vouch for anything: the query refreshes itself.
    watch.process.kill("SIGKILL");
    await watch.result;
    writeFiles(root, {
      "src/tunnels.ts":
        "export function tunnelToll(length: number): number {\n  return length;\n}\n",
    });
    const alone = runCli(["query", "tunnelToll length"], root, DEBUG);
    expect(alone.stdout).toContain("src/tunnels.ts");
    expect(alone.stderr).not.toMatch(SKIPPED);
  });

  it("a watcher that stops gives its claim up in the index", async () => {
    const root = gitRepo({ "src/a.ts": "export const alpha = 1;\n" });
    expect(runCli(["index"], root).code).toBe(0);
    const claim = () => {
      const db = new Database(join(root, ".ctx", "index.db"), { readonly: true });
      try {
        const row = db.prepare("SELECT value FROM ctx_meta WHERE key = 'watcher'").get() as
          | { value: string }
          | undefined;
        return row?.value ?? "";
      } finally {
        db.close();
      }
    };
    const watch = await startWatch(root);
    expect(JSON.parse(claim())).toMatchObject({ pid: watch.process.pid, state: "settled" });
    watch.process.kill("SIGTERM");
    expect((await watch.result).code).toBe(0);
    expect(claim()).toBe("");
  });
});

describe("a query while a watcher is still writing a change", () => {
  /** Writes a watcher's claim into the index as a running watcher would. */
  function claim(root: string, pid: number, state: "settled" | "pending", at = Date.now()) {
    const db = new Database(join(root, ".ctx", "index.db"));
    try {
      db.prepare(
        "INSERT INTO ctx_meta (key, value) VALUES ('watcher', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      ).run(JSON.stringify({ pid, host: hostname(), at, state }));
    } finally {
      db.close();
    }
  }

  it("ctx query waits for it, saying so; the prompt hook does not wait long and answers from the index", async () => {
    const root = gitRepo({
      "src/fares.ts": "export function fareFor(zone: number): number {\n  return zone * 2;\n}\n",
    });
    expect(runCli(["index"], root).code).toBe(0);
    // A live process stands for the watcher: the claim names its pid.
    const stand = spawn("sleep", ["60"]);
    running.push(stand);
    const pid = stand.pid as number;
    // Not renewed for a minute, as while a long batch holds the watcher's thread: still live.
    claim(root, pid, "pending", Date.now() - 60_000);

    const started = Date.now();
    const query = runCliAsync(["query", "fareFor zone"], root, DEBUG);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    claim(root, pid, "settled");
    const answer = await query;
    expect(answer.code, answer.stderr).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
    expect(answer.stderr).toContain(
      `waiting for the running watcher (pid ${pid}) to index what changed`,
    );
    expect(answer.stderr).toMatch(SKIPPED);
    expect(answer.stdout).toContain("src/fares.ts");

    claim(root, pid, "pending");
    const hookStarted = Date.now();
    const hook = runCli(
      ["hook", "claude-code"],
      root,
      DEBUG,
      JSON.stringify({ prompt: "fareFor zone", cwd: root }),
    );
    expect(Date.now() - hookStarted).toBeLessThan(10_000);
    expect(hook.stderr).toContain(`a watcher (pid ${pid}) is still writing`);
    expect(hook.stderr).not.toContain("waiting for");
    expect(hook.stdout).toContain("src/fares.ts");
  });
});
