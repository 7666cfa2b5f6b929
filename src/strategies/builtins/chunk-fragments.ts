import { reduceDetail } from "../../assemble/detail-depth.js";
import type { ContextFragment } from "../../core/fragment.js";
import { fileFragmentId } from "../../core/fragment-id.js";
import type { TokenCounter } from "../../core/token-counter.js";
import type { StoredChunk } from "../../core/types.js";

/** A stored chunk as a fragment of the working tree. */
export function chunkFragment(
  chunk: StoredChunk,
  score: number,
  strategy: string,
  counter: TokenCounter,
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
    tokens: counter.count(chunk.content),
    score,
    strategy,
    tier: "warm",
    nodeId: `${chunk.resourceId}:${chunk.path}#${String(chunk.startLine).padStart(8, "0")}`,
    detailDepth: "full",
    symbol: chunk.symbol,
    chunkKind: chunk.kind,
    chunkIds: [chunk.id],
    ...(chunk.context ? { context: chunk.context } : {}),
  };
}

/** The fragment, or its signature or outline when only that fits in `room` tokens; null when nothing does. */
export function fitFragment(
  fragment: ContextFragment,
  room: number,
  counter: TokenCounter,
): ContextFragment | null {
  if (fragment.tokens <= room) return fragment;
  for (const depth of ["signature", "outline"] as const) {
    const reduced = reduceDetail(fragment, depth);
    if (!reduced) continue;
    const tokens = counter.count(reduced.content);
    if (tokens <= room) return { ...reduced, tokens };
  }
  return null;
}

/**
 * Scored chunks as fragments, best first, while their tokens fit `total`:
 * what a chunk-returning strategy hands to the pipeline.
 */
export function fragmentsWithin(
  scored: readonly { chunk: StoredChunk; score: number }[],
  total: number,
  strategy: string,
  counter: TokenCounter,
): ContextFragment[] {
  const fragments: ContextFragment[] = [];
  let used = 0;
  for (const { chunk, score } of scored) {
    const fragment = fitFragment(
      chunkFragment(chunk, score, strategy, counter),
      total - used,
      counter,
    );
    if (!fragment) continue;
    used += fragment.tokens;
    fragments.push(fragment);
  }
  return fragments;
}
