import type { ChunkForContext, ContextGenerator } from "../core/context-generator.js";

/** Contexts turned off: every chunk gets an empty context and is indexed as it is. */
export class NoContextGenerator implements ContextGenerator {
  readonly name = "none";
  readonly model = "";
  readonly promptVersion = "none";
  readonly remote = false;

  async contextualizeBatch(chunks: readonly ChunkForContext[]): Promise<string[]> {
    return chunks.map(() => "");
  }
}
