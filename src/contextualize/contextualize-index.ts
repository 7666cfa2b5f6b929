import { randomUUID } from "node:crypto";
import {
  type ChunkForContext,
  ContextBatchError,
  type ContextGenerator,
} from "../core/context-generator.js";
import { embedHashOf } from "../core/embed-text.js";
import type { ChunkContextState, ChunkContextUpdate, ContextStatus, Store } from "../core/store.js";
import type { StoredChunk } from "../core/types.js";
import { outlineDocument } from "../ingest/document-outline.js";
import { enclosingOf, storedSearchText } from "../ingest/stored-search-text.js";
import { structuralContext } from "../ingest/structural-context.js";
import { isSecretFile } from "../secrets/secret-files.js";
import { contextKey, sharedContextKey } from "./context-key.js";
import { documentTextFromChunks } from "./document-text.js";
import type { UsageMeter, UsageReport } from "./usage-meter.js";

export interface ContextualizeProgress {
  readonly phase: "contextualize";
  readonly done: number;
  readonly total: number;
}

export interface ContextualizeOptions {
  readonly store: Store;
  readonly generator: ContextGenerator;
  readonly usage: UsageMeter;
  /** Documents worked on at once (their model calls share the generator's limit). */
  readonly concurrency: number;
  readonly onProgress?: (progress: ContextualizeProgress) => void;
  readonly signal?: AbortSignal;
}

export interface ContextualizeReport {
  readonly generator: string;
  readonly model: string;
  /** Chunks whose context did not match the generator (new, changed, failed before). */
  readonly pending: number;
  readonly documents: number;
  /** Pending chunks answered from the context cache, without a model call. */
  readonly cached: number;
  readonly generated: number;
  /** Chunks still without a model context ("no context: reason"): retried on the next run. */
  readonly failed: number;
  /** Chunks of secret files (.env, keys…): never sent, structural context kept. */
  readonly secret: number;
  /**
   * True when another process was paying a model for contexts of this index:
   * this run left the pending chunks (structural meanwhile) to it or the next run.
   */
  readonly deferred: boolean;
  readonly usage: UsageReport;
}

/** The lease a run that pays a model for contexts holds, so two never pay for the same chunks. */
const CONTEXT_LEASE = "contextualize";

/**
 * A run renews the lease after each document, whose calls (retries and backoff
 * included) take far less; past this, its process is taken to have died.
 */
const CONTEXT_LEASE_EXPIRY_MS = 10 * 60 * 1000;

/** One document's chunks that need a new context. */
export interface PendingDocument {
  readonly resourceId: string;
  readonly path: string;
  readonly documentHash: string;
  readonly chunks: readonly ChunkContextState[];
}

/** Chunks whose stored context key is not what the generator would produce now, by document. */
export async function pendingDocuments(
  store: Store,
  generator: ContextGenerator,
): Promise<PendingDocument[]> {
  const byDocument = new Map<number, PendingDocument & { chunks: ChunkContextState[] }>();
  for (const state of await store.contexts.listChunkContextStates(sharedContextKey(generator))) {
    if (state.contextKey === contextKey(generator, state.documentHash, state.chunkHash)) continue;
    let pending = byDocument.get(state.documentId);
    if (!pending) {
      pending = {
        resourceId: state.resourceId,
        path: state.path,
        documentHash: state.documentHash,
        chunks: [],
      };
      byDocument.set(state.documentId, pending);
    }
    pending.chunks.push(state);
  }
  return [...byDocument.values()];
}

/**
 * Gives every chunk the context of the active generator: from the cache when
 * (generator, model, prompt, document, chunk) was seen before, else from the
 * generator. Secret files never reach a model. Chunks that fail keep their
 * structural context, are marked `no context: reason` and are retried next run.
 */
export async function contextualizeIndex(
  options: ContextualizeOptions,
): Promise<ContextualizeReport> {
  const { store, generator } = options;
  const pending = await pendingDocuments(store, generator);
  const totals = { cached: 0, generated: 0, failed: 0, secret: 0 };
  const report = (deferred: boolean): ContextualizeReport => ({
    generator: generator.name,
    model: generator.model,
    pending: pending.reduce((sum, document) => sum + document.chunks.length, 0),
    documents: pending.length,
    ...totals,
    deferred,
    usage: options.usage.snapshot(),
  });
  // Two processes refreshing at once (agents each running ctx query) would both
  // pay for the same chunks: one at a time, the other leaves them to it.
  const paid = generator.name !== "none" && generator.name !== "structural";
  const holder = randomUUID();
  const holdLease = () => store.state.takeLease(CONTEXT_LEASE, holder, CONTEXT_LEASE_EXPIRY_MS);
  if (paid && pending.length > 0 && !(await holdLease())) return report(true);
  let done = 0;
  let lost = false;
  const queue = [...pending];
  const worker = async () => {
    for (let next = queue.shift(); next && !lost; next = queue.shift()) {
      options.signal?.throwIfAborted();
      const outcome = await contextualizeDocument(next, options);
      totals.cached += outcome.cached;
      totals.generated += outcome.generated;
      totals.failed += outcome.failed;
      totals.secret += outcome.secret;
      options.onProgress?.({ phase: "contextualize", done: ++done, total: pending.length });
      if (paid && !(await holdLease())) lost = true;
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  } finally {
    if (paid && pending.length > 0) await store.state.releaseLease(CONTEXT_LEASE, holder);
  }
  return report(lost);
}

async function contextualizeDocument(pending: PendingDocument, options: ContextualizeOptions) {
  const { store, generator } = options;
  const outcome = { cached: 0, generated: 0, failed: 0, secret: 0 };
  const all = await store.documents.getDocumentChunks(pending.resourceId, pending.path);
  const byId = new Map(all.map((chunk) => [chunk.id, chunk]));
  const wanted = pending.chunks
    .map((state) => byId.get(state.chunkId))
    .filter((chunk): chunk is StoredChunk => !!chunk);
  const documentText = documentTextFromChunks(all);
  const outline = outlineDocument(
    documentText,
    all.map((chunk) => chunk.symbol),
  );
  const keyOf = (chunk: StoredChunk) => contextKey(generator, pending.documentHash, chunk.hash);
  const structural = (chunk: StoredChunk) => structuralContext(forContext(chunk, byId), outline);
  const updates: ChunkContextUpdate[] = [];
  const update = (
    chunk: StoredChunk,
    context: string | null,
    key: string | null,
    status: ContextStatus | null,
  ) =>
    updates.push({
      chunkId: chunk.id,
      chunkHash: chunk.hash,
      context,
      contextKey: key,
      contextStatus: status,
      embedHash: embedHashOf(context, chunk.content),
      search: storedSearchText(chunk, byId, context),
    });

  if (generator.name === "none" || generator.name === "structural") {
    for (const chunk of wanted) {
      if (generator.name === "none") update(chunk, null, null, null);
      else update(chunk, structural(chunk), keyOf(chunk), "structural");
    }
  } else if (isSecretFile(pending.path)) {
    for (const chunk of wanted) update(chunk, structural(chunk), keyOf(chunk), "secret");
    outcome.secret += wanted.length;
  } else {
    const cache = await store.contexts.getCachedContexts(wanted.map((chunk) => keyOf(chunk) ?? ""));
    const misses: StoredChunk[] = [];
    for (const chunk of wanted) {
      const cached = cache.get(keyOf(chunk) ?? "");
      if (cached === undefined) misses.push(chunk);
      else {
        update(chunk, cached, keyOf(chunk), "generated");
        outcome.cached++;
      }
    }
    if (misses.length > 0) {
      const generated = await generate(
        generator,
        misses.map((chunk) => forContext(chunk, byId)),
        documentText,
        options.signal,
      );
      const fresh: { key: string; context: string; generator: string; model: string }[] = [];
      misses.forEach((chunk, index) => {
        const context = generated.contexts[index];
        if (context) {
          const key = keyOf(chunk) as string;
          update(chunk, context, key, "generated");
          fresh.push({ key, context, generator: generator.name, model: generator.model });
          outcome.generated++;
        } else {
          update(
            chunk,
            structural(chunk),
            null,
            `no context: ${generated.reasons[index] ?? "the model gave none"}`,
          );
          outcome.failed++;
        }
      });
      await store.contexts.putCachedContexts(fresh);
    }
  }
  await store.contexts.updateChunkContexts(updates);
  return outcome;
}

async function generate(
  generator: ContextGenerator,
  chunks: readonly ChunkForContext[],
  documentText: string,
  signal?: AbortSignal,
): Promise<{ contexts: readonly (string | null)[]; reasons: readonly (string | null)[] }> {
  try {
    const contexts = await generator.contextualizeBatch(
      chunks,
      documentText,
      signal ? { signal } : {},
    );
    return { contexts, reasons: contexts.map(() => null) };
  } catch (error) {
    if (error instanceof ContextBatchError)
      return { contexts: error.contexts, reasons: error.reasons };
    if (signal?.aborted) throw error;
    const reason = (error as Error).message.split("\n")[0] ?? "failed";
    return { contexts: chunks.map(() => null), reasons: chunks.map(() => reason) };
  }
}

function forContext(chunk: StoredChunk, byId: ReadonlyMap<number, StoredChunk>): ChunkForContext {
  return {
    content: chunk.content,
    path: chunk.path,
    language: chunk.language,
    kind: chunk.kind,
    symbol: chunk.symbol,
    enclosing: enclosingOf(chunk, byId),
    defines: chunk.defines,
    startLine: chunk.startLine,
    endLine: chunk.endLine,
  };
}
