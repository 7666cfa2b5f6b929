/** Worker-thread entry: ranges of keyword searches on a read-only connection of its own. */
import { workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import {
  ANSWERED,
  type RangeRequest,
  READY,
  type SearchThreadAnswer,
  type SearchThreadData,
  searchRange,
} from "./search-range.js";
import { BUSY_TIMEOUT_MS } from "./write-transaction.js";

const data = workerData as SearchThreadData | null;
if (data) {
  const flags = new Int32Array(data.flags);
  const db = new Database(data.file, { readonly: true, fileMustExist: true });
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  data.port.on("message", (request: RangeRequest) => {
    let answer: SearchThreadAnswer;
    try {
      const started = performance.now();
      const rows = searchRange(db, request);
      answer = { id: request.id, rows, ms: performance.now() - started };
    } catch (error) {
      answer = { id: request.id, error: error instanceof Error ? error.message : String(error) };
    }
    // Posted before the flag is set: the waiting thread reads it as soon as it wakes.
    data.port.postMessage(answer);
    Atomics.store(flags, ANSWERED, request.id);
    Atomics.notify(flags, ANSWERED);
  });
  Atomics.store(flags, READY, 1);
  Atomics.notify(flags, READY);
}
