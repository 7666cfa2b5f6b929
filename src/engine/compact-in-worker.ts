import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { StoreError } from "../core/errors.js";

export type CompactionReply = { readonly done: true } | { readonly error: string };

/**
 * Rebuilds the full-text index of the index file `file` in a worker thread with
 * its own SQLite connection, so a serving process keeps answering queries at full
 * speed meanwhile (the rebuild costs about what indexing the text did). Resolves
 * false, having done nothing, where the worker script is not built JavaScript
 * (running from TypeScript sources): the caller then compacts in this thread.
 */
export function compactInWorker(file: string): Promise<boolean> {
  const script = fileURLToPath(new URL("./compaction-worker.js", import.meta.url));
  if (!import.meta.url.endsWith(".js") || !existsSync(script)) return Promise.resolve(false);
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: { file } });
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      reject(
        new StoreError(
          file,
          `rebuilding the full-text index failed (${message}); the index is as it was, and the next run tries again`,
        ),
      );
    };
    worker.once("message", (reply: CompactionReply) => {
      if ("error" in reply) {
        fail(reply.error);
        return;
      }
      settled = true;
      resolve(true);
    });
    worker.once("error", (error) => fail(error.message));
    worker.once("exit", (code) => fail(`the worker stopped (exit code ${code})`));
  });
}
