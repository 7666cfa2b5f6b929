import { reduceDetail } from "../../assemble/detail-depth.js";
import type { ContextFragment, DetailDepth } from "../../core/fragment.js";
import type { GraphFile, GraphNode, LoadedGraph } from "../../core/graph.js";
import type {
  Backends,
  ContextRequest,
  ContextStrategy,
  StrategyCapabilities,
  TokenBudget,
} from "../../core/strategy.js";
import { DEFAULT_CAPABILITIES } from "../../core/strategy.js";
import type { TextBackend, TextHit } from "../../core/text-backend.js";
import type { TokenCounter } from "../../core/token-counter.js";
import type { StoredChunk } from "../../core/types.js";
import {
  chunkNodes,
  focusSeeds,
  keywordSeeds,
  mentionSeeds,
  mergeSeeds,
} from "../../graph/graph-seeds.js";
import { DEFAULT_WALK, type RankedNode, rankAround } from "../../graph/graph-walk.js";
import { queryTerms } from "../../text/code-tokenizer.js";
import { chunkFragment } from "./chunk-fragments.js";
import { definitionFragment, StoredLines } from "./definition-fragments.js";
import type { NavigatorSettings } from "./navigator-settings.js";
import { DEFAULT_MAX_FRAGMENTS } from "./simple-keyword.js";

/** How much the walk's centrality adds to a keyword hit's score (its best is 1). */
const GRAPH_WEIGHT = Number(process.env.CTX_NAV_GW ?? 0.5);
const HIT_WEIGHT = Number(process.env.CTX_NAV_HW ?? 1);
const NEIGHBOUR_WEIGHT = Number(process.env.CTX_NAV_NW ?? 1);
/** Definitions the walk reached that no keyword hit holds, taken as candidates. */
const MAX_REACHED = Number(process.env.CTX_NAV_MR ?? 60);
/** Share of the budget whole bodies may fill; signatures and declaration lines get the rest. */
const FULL_SHARE = Number(process.env.CTX_NAV_FS ?? 0.75);
/** One body may take at most this share of the budget, else it shows as its signature. */
const MAX_BODY_SHARE = 0.4;
/** Share of the budget signatures may fill, with bodies. */
const SIGNATURE_SHARE = 0.92;

/**
 * The code graph walked from what the task names: its keyword hits, the
 * definitions whose names it mentions, and the request's focus. Nodes within
 * `breadth_hops` edges (callers, callees, importers, imports, parents,
 * children) are ranked by PageRank personalised by those seeds; the best are
 * shown whole, the next as signature and doc comment, more as declaration
 * lines, so a budget holds many more related definitions than bodies would.
 */
export class BreadthDepthNavigatorStrategy implements ContextStrategy {
  readonly name = "breadth-depth-navigator";
  readonly capabilities: StrategyCapabilities = {
    ...DEFAULT_CAPABILITIES,
    usesText: true,
    usesGraph: true,
    resourceTypes: ["folder", "git"],
    qualityScore: 0.85,
    supportsDepthBreadth: true,
  };

  constructor(
    private readonly counter: TokenCounter,
    private readonly settings: NavigatorSettings,
  ) {}

  canHandle(request: ContextRequest, backends: Backends): number {
    if (!backends.graph || !backends.text) return 0;
    if ((request.focus?.length ?? 0) > 0) return 0.8;
    return queryTerms(request.task).length > 0 ? 0.6 : 0;
  }

  async assemble(
    request: ContextRequest,
    backends: Backends,
    budget: TokenBudget,
    _plan?: unknown,
    signal?: AbortSignal,
  ): Promise<ContextFragment[]> {
    const { text, graph: source } = backends;
    if (!text || !source) return [];
    const graph = await source.load();
    signal?.throwIfAborted();
    const hits = await text.searchText({
      terms: queryTerms(request.task),
      limit: Math.max(request.maxFragments ?? DEFAULT_MAX_FRAGMENTS, this.settings.seedHits),
      ...(request.paths ? { pathPrefixes: request.paths } : {}),
    });
    const seeds = mergeSeeds(
      keywordSeeds(graph, hits.slice(0, this.settings.seedHits)),
      mentionSeeds(graph, request.task),
      focusSeeds(graph, request.focus ?? []),
    );
    const ranked = inPaths(
      graph,
      rankAround(graph, seeds, { ...DEFAULT_WALK, hops: this.settings.breadthHops }),
      request.paths,
    );
    signal?.throwIfAborted();
    const candidates = this.candidates(graph, hits, ranked);
    return this.fill(graph, candidates, text, request, budget, signal);
  }

  /**
   * Keyword hits re-scored by how central the walk found their definitions,
   * and the definitions the walk reached that no hit holds, by centrality alone.
   */
  private candidates(
    graph: LoadedGraph,
    hits: readonly TextHit[],
    ranked: readonly RankedNode[],
  ): Candidate[] {
    // Only definitions carry graph evidence: a file node stands for text the graph knows nothing of.
    const isDefinition = (node: number) => {
      const kind = graph.nodes[node]?.kind;
      return kind !== undefined && kind !== "file";
    };
    const hub = Number(process.env.CTX_NAV_HUB ?? 0);
    const centrality = hub > 0 ? graph.centrality : null;
    const raw = new Map(
      ranked
        .filter((r) => isDefinition(r.node))
        .map((r) => [
          r.node,
          centrality ? r.received / Math.max(1e-12, centrality[r.node] ?? 0) ** hub : r.received,
        ]),
    );
    const best = Math.max(0, ...raw.values());
    const support = new Map([...raw].map(([node, value]) => [node, best > 0 ? value / best : 0]));
    const bestHit = Math.max(1e-9, ...hits.map((hit) => hit.score));
    const covered = new Set<number>();
    const candidates: Candidate[] = hits.map((hit) => {
      const nodes = chunkNodes(graph, hit.chunk);
      for (const node of nodes) covered.add(node);
      const graphScore = Math.max(0, ...nodes.map((node) => support.get(node) ?? 0));
      return {
        chunk: hit.chunk,
        score: hit.score / bestHit + HIT_WEIGHT * GRAPH_WEIGHT * graphScore,
      };
    });
    let reached = 0;
    const byReceived = [...ranked].sort((a, b) => b.received - a.received || a.node - b.node);
    for (const { node } of byReceived) {
      if (reached >= MAX_REACHED) break;
      const graphNode = graph.nodes[node];
      if (!graphNode || !isDefinition(node) || covered.has(node)) continue;
      const score = NEIGHBOUR_WEIGHT * GRAPH_WEIGHT * (support.get(node) ?? 0);
      if (score <= 0) break;
      candidates.push({ node: graphNode, score });
      reached++;
    }
    return candidates.sort((a, b) => b.score - a.score);
  }

  /** Candidates best first, each at the richest depth its share of the budget allows. */
  private async fill(
    graph: LoadedGraph,
    candidates: readonly Candidate[],
    text: TextBackend,
    request: ContextRequest,
    budget: TokenBudget,
    signal?: AbortSignal,
  ): Promise<ContextFragment[]> {
    const total = budget.total;
    const maxFragments = request.maxFragments ?? DEFAULT_MAX_FRAGMENTS;
    const linesOf = new Map<string, Promise<StoredLines>>();
    const stored = (file: GraphFile) => {
      const key = `${file.resourceId}\0${file.path}`;
      let lines = linesOf.get(key);
      if (!lines) {
        lines = text
          .getDocumentChunks(file.resourceId, file.path)
          .then((chunks) => new StoredLines(chunks));
        linesOf.set(key, lines);
      }
      return lines;
    };
    const fragments: ContextFragment[] = [];
    let used = 0;
    let usedWhole = 0;
    for (const candidate of candidates) {
      if (fragments.length >= maxFragments || total - used < 8) break;
      const rooms = {
        room: total - used,
        wholeRoom: Math.min(FULL_SHARE * total - usedWhole, MAX_BODY_SHARE * total),
        signatureRoom: SIGNATURE_SHARE * total - used,
      };
      let fragment: ContextFragment | null;
      if ("chunk" in candidate) {
        fragment = this.fitChunk(candidate.chunk, candidate.score, rooms);
      } else {
        const file = graph.files[candidate.node.file];
        if (!file) continue;
        const lines = await stored(file);
        signal?.throwIfAborted();
        if (!lines.has(candidate.node.startLine)) continue;
        fragment = this.richestFitting(candidate.node, file, lines, candidate.score, rooms);
      }
      if (!fragment) continue;
      fragments.push(fragment);
      used += fragment.tokens;
      if (fragment.detailDepth === "full") usedWhole += fragment.tokens;
    }
    return fragments;
  }

  private fitChunk(chunk: StoredChunk, score: number, rooms: Rooms): ContextFragment | null {
    const whole = chunkFragment(chunk, score, this.name, this.counter);
    if (whole.tokens <= Math.min(rooms.room, rooms.wholeRoom)) return whole;
    for (const [depth, room] of [
      ["signature", Math.min(rooms.room, rooms.signatureRoom)],
      ["outline", rooms.room],
    ] as const) {
      const reduced = reduceDetail(whole, depth);
      if (!reduced) continue;
      const tokens = this.counter.count(reduced.content);
      if (tokens <= room) return { ...reduced, tokens };
    }
    return null;
  }

  private richestFitting(
    node: GraphNode,
    file: GraphFile,
    lines: StoredLines,
    score: number,
    rooms: Rooms,
  ): ContextFragment | null {
    const depths: [DetailDepth, number][] = [
      ["full", process.env.CTX_NAV_NSIG === "1" ? -1 : Math.min(rooms.room, rooms.wholeRoom)],
      ["signature", Math.min(rooms.room, rooms.signatureRoom)],
      ["outline", rooms.room],
    ];
    for (const [depth, room] of depths) {
      const fragment = definitionFragment(node, file, depth, lines, score, this.name, this.counter);
      if (fragment.tokens <= room) return fragment;
    }
    return null;
  }

  explain(): string {
    return (
      "breadth-depth-navigator: walks the code graph (calls, type uses, imports, inheritance, " +
      "containment, both ways) up to breadth_hops edges from the task's keyword hits, the " +
      "definitions it names and the request's focus, ranks definitions by personalised " +
      "PageRank, and shows the best whole, the next as signature and doc comment, more as " +
      "declaration lines."
    );
  }
}

interface Rooms {
  /** What is left of the whole budget. */
  readonly room: number;
  /** What whole bodies may still take. */
  readonly wholeRoom: number;
  /** What signatures (with bodies) may still take. */
  readonly signatureRoom: number;
}

type Candidate =
  | { readonly chunk: StoredChunk; readonly score: number }
  | { readonly node: GraphNode; readonly score: number };

function inPaths(
  graph: LoadedGraph,
  ranked: readonly RankedNode[],
  paths: readonly string[] | undefined,
): readonly RankedNode[] {
  if (!paths || paths.length === 0) return ranked;
  return ranked.filter(({ node }) => {
    const path = graph.files[graph.nodes[node]?.file ?? -1]?.path ?? "";
    return paths.some((prefix) => path === prefix || path.startsWith(prefix));
  });
}
