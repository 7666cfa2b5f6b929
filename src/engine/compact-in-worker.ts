import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

export type CompactionReply = { readonly done: true } | { readonly error: string };

/**
 * Rebuilds the full-text index of the index file `file` in a worker thread with
 * its own SQLite connection, so a serving process keeps answering queries at full
 * speed meanwhile (the rebuild costs about what indexing the text did). Resolves
 * false where the worker script is not built JavaScript (running from TypeScript
 * sources) or the worker failed; a failed rebuild leaves the old index in place,
 * and the caller then compacts in this thread, which reports any real problem
 * with the index file instead of a thread that could not run.
 */
export function compactInWorker(file: string): Promise<boolean> {
  const script = fileURLToPath(new URL("./compaction-worker.js", import.meta.url));
  if (!import.meta.url.endsWith(".js") || !existsSync(script)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const worker = new Worker(script, { workerData: { file } });
    // The first of these settles the promise; the exit after a reply changes nothing.
    worker.once("message", (reply: CompactionReply) => resolve(!("error" in reply)));
    worker.once("error", () => resolve(false));
    worker.once("exit", () => resolve(false));
  });
}
