/** Worker-thread entry: rebuilds an index file's full-text table on a connection of its own. */
import { parentPort, workerData } from "node:worker_threads";
import { documentSearchTexts } from "../ingest/stored-search-text.js";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";
import type { CompactionReply } from "./compact-in-worker.js";

const { file } = workerData as { file: string };

async function run(): Promise<CompactionReply> {
  const store = SqliteStore.open(file, { create: false });
  try {
    await store.documents.compact(documentSearchTexts);
    return { done: true };
  } finally {
    await store.close();
  }
}

run().then(
  (reply) => parentPort?.postMessage(reply),
  (error: unknown) =>
    parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) }),
);
