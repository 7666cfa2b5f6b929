import { CtxError } from "./errors.js";
import type { ChunkKind } from "./types.js";

/** A chunk as a context generator sees it: its text and where it sits. */
export interface ChunkForContext {
  readonly content: string;
  /** Relative path of its document; "" when unknown (evaluation units). */
  readonly path: string;
  readonly language: string;
  readonly kind: ChunkKind;
  readonly symbol: string;
  /** Enclosing symbols, innermost first (method's class, then its module). */
  readonly enclosing: readonly string[];
  /** Other symbols the chunk defines. */
  readonly defines: readonly string[];
  readonly startLine: number;
  readonly endLine: number;
}

export interface ContextOptions {
  /** Most model calls in flight at once for this batch. */
  readonly concurrency?: number;
  readonly signal?: AbortSignal;
}

/**
 * Writes a short context that situates each chunk in its document (Anthropic's
 * contextual retrieval), indexed with the chunk to make it easier to find.
 */
export interface ContextGenerator {
  /** Adapter name: `anthropic`, `claude-agent-sdk`, `openai-compatible`, `structural`, `none`. */
  readonly name: string;
  /** Model id, "" when no model is involved. */
  readonly model: string;
  /** Changes whenever prompts or output rules change, so cached contexts are regenerated. */
  readonly promptVersion: string;
  /** True when text leaves the machine: secrets are masked and secret files never sent. */
  readonly remote: boolean;
  /**
   * One context per chunk, in order. When some chunks fail after retries, throws
   * ContextBatchError holding the contexts that did succeed.
   */
  contextualizeBatch(
    chunks: readonly ChunkForContext[],
    documentText: string,
    options?: ContextOptions,
  ): Promise<string[]>;
}

/** Some chunks of a batch got no context; `contexts[i]` is null where `reasons[i]` says why. */
export class ContextBatchError extends CtxError {
  constructor(
    readonly contexts: readonly (string | null)[],
    readonly reasons: readonly (string | null)[],
  ) {
    const failed = reasons.filter((reason) => reason !== null);
    super(
      "context_batch",
      `${failed.length} of ${reasons.length} contexts could not be generated: ${failed[0] ?? ""}`,
    );
  }
}
