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
  const shared = sharedContextKey(generator);
  if (shared !== undefined) return shared;
  return createHash("sha1")
    .update(
      `${generator.name}|${generator.model}|${generator.promptVersion}|${documentHash}|${chunkHash}`,
    )
    .digest("hex");
}

/** The key every chunk gets from this generator, or undefined where it depends on the chunk. */
export function sharedContextKey(generator: ContextGenerator): string | null | undefined {
  if (generator.name === "none") return null;
  if (generator.name === "structural") return STRUCTURAL_CONTEXT_KEY;
  return undefined;
}
