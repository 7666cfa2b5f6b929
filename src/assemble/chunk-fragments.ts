import type { ContextFragment } from "../core/fragment.js";
import { fileFragmentId } from "../core/fragment-id.js";
import type { RankSignals } from "../core/rank-signals.js";
import type { TokenCounter } from "../core/token-counter.js";
import type { StoredChunk } from "../core/types.js";
import { reduceDetail } from "./detail-depth.js";

/** A stored chunk as a fragment of the working tree; `tokens`: its text's count, when known. */
export function chunkFragment(
  chunk: StoredChunk,
  score: number,
  strategy: string,
  counter: TokenCounter,
  tokens = counter.count(chunk.content),
): ContextFragment {
  return {
    id: fileFragmentId(chunk.resourceId, chunk.path, chunk.startLine, chunk.endLine),
    source: {
      kind: "file",
      resourceId: chunk.resourceId,
      path: chunk.path,
      startLine: chunk.startLine,
      endLine: chunk.endLine,
      language: chunk.language,
    },
    content: chunk.content,
    tokens,
    score,
    strategy,
    tier: "warm",
    nodeId: `${chunk.resourceId}:${chunk.path}#${String(chunk.startLine).padStart(8, "0")}`,
    detailDepth: "full",
    symbol: chunk.symbol,
    chunkKind: chunk.kind,
    chunkIds: [chunk.id],
    ...(chunk.context ? { context: chunk.context } : {}),
    // Only the parts after the first of a split span carry a header (the definition's signature).
    ...(chunk.header.length > 0 ? { continued: true } : {}),
  };
}

/**
 * The fragment, or its signature or outline when only that fits in `room`
 * tokens (loose code cut down to its lines that hold most of `focus`, the
 * task's terms); null when nothing does.
 */
export function fitFragment(
  fragment: ContextFragment,
  room: number,
  counter: TokenCounter,
  focus?: ReadonlySet<string>,
): ContextFragment | null {
  return fragment.tokens <= room ? fragment : reducedWithin(fragment, room, counter, focus);
}

/**
 * The chunk within `room` tokens: whole when it fits, else its signature or
 * outline; null when nothing does. Text too long to fit whole is counted only
 * as far as the room: most of a query's hits do not fit, and counting each of
 * them to the end cost a query as much as its search.
 */
export function chunkWithin(
  chunk: StoredChunk,
  score: number,
  strategy: string,
  counter: TokenCounter,
  room: number,
  focus?: ReadonlySet<string>,
): ContextFragment | null {
  if (room <= 0) return null;
  const tokens = counter.countUpTo?.(chunk.content, room) ?? counter.count(chunk.content);
  // Past the room `tokens` may be a partial count: that fragment is only cut down, never shown.
  const whole = chunkFragment(chunk, score, strategy, counter, tokens);
  return tokens <= room ? whole : reducedWithin(whole, room, counter, focus);
}

/** The fragment's signature or outline when one fits in `room` tokens. */
function reducedWithin(
  fragment: ContextFragment,
  room: number,
  counter: TokenCounter,
  focus?: ReadonlySet<string>,
): ContextFragment | null {
  if (room <= 0) return null;
  for (const depth of ["signature", "outline"] as const) {
    const reduced = reduceDetail(fragment, depth, focus);
    if (!reduced) continue;
    const tokens = counter.countUpTo?.(reduced.content, room) ?? counter.count(reduced.content);
    if (tokens <= room) return { ...reduced, tokens };
  }
  return null;
}

/**
 * Scored chunks as fragments, best first, while their tokens fit `total`:
 * what a chunk-returning strategy hands to the pipeline.
 */
export function fragmentsWithin(
  scored: readonly { chunk: StoredChunk; score: number; signals?: RankSignals }[],
  total: number,
  strategy: string,
  counter: TokenCounter,
  focus?: ReadonlySet<string>,
): ContextFragment[] {
  const fragments: ContextFragment[] = [];
  let used = 0;
  for (const { chunk, score, signals } of scored) {
    const fragment = chunkWithin(chunk, score, strategy, counter, total - used, focus);
    if (!fragment) continue;
    used += fragment.tokens;
    fragments.push(signals ? { ...fragment, signals } : fragment);
  }
  return fragments;
}
