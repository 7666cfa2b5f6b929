import type { DocumentChunker } from "./chunk/chunk-document.js";
import {
  type InlineContexts,
  type PreparedDocument,
  type PrepareTask,
  prepareDocument,
} from "./prepare-document.js";
import type { DocumentPreparer } from "./preparer.js";

/** How many files the calling thread keeps in flight (reads overlap with chunking). */
export const IN_THREAD_PARALLELISM = 4;

/** Prepares documents in the calling thread. */
export class InThreadPreparer implements DocumentPreparer {
  readonly parallelism = IN_THREAD_PARALLELISM;

  constructor(
    private readonly chunker: DocumentChunker,
    private readonly contexts: InlineContexts,
  ) {}

  prepare(task: PrepareTask): Promise<PreparedDocument> {
    return prepareDocument(task, this.chunker, this.contexts);
  }

  async close(): Promise<void> {}
}
