/** Worker-thread entry: prepares documents sent by WorkerPreparer. */
import { parentPort, workerData } from "node:worker_threads";
import { createTokenCounter } from "../tokens/create-counter.js";
import { DocumentChunker } from "./chunk/chunk-document.js";
import { prepareDocument } from "./prepare-document.js";
import type { WorkerConfig, WorkerReply, WorkerRequest } from "./worker-preparer.js";

const config = workerData as WorkerConfig;
const chunker = new DocumentChunker(
  config.limits,
  createTokenCounter(config.counter),
  config.graph,
  config.aliases,
);

parentPort?.on("message", (request: WorkerRequest) => {
  prepareDocument(request.task, chunker, config.contexts).then(
    (result) => parentPort?.postMessage({ id: request.id, result } satisfies WorkerReply),
    (error: unknown) =>
      parentPort?.postMessage({
        id: request.id,
        error: error instanceof Error ? error.message : String(error),
      } satisfies WorkerReply),
  );
});
