import { chunkFragment } from "../assemble/chunk-fragments.js";
import type { ContextFragment } from "../core/fragment.js";
import { fileFragmentId } from "../core/fragment-id.js";
import type { TextBackend } from "../core/text-backend.js";
import type { TokenCounter } from "../core/token-counter.js";

/**
 * Where the best file's head goes: right after this many candidates. Ahead of
 * them it took the place of hits (the code questions' Pass@5 fell at every
 * place from 1 to 4, by language: C++ 97.3 → 95.9, Java 77.0 → 71.7); from here
 * on it still lands in the first ten, and every place from 5 to 9 gave the same
 * figures.
 */
export const HEAD_AFTER = 5;

/**
 * The most of the budget the head may take: at 2,000 tokens a long head pushed
 * out hits of other files (poetry's file@2k 71.0 → 67.4 without history). Of
 * 0.05, 0.1 and no limit, 0.1's mean of the commit benchmark's six figures was
 * the best or level on every repository (better on two), so leaving any one
 * repository out chooses 0.1 too.
 */
export const HEAD_MAX_SHARE = 0.1;

/** The placement rule's name in a fragment's rank breakdown. */
export const HEAD_RULE = "best-file-head";

export const HEAD_REASON = "the best file's head: what its names refer to (imports, declarations)";

/**
 * The candidates with the best file's first chunk (its imports, package or
 * module line, the declarations at its top) placed right after the first
 * `HEAD_AFTER`, unless one of those already holds it. A hit deep in a file
 * reads better with what its names refer to; and where a question is about a
 * whole file, its head is part of the answer: on the code questions, 10 of the
 * 11 that missed a relevant unit in the first ten missed a file's first unit,
 * 6 of them their best file's.
 */
export async function withBestFileHead(
  candidates: readonly ContextFragment[],
  text: TextBackend | undefined,
  counter: TokenCounter,
  budget: number,
): Promise<ContextFragment[]> {
  const best = candidates[0];
  if (!text || !best || best.source.kind !== "file" || best.tier !== "warm") return [...candidates];
  const { resourceId, path, startLine } = best.source;
  if (startLine <= 1) return [...candidates];
  const head = (await text.getDocumentChunks(resourceId, path, 1))[0];
  if (!head || head.startLine >= startLine) return [...candidates];
  const holdsHead = (fragment: ContextFragment) =>
    fragment.source.kind === "file" &&
    fragment.source.resourceId === resourceId &&
    fragment.source.path === path &&
    fragment.source.startLine <= head.startLine &&
    fragment.source.endLine >= head.startLine;
  if (candidates.slice(0, HEAD_AFTER).some(holdsHead)) return [...candidates];
  const id = fileFragmentId(resourceId, path, head.startLine, head.endLine);
  const rest = candidates.filter((fragment) => fragment.id !== id);
  const place = Math.min(HEAD_AFTER, rest.length);
  const before = rest[place - 1]?.score ?? 0;
  const after = rest[place]?.score ?? 0;
  const score = (before + after) / 2;
  // A candidate further down keeps what its strategy measured (shown by --explain); only its place moves.
  const fragment =
    candidates.find((candidate) => candidate.id === id) ??
    chunkFragment(head, score, best.strategy, counter);
  if (fragment.tokens > HEAD_MAX_SHARE * budget) return [...candidates];
  const placed: ContextFragment = {
    ...fragment,
    score,
    ranking: [...(fragment.ranking ?? []), HEAD_REASON],
    rank: { ...(fragment.rank ?? { by: "strategy", base: score, rules: [] }), placed: HEAD_RULE },
  };
  return [...rest.slice(0, place), placed, ...rest.slice(place)];
}
