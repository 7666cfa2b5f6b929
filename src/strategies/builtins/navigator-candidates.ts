import type { GraphNode, LoadedGraph } from "../../core/graph.js";
import type { TaskIdentifier } from "../../core/history.js";
import type { RankSignals } from "../../core/rank-signals.js";
import type { TextHit } from "../../core/text-backend.js";
import type { StoredChunk } from "../../core/types.js";
import { chunkNodes } from "../../graph/graph-seeds.js";
import type { RankedNode } from "../../graph/graph-walk.js";
import type { LocatedLine } from "../../graph/location-seeds.js";
import type { HistoryLift } from "../../history/history-lift.js";
import type { MessageSupport } from "../../history/message-support.js";
import { expansionReasons } from "../../history/task-identifiers.js";
import { firstInOrder } from "../../rank/first-in-order.js";
import { keywordSignals } from "../../rank/keyword-signals.js";
import type { FragmentPlace } from "../../rank/rank-features.js";

/** Definitions the walk reached that no keyword hit holds, taken as candidates. */
export const MAX_REACHED = 20;

/**
 * Keyword hits scored by the learned ranking with how central the walk found
 * their definitions and what the history says of their files, and the
 * definitions the walk reached that no hit holds, by centrality alone.
 */
export function navigatorCandidates(
  graph: LoadedGraph,
  hits: readonly TextHit[],
  ranked: readonly RankedNode[],
  seeded: SeededFocus,
  located: readonly LocatedLine[],
  history: History,
  scoreOf: (signals: RankSignals, where: FragmentPlace) => number,
  stems: ReadonlySet<string>,
): Candidate[] {
  const focus = seeded.nodes;
  const inFocus = seeded.inFocus ?? (() => false);
  const locatedNodes = new Set(located.map(({ node }) => node));
  const holdsLocated = (chunk: StoredChunk) =>
    located.some(
      (place) =>
        place.resourceId === chunk.resourceId &&
        place.path === chunk.path &&
        place.line >= chunk.startLine &&
        place.line <= chunk.endLine,
    );
  // Only definitions carry graph evidence: a file node stands for text the graph knows nothing of.
  const isDefinition = (node: number) => {
    const kind = graph.nodes[node]?.kind;
    return kind !== undefined && kind !== "file";
  };
  // Support is lift: what the walk brought over the node's whole-graph rank (plus an
  // average node's, so leaves that nothing uses do not win by dividing by nearly zero).
  const centrality = graph.centrality;
  const average = 1 / Math.max(1, graph.nodes.length);
  const support = new Map<number, number>();
  let best = 0;
  for (const { node, received } of ranked) {
    if (!isDefinition(node)) continue;
    const value = received / ((centrality[node] ?? 0) + average);
    support.set(node, value);
    if (value > best) best = value;
  }
  for (const [node, value] of support) support.set(node, best > 0 ? value / best : 0);
  // What the user said they work on is as central as anything the walk found.
  for (const node of focus) if (isDefinition(node)) support.set(node, 1);
  const covered = new Set<number>();
  const graphScores = hits.map((hit) => {
    const nodes = chunkNodes(graph, hit.chunk);
    for (const node of nodes) covered.add(node);
    return Math.max(0, ...nodes.map((node) => support.get(node) ?? 0));
  });
  // Copies of one text (a generated or vendored tree beside the source) get the support
  // of the best-supported copy: lift favours the copy nothing else uses, and which copy
  // to show (the packer keeps one) is for the text search to decide.
  const copyScores = new Map<string, number>();
  hits.forEach((hit, index) => {
    const { hash } = hit.chunk;
    copyScores.set(hash, Math.max(copyScores.get(hash) ?? 0, graphScores[index] ?? 0));
  });
  const keyword = keywordSignals(hits, stems);
  const candidates: Candidate[] = hits.map((hit, rank) => {
    const { chunk } = hit;
    const key = `${chunk.resourceId}\0${chunk.path}`;
    const signals: RankSignals = {
      ...keyword[rank],
      graph: copyScores.get(chunk.hash) ?? 0,
      coChange: history.partners?.get(key) ?? 0,
      message: history.messages?.get(key)?.support ?? 0,
      ...(holdsLocated(chunk) ? { located: 1 } : {}),
      ...(inFocus(chunk) ? { focused: 1 } : {}),
    };
    const where: FragmentPlace = {
      path: chunk.path,
      kind: chunk.kind,
      lines: chunk.endLine - chunk.startLine + 1,
      symbol: chunk.symbol,
    };
    return {
      chunk,
      score: scoreOf(signals, where),
      signals,
      ranking: [...history.reasons(key).reasons, ...expansionReasons(history.expansion, chunk)],
    };
  });
  const uncovered = ranked
    .filter(({ node }) => isDefinition(node) && !covered.has(node))
    .map(({ node, received }) => ({ node, received, support: support.get(node) ?? 0 }));
  const strongest = firstInOrder(
    uncovered,
    MAX_REACHED,
    (a, b) => b.support - a.support || b.received - a.received || a.node - b.node,
  );
  for (const { node } of strongest) {
    const graphNode = graph.nodes[node];
    if (!graphNode) continue;
    const value = support.get(node) ?? 0;
    if (value <= 0 && !focus.has(node)) break;
    // A line the task points at ranks with the best hit; a focused definition that
    // matches no word of the task is in the focus, not a match.
    const signals: RankSignals = locatedNodes.has(node)
      ? { keyword: 1, keywordRank: 0, graph: 1, located: 1 }
      : focus.has(node)
        ? { graph: 1, focused: 0.5 }
        : { graph: value, reached: 1 };
    const path = graph.files[graphNode.file]?.path ?? "";
    const where: FragmentPlace = {
      path,
      kind: graphNode.kind === "constant" || graphNode.kind === "file" ? "code" : graphNode.kind,
      lines: graphNode.endLine - graphNode.startLine + 1,
      symbol: graphNode.name,
    };
    candidates.push({
      node: graphNode,
      score: scoreOf(signals, where),
      signals,
      focused: focus.has(node),
    });
  }
  return candidates.sort((a, b) => b.score - a.score);
}

/** The walk's focus seeds (the request's focus and the lines the task points at), and what lies in the request's focus. */
export interface SeededFocus {
  readonly nodes: ReadonlySet<number>;
  readonly inFocus: ((chunk: StoredChunk) => boolean) | null;
}

export type Candidate =
  | {
      readonly chunk: StoredChunk;
      readonly score: number;
      readonly signals: RankSignals;
      readonly ranking: readonly string[];
    }
  | {
      readonly node: GraphNode;
      readonly score: number;
      readonly signals: RankSignals;
      readonly focused: boolean;
    };

/** What git history says of the hits' files, by `resourceId\0path`. */
export interface History {
  readonly partners: ReadonlyMap<string, number> | null;
  readonly messages: ReadonlyMap<string, MessageSupport> | null;
  /** The identifiers the history expanded the task with. */
  readonly expansion: readonly TaskIdentifier[];
  readonly reasons: (key: string) => HistoryLift;
}
