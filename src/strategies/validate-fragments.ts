import type { ContextFragment, FragmentSource } from "../core/fragment.js";
import { RANK_SIGNALS, type RankSignals } from "../core/rank-signals.js";
import type { TokenCounter } from "../core/token-counter.js";

/**
 * Keeps the well-formed fragments a strategy returned and re-derives what the
 * engine relies on (token count, producing strategy), so a buggy or custom
 * strategy cannot break packing. Returns how many were dropped as malformed.
 */
export function validateFragments(
  output: unknown,
  strategy: string,
  counter: TokenCounter,
): { fragments: ContextFragment[]; malformed: number; notAnArray: boolean } {
  if (!Array.isArray(output)) return { fragments: [], malformed: 0, notAnArray: true };
  const fragments: ContextFragment[] = [];
  let malformed = 0;
  for (const item of output as unknown[]) {
    const fragment = item as Partial<ContextFragment> | null;
    const source = validSource(fragment?.source);
    if (
      typeof fragment !== "object" ||
      fragment === null ||
      typeof fragment.id !== "string" ||
      fragment.id.length === 0 ||
      typeof fragment.content !== "string" ||
      typeof fragment.score !== "number" ||
      !Number.isFinite(fragment.score) ||
      source === null
    ) {
      malformed++;
      continue;
    }
    fragments.push({
      id: fragment.id,
      source,
      content: fragment.content,
      tokens: counter.count(fragment.content),
      score: fragment.score,
      strategy,
      tier: fragment.tier === "hot" || fragment.tier === "cold" ? fragment.tier : "warm",
      nodeId: typeof fragment.nodeId === "string" ? fragment.nodeId : fragment.id,
      detailDepth:
        fragment.detailDepth === "signature" || fragment.detailDepth === "outline"
          ? fragment.detailDepth
          : "full",
      symbol: typeof fragment.symbol === "string" ? fragment.symbol : "",
      chunkKind: typeof fragment.chunkKind === "string" ? fragment.chunkKind : "code",
      ...(typeof fragment.context === "string" ? { context: fragment.context } : {}),
      ...(Array.isArray(fragment.ranking)
        ? { ranking: fragment.ranking.filter((reason) => typeof reason === "string") }
        : {}),
      ...validSignals(fragment.signals),
      chunkIds: Array.isArray(fragment.chunkIds)
        ? fragment.chunkIds.filter((id) => typeof id === "number")
        : [],
    });
  }
  return { fragments, malformed, notAnArray: false };
}

/** The signals that are finite numbers, by their known names: what the learned ranking reads. */
function validSignals(signals: unknown): { signals?: RankSignals } {
  if (typeof signals !== "object" || signals === null) return {};
  const given = signals as Record<string, unknown>;
  const valid: Record<string, number> = {};
  let any = false;
  for (const name of RANK_SIGNALS) {
    const value = given[name];
    if (typeof value === "number" && Number.isFinite(value)) {
      valid[name] = value;
      any = true;
    }
  }
  return any ? { signals: valid as RankSignals } : {};
}

function validSource(source: unknown): FragmentSource | null {
  if (typeof source !== "object" || source === null) return null;
  const candidate = source as Record<string, unknown>;
  switch (candidate.kind) {
    case "file": {
      const { resourceId, path, startLine, endLine, language } = candidate;
      const valid =
        typeof path === "string" &&
        path.length > 0 &&
        Number.isInteger(startLine) &&
        Number.isInteger(endLine) &&
        (startLine as number) >= 1 &&
        (endLine as number) >= (startLine as number);
      return valid
        ? {
            kind: "file",
            resourceId: typeof resourceId === "string" ? resourceId : "",
            path: path as string,
            startLine: startLine as number,
            endLine: endLine as number,
            language: typeof language === "string" ? language : "text",
          }
        : null;
    }
    case "commit": {
      const text = (value: unknown) => (typeof value === "string" ? value : "");
      return typeof candidate.sha === "string" && candidate.sha.length > 0
        ? {
            kind: "commit",
            sha: candidate.sha,
            date: text(candidate.date),
            author: text(candidate.author),
            subject: text(candidate.subject),
            path: typeof candidate.path === "string" ? candidate.path : null,
          }
        : null;
    }
    case "decision":
      return typeof candidate.id === "string" ? { kind: "decision", id: candidate.id } : null;
    default:
      return null;
  }
}
