import type { DocumentChunker } from "./chunk/chunk-document.js";
import {
  type InlineContexts,
  type PreparedDocument,
  type PrepareTask,
  prepareDocument,
} from "./prepare-document.js";
import type { DocumentPreparer } from "./preparer.js";

/** Prepares documents in the calling thread. */
export class InThreadPreparer implements DocumentPreparer {
  readonly parallelism = 4;

  constructor(
    private readonly chunker: DocumentChunker,
    private readonly contexts: InlineContexts,
  ) {}

  prepare(task: PrepareTask): Promise<PreparedDocument> {
    return prepareDocument(task, this.chunker, this.contexts);
  }

  async close(): Promise<void> {}
}
