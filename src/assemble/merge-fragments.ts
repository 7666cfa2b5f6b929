import type { ContextFragment } from "../core/fragment.js";
import { withLines } from "../core/fragment-id.js";

/**
 * Merges fragments of the same file whose line ranges overlap or touch into one
 * fragment covering both, with the higher score; fragments of other kinds pass
 * through. Duplicates (same id) keep the best-scored copy.
 */
export function mergeFragments(
  fragments: readonly ContextFragment[],
  countTokens: (text: string) => number,
): ContextFragment[] {
  const byId = new Map<string, ContextFragment>();
  for (const fragment of fragments) {
    const seen = byId.get(fragment.id);
    if (!seen || fragment.score > seen.score) byId.set(fragment.id, fragment);
  }
  const groups = new Map<string, ContextFragment[]>();
  const others: ContextFragment[] = [];
  for (const fragment of byId.values()) {
    if (fragment.source.kind !== "file") {
      others.push(fragment);
      continue;
    }
    const key = `${fragment.source.resourceId}:${fragment.source.path}`;
    const group = groups.get(key);
    if (group) group.push(fragment);
    else groups.set(key, [fragment]);
  }
  const merged: ContextFragment[] = [...others];
  for (const group of groups.values()) {
    group.sort(
      (a, b) => lineOf(a, "start") - lineOf(b, "start") || lineOf(a, "end") - lineOf(b, "end"),
    );
    let current = group[0] as ContextFragment;
    const flush = (fragment: ContextFragment, combined: boolean) => {
      merged.push(combined ? { ...fragment, tokens: countTokens(fragment.content) } : fragment);
    };
    let combined = false;
    for (const next of group.slice(1)) {
      if (lineOf(next, "start") <= lineOf(current, "end") + 1) {
        current = combine(current, next);
        combined = true;
      } else {
        flush(current, combined);
        current = next;
        combined = false;
      }
    }
    flush(current, combined);
  }
  return merged;
}

/** Fragments of one file share this key (and may merge); any other fragment has its own. */
export function mergeKey(fragment: ContextFragment): string {
  const { source } = fragment;
  return source.kind === "file"
    ? `file\0${source.resourceId}\0${source.path}`
    : `id\0${fragment.id}`;
}

/**
 * Orders by relevance (to three decimals, as rendered), then node id (resource, path and zero-padded line for
 * file fragments), then id: the order fragments are packed and shown in.
 */
export function compareForOutput(a: ContextFragment, b: ContextFragment): number {
  // At the precision the output shows, so what reads as a tie is ordered as one.
  const scoreA = Math.round(a.score * 1000);
  const scoreB = Math.round(b.score * 1000);
  if (scoreA !== scoreB) return scoreB - scoreA;
  if (a.nodeId !== b.nodeId) return a.nodeId < b.nodeId ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function lineOf(fragment: ContextFragment, which: "start" | "end"): number {
  if (fragment.source.kind !== "file") return 0;
  return which === "start" ? fragment.source.startLine : fragment.source.endLine;
}

/** `b` starts inside or right after `a`: keep a's lines and append b's lines past a's end. */
function combine(a: ContextFragment, b: ContextFragment): ContextFragment {
  if (a.source.kind !== "file" || b.source.kind !== "file") return a;
  const endA = a.source.endLine;
  const endB = b.source.endLine;
  let content = a.content;
  if (endB > endA) {
    const extra = b.content.split("\n").slice(endA - b.source.startLine + 1);
    content = `${a.content}\n${extra.join("\n")}`;
  }
  const best = b.score > a.score ? b : a;
  const other = best === a ? b : a;
  const endLine = Math.max(endA, endB);
  // Lines a placement rule added (the rest of a file, the lines around a fragment) say so.
  const added = other.rank?.placed ? (other.ranking ?? []) : [];
  const ranking = [...(best.ranking ?? []), ...added.filter((r) => !best.ranking?.includes(r))];
  return {
    ...best,
    ...(ranking.length > 0 ? { ranking } : {}),
    // A signature with whole lines beside it is shown as lines, not as a signature.
    detailDepth: a.detailDepth === "full" || b.detailDepth === "full" ? "full" : best.detailDepth,
    id: withLines(a.id, a.source.startLine, endLine),
    source: { ...a.source, endLine },
    content,
    nodeId: [a.nodeId, b.nodeId].sort()[0] ?? a.nodeId,
    chunkIds: [...new Set([...a.chunkIds, ...b.chunkIds])],
  };
}
