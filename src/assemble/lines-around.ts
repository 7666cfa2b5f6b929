import type { ContextFragment } from "../core/fragment.js";
import { withLines } from "../core/fragment-id.js";
import { StoredLines } from "../core/stored-lines.js";
import type { LineSpan, TextBackend } from "../core/text-backend.js";
import { compareForOutput, mergeKey } from "./merge-fragments.js";

/**
 * How many lines above and below a fragment are offered with it. Chosen on the
 * commit benchmark and swe-dev (their twenty repositories, each left out in
 * turn, by the mean of the six file@ and line@ figures) among 40 and 60 lines,
 * with every file kept, none kept, or those from `AROUND_KEEPS_FILES_FROM`: 19
 * folds chose this, and 18 of the 20 left out gained. Against answers without
 * them: line@2k 48.5 → 49.4 and 41.0 → 42.7, line@8k 71.2 → 73.2 and
 * 64.7 → 68.6, line@32k 82.6 → 83.8 and 82.8 → 84.8; file@ unchanged but
 * swe-dev's file@2k, 73.7 → 73.4.
 */
export const AROUND_LINES = 40;

/** How many of an answer's best fragments get the lines around them offered. */
export const AROUND_FRAGMENTS = 20;

/**
 * The lines around a fragment are scored this share of the fragment's own
 * score: they take the place of the answer's weakest fragments, never of a
 * fragment nearly as good as the one they surround.
 */
export const AROUND_SHARE = 0.2;

/**
 * The lines around a fragment never push out a file whose best fragment
 * scores this or more; the weak tail below it (changelogs, other tests) held
 * almost none of the lines a commit changed.
 */
export const AROUND_KEEPS_FILES_FROM = 0.05;

/**
 * Files whose lines are read before packing: those of the candidates' first
 * this many. Twice as many read the same lines into the answers of both
 * development sets but one (rack, one commit's line@2k) and cost 1-2 ms a query.
 */
const AROUND_PREFETCH = AROUND_FRAGMENTS;

/** The placement rule's name in a fragment's rank breakdown. */
export const AROUND_RULE = "lines-around";

export const AROUND_REASON = "the lines around one of the answer's best fragments";

/** The indexed lines of a file (those read of it), by resource and path. */
export type LinesOf = (resourceId: string, path: string) => StoredLines | undefined;

/**
 * The indexed lines around the first candidates (those whose best fragments an
 * answer is likely to show), read from their stored chunks, which hold the
 * file's lines exactly: only the spans the lines around them may take, so a
 * hit deep in a large file does not read the whole file.
 */
export async function linesOfFirstFiles(
  candidates: readonly ContextFragment[],
  text: TextBackend | undefined,
): Promise<LinesOf> {
  if (!text) return () => undefined;
  const key = (resourceId: string, path: string) => `${resourceId}\0${path}`;
  const spans = new Map<string, { resourceId: string; path: string; spans: LineSpan[] }>();
  for (const candidate of [...candidates].sort(compareForOutput).slice(0, AROUND_PREFETCH)) {
    const { source } = candidate;
    if (source.kind !== "file" || candidate.tier === "hot") continue;
    const at = key(source.resourceId, source.path);
    const file = spans.get(at) ?? { resourceId: source.resourceId, path: source.path, spans: [] };
    file.spans.push({
      from: Math.max(1, source.startLine - AROUND_LINES),
      to: source.endLine + AROUND_LINES,
    });
    spans.set(at, file);
  }
  // Read at once: over PostgreSQL each span is a round trip.
  const read = await Promise.all(
    [...spans].map(async ([at, file]) => {
      const chunks = await Promise.all(
        joinedSpans(file.spans).map((span) =>
          text.getDocumentChunks(file.resourceId, file.path, undefined, span),
        ),
      );
      return [at, new StoredLines(chunks.flat())] as const;
    }),
  );
  const files = new Map(read);
  return (resourceId, path) => files.get(key(resourceId, path));
}

/** The spans, those that overlap or touch joined, in line order. */
function joinedSpans(spans: readonly LineSpan[]): LineSpan[] {
  const joined: LineSpan[] = [];
  for (const span of [...spans].sort((a, b) => a.from - b.from)) {
    const last = joined.at(-1);
    if (last && span.from <= last.to + 1)
      joined[joined.length - 1] = { ...last, to: Math.max(last.to, span.to) };
    else joined.push(span);
  }
  return joined;
}

/**
 * The lines above and below a fragment (up to `AROUND_LINES` each way, as far
 * as the index holds them), as fragments scored `AROUND_SHARE` of its own and
 * not yet counted (the packer counts them only as far as its room); they stop
 * at a line `shown` already, so they cost only what they add. A
 * change seldom stays within the lines a search matched: where a commit's file
 * was found, its changed lines were often just above or below the fragment
 * shown, and they are what a reader scrolls to next.
 */
export function linesAround(
  fragment: ContextFragment,
  linesOf: LinesOf,
  shown: (line: number) => boolean = () => false,
): ContextFragment[] {
  const { source } = fragment;
  if (source.kind !== "file" || fragment.tier === "hot") return [];
  const lines = linesOf(source.resourceId, source.path);
  if (!lines) return [];
  const around: ContextFragment[] = [];
  const offer = (from: number, to: number) => {
    if (from > to) return;
    const content = lines.text(from, to);
    const score = AROUND_SHARE * fragment.score;
    around.push({
      id: withLines(fragment.id, from, to),
      source: { ...source, startLine: from, endLine: to },
      content,
      // Counted as they are packed, only as far as the room (see PackOptions.around).
      tokens: 0,
      score,
      strategy: fragment.strategy,
      tier: fragment.tier,
      nodeId: `${source.resourceId}:${source.path}#${String(from).padStart(8, "0")}`,
      detailDepth: "full",
      symbol: "",
      chunkKind: "window",
      chunkIds: [],
      ranking: [AROUND_REASON],
      rank: { by: "strategy", base: score, rules: [], placed: AROUND_RULE },
    });
  };
  const free = (line: number) => lines.has(line) && !shown(line);
  let above = source.startLine;
  while (above > 1 && source.startLine - above < AROUND_LINES && free(above - 1)) above--;
  offer(above, source.startLine - 1);
  let below = source.endLine;
  while (below - source.endLine < AROUND_LINES && free(below + 1)) below++;
  offer(source.endLine + 1, below);
  return around;
}

/**
 * The order in which what was chosen is packed again with the lines around
 * its best fragments: pinned files, then each file's best fragment where it
 * scores `AROUND_KEEPS_FILES_FROM` or more (the lines around others never
 * push such a file out), then the rest, the lines around included, by score.
 */
export function inOrderWithLinesAround<T extends { readonly fragment: ContextFragment }>(
  chosen: readonly T[],
  around: readonly T[],
): T[] {
  const bestOfFile = new Map<string, ContextFragment>();
  for (const { fragment } of chosen) {
    const best = bestOfFile.get(mergeKey(fragment));
    if (!best || compareForOutput(fragment, best) < 0) bestOfFile.set(mergeKey(fragment), fragment);
  }
  const placeOf = (fragment: ContextFragment) =>
    fragment.tier === "hot"
      ? 0
      : fragment.score >= AROUND_KEEPS_FILES_FROM && bestOfFile.get(mergeKey(fragment)) === fragment
        ? 1
        : 2;
  return [...chosen, ...around].sort(
    (a, b) => placeOf(a.fragment) - placeOf(b.fragment) || compareForOutput(a.fragment, b.fragment),
  );
}
