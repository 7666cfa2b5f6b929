import type { ContextGenerator } from "../core/context-generator.js";
import type { Store } from "../core/store.js";
import type { TokenCounter } from "../core/token-counter.js";
import { isSecretFile } from "../secrets/secret-files.js";
import { contextKey } from "./context-key.js";
import { pendingDocuments } from "./contextualize-index.js";
import type { ContextualizeSettings } from "./contextualize-settings.js";
import { documentTextFromChunks } from "./document-text.js";
import { INSTRUCTIONS } from "./llm/prompts.js";
import { type ModelPrice, priceOf } from "./pricing.js";

/** What a contextualization run would send and spend, computed without sending anything. */
export interface CostEstimate {
  readonly generator: string;
  readonly model: string;
  readonly documents: number;
  /** Chunks that need a model call (pending, not cached, not in secret files). */
  readonly chunks: number;
  readonly cached: number;
  readonly secret: number;
  readonly calls: number;
  readonly inputTokens: number;
  /** Of the input, document tokens a prompt cache could serve after each document's first call. */
  readonly cacheableTokens: number;
  readonly outputTokens: number;
  readonly price: ModelPrice | null;
  /** US dollars, null when the model's price is unknown. */
  readonly cost: number | null;
}

/** Estimates a run of `generator` over what is pending in the store, before spending anything. */
export async function estimateCost(
  store: Store,
  generator: ContextGenerator,
  settings: ContextualizeSettings,
  counter: TokenCounter,
): Promise<CostEstimate> {
  const instructionTokens = counter.count(INSTRUCTIONS) + 60;
  const totals = {
    documents: 0,
    chunks: 0,
    cached: 0,
    secret: 0,
    calls: 0,
    input: 0,
    cacheable: 0,
    output: 0,
  };
  for (const pending of await pendingDocuments(store, generator)) {
    if (isSecretFile(pending.path)) {
      totals.secret += pending.chunks.length;
      continue;
    }
    const keys = pending.chunks.map(
      (state) => contextKey(generator, pending.documentHash, state.chunkHash) ?? "",
    );
    const cache = await store.contexts.getCachedContexts(keys);
    const misses = pending.chunks.filter((_, index) => !cache.has(keys[index] ?? ""));
    totals.cached += pending.chunks.length - misses.length;
    if (misses.length === 0) continue;
    const all = await store.documents.getDocumentChunks(pending.resourceId, pending.path);
    const missing = new Set(misses.map((state) => state.chunkId));
    const documentTokens = Math.min(
      settings.maxDocumentTokens,
      counter.count(documentTextFromChunks(all)),
    );
    const chunkTokens = all
      .filter((chunk) => missing.has(chunk.id))
      .reduce((sum, chunk) => sum + chunk.tokens + 12, 0);
    const batches = Math.ceil(misses.length / settings.batchSize);
    totals.documents++;
    totals.chunks += misses.length;
    totals.calls += batches;
    totals.input += batches * (instructionTokens + documentTokens) + chunkTokens;
    totals.cacheable += (batches - 1) * documentTokens;
    // Contexts run to about half their cap on average.
    totals.output += Math.ceil(misses.length * settings.maxContextTokens * 0.6);
  }
  const price = priceOf(generator.model);
  const cost = price
    ? ((totals.input - totals.cacheable) * price.input +
        totals.cacheable * price.cacheRead +
        totals.output * price.output) /
      1_000_000
    : null;
  return {
    generator: generator.name,
    model: generator.model,
    documents: totals.documents,
    chunks: totals.chunks,
    cached: totals.cached,
    secret: totals.secret,
    calls: totals.calls,
    inputTokens: totals.input,
    cacheableTokens: totals.cacheable,
    outputTokens: totals.output,
    price,
    cost,
  };
}
