import type { ContextFragment, DetailDepth } from "../../core/fragment.js";
import {
  type GraphFile,
  type GraphNode,
  graphFileKey,
  type LoadedGraph,
} from "../../core/graph.js";
import type { TaskIdentifier } from "../../core/history.js";
import type { RankSignals } from "../../core/rank-signals.js";
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
import {
  DEFAULT_WALK,
  type RankedNode,
  rankAround,
  rankedWithinPaths,
} from "../../graph/graph-walk.js";
import {
  type LocatedLine,
  locateLines,
  locationSeeds,
  taskLocations,
} from "../../graph/location-seeds.js";
import { coChangeSupport } from "../../history/co-change-support.js";
import { type HistoryLift, historyLifts } from "../../history/history-lift.js";
import { type MessageSupport, messageSupport } from "../../history/message-support.js";
import { expandedTerms, expansionReasons } from "../../history/task-identifiers.js";
import { partnerFiles, toldFiles } from "../../history/told-files.js";
import { firstInOrder } from "../../rank/first-in-order.js";
import { keywordSignals } from "../../rank/keyword-signals.js";
import { learnedScore } from "../../rank/learned-ranking.js";
import { type FragmentPlace, taskFacts } from "../../rank/rank-features.js";
import { activeRankingModel } from "../../rank/ranking-model.js";
import { queryTerms } from "../../text/code-tokenizer.js";
import { chunkWithin } from "./chunk-fragments.js";
import { definitionFragment, StoredLines } from "./definition-fragments.js";
import type { NavigatorSettings } from "./navigator-settings.js";
import { DEFAULT_MAX_FRAGMENTS } from "./simple-keyword.js";

/** Definitions the walk reached that no keyword hit holds, taken as candidates. */
const MAX_REACHED = 20;
/** A focused definition is shown whole when its body takes at most this share of the budget. */
const MAX_BODY_SHARE = 0.4;
/** Walked definitions are shown as signatures while the output is under this share, then as declaration lines. */
const SIGNATURE_SHARE = 0.92;

/**
 * The code graph walked from what the task names: its keyword hits, the
 * definitions whose names it mentions, and the request's focus. Nodes within
 * `breadth_hops` edges (callers, callees, importers, imports, parents,
 * children) get PageRank personalised by those seeds; what reaches a node
 * along edges, over its whole-graph rank (so hubs every walk reaches do not
 * win), is its support. Keyword hits move up by their definitions' support
 * and are shown whole; definitions the walk reached that no hit holds join
 * as signature and doc comment, then as declaration lines, so a budget holds
 * many more related definitions than bodies would; focused ones come whole.
 * Where git history has been read, hits in files that often change together
 * with the best hits' files move up too, and so do those in files that past
 * commits worded like the task changed; such files no hit is in join them.
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
    if ((request.focus?.length ?? 0) > 0 || taskLocations(request.task).length > 0) return 0.8;
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
    const { temporal } = backends;
    const { terms, expansion } = await expandedTerms(temporal, request.task);
    const hits = await text.searchText({
      terms,
      limit: Math.max(request.maxFragments ?? DEFAULT_MAX_FRAGMENTS, this.settings.seedHits),
      ...(request.paths ? { pathPrefixes: request.paths } : {}),
    });
    // The lines a task's trace or error points at count as much as what the user focuses on.
    const located = locateLines(graph, taskLocations(request.task));
    const focus = mergeSeeds(focusSeeds(graph, request.focus ?? []), locationSeeds(located));
    const seeds = mergeSeeds(
      keywordSeeds(graph, hits.slice(0, this.settings.seedHits)),
      mentionSeeds(graph, request.task),
      focus,
    );
    const ranked = rankedWithinPaths(
      graph,
      rankAround(graph, seeds, { ...DEFAULT_WALK, hops: this.settings.breadthHops }, "none"),
      request.paths,
    );
    signal?.throwIfAborted();
    const coChanges = temporal ? await coChangeSupport(temporal, hits) : null;
    const partners = coChanges?.support ?? null;
    const messages = temporal ? await messageSupport(temporal, hits, terms) : null;
    signal?.throwIfAborted();
    const facts = taskFacts(request.task, request.budget);
    const model = activeRankingModel();
    const history: History = {
      partners,
      messages,
      expansion,
      reasons: historyLifts(
        partners,
        model.weights.coChange * facts.coChangeScale,
        messages,
        model.weights.message,
      ),
    };
    const scoreOf = (signals: RankSignals, where: FragmentPlace) =>
      learnedScore(model, signals, where, facts);
    const told = messages ? await toldFiles(text, hits, messages, terms, request.paths) : [];
    if (coChanges)
      told.push(...(await partnerFiles(text, [...hits, ...told], coChanges, terms, request.paths)));
    const candidates = this.candidates(
      graph,
      [...hits, ...told],
      ranked,
      new Set(focus.keys()),
      located,
      history,
      scoreOf,
    );
    return this.fill(graph, candidates, text, request, budget, signal);
  }

  /**
   * Keyword hits scored by the learned ranking with how central the walk found
   * their definitions and what the history says of their files, and the
   * definitions the walk reached that no hit holds, by centrality alone.
   */
  private candidates(
    graph: LoadedGraph,
    hits: readonly TextHit[],
    ranked: readonly RankedNode[],
    focus: ReadonlySet<number>,
    located: readonly LocatedLine[],
    history: History,
    scoreOf: (signals: RankSignals, where: FragmentPlace) => number,
  ): Candidate[] {
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
    const keyword = keywordSignals(hits);
    const candidates: Candidate[] = hits.map((hit, rank) => {
      const { chunk } = hit;
      const key = `${chunk.resourceId}\0${chunk.path}`;
      const signals: RankSignals = {
        ...keyword[rank],
        graph: copyScores.get(chunk.hash) ?? 0,
        coChange: history.partners?.get(key) ?? 0,
        message: history.messages?.get(key)?.support ?? 0,
        ...(holdsLocated(chunk) ? { located: 1 } : {}),
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
      // Focused definitions rank with the best hit.
      const signals: RankSignals = focus.has(node)
        ? {
            keyword: 1,
            keywordRank: 0,
            graph: 1,
            ...(locatedNodes.has(node) ? { located: 1 } : {}),
          }
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
    // The walk's definitions come on top of the keyword hits, not in place of them.
    const maxFragments = (request.maxFragments ?? DEFAULT_MAX_FRAGMENTS) + MAX_REACHED;
    const linesOf = new Map<string, Promise<StoredLines>>();
    const stored = (file: GraphFile) => {
      const key = graphFileKey(file);
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
    // A second copy of one text would be dropped when packing: it must not take room here.
    const texts = new Set<string>();
    for (const candidate of candidates) {
      if (fragments.length >= maxFragments || total - used < 8) break;
      const room = total - used;
      let fragment: ContextFragment | null;
      if ("chunk" in candidate) {
        if (texts.has(candidate.chunk.hash)) continue;
        texts.add(candidate.chunk.hash);
        fragment = this.fitChunk(candidate.chunk, candidate.score, room);
        if (fragment)
          fragment = {
            ...fragment,
            signals: candidate.signals,
            ...(candidate.ranking.length > 0 ? { ranking: candidate.ranking } : {}),
          };
      } else {
        const file = graph.files[candidate.node.file];
        if (!file) continue;
        const lines = await stored(file);
        signal?.throwIfAborted();
        if (!lines.has(candidate.node.startLine)) continue;
        const depths: [DetailDepth, number][] = [
          ["full", candidate.focused ? Math.min(room, MAX_BODY_SHARE * total) : -1],
          ["signature", Math.min(room, SIGNATURE_SHARE * total - used)],
          ["outline", room],
        ];
        fragment = this.richestFitting(candidate.node, file, lines, candidate.score, depths);
        if (fragment) fragment = { ...fragment, signals: candidate.signals };
      }
      if (!fragment) continue;
      fragments.push(fragment);
      used += fragment.tokens;
    }
    return fragments;
  }

  /** A keyword hit whole while it fits, else its signature or declaration line. */
  private fitChunk(chunk: StoredChunk, score: number, room: number): ContextFragment | null {
    return chunkWithin(chunk, score, this.name, this.counter, room);
  }

  private richestFitting(
    node: GraphNode,
    file: GraphFile,
    lines: StoredLines,
    score: number,
    depths: readonly [DetailDepth, number][],
  ): ContextFragment | null {
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
      "definitions it names and the request's focus, by PageRank personalised on them; keyword " +
      "hits the walk supports (relative to their whole-graph rank) move up and are shown whole, " +
      "definitions it reaches that no hit holds are added as signatures and doc comments, then " +
      "declaration lines; focused definitions are shown whole. With git history, hits in files " +
      "that often change together with the best hits' files move up, and so do hits in files " +
      "that past commits worded like the task changed; such files that no hit is in join too. " +
      "The history also expands the task: the identifiers that past commits using its words " +
      "changed, more often than they change at all, are searched for with its words."
    );
  }
}

type Candidate =
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
interface History {
  readonly partners: ReadonlyMap<string, number> | null;
  readonly messages: ReadonlyMap<string, MessageSupport> | null;
  /** The identifiers the history expanded the task with. */
  readonly expansion: readonly TaskIdentifier[];
  readonly reasons: (key: string) => HistoryLift;
}
