import { createHash } from "node:crypto";
import type { ContextGenerator } from "../core/context-generator.js";
import { STRUCTURAL_CONTEXT_KEY } from "../ingest/search-text.js";

/**
 * The cache key of a chunk's context: generator, model, prompt version,
 * document hash and chunk hash. Structural contexts are recomputed on every
 * write, so they share one key; with contexts off there is none.
 */
export function contextKey(
  generator: ContextGenerator,
  documentHash: string,
  chunkHash: string,
): string | null {
  if (generator.name === "none") return null;
  if (generator.name === "structural") return STRUCTURAL_CONTEXT_KEY;
  return createHash("sha1")
    .update(
      `${generator.name}|${generator.model}|${generator.promptVersion}|${documentHash}|${chunkHash}`,
    )
    .digest("hex");
}
