import { chunkWithin } from "../../assemble/chunk-fragments.js";
import { focusTerms } from "../../assemble/detail-depth.js";
import type { ContextFragment, DetailDepth } from "../../core/fragment.js";
import {
  type GraphFile,
  type GraphNode,
  graphFileKey,
  type LoadedGraph,
} from "../../core/graph.js";
import type { RankSignals } from "../../core/rank-signals.js";
import { StoredLines } from "../../core/stored-lines.js";
import type {
  Backends,
  ContextRequest,
  ContextStrategy,
  StrategyCapabilities,
  TokenBudget,
} from "../../core/strategy.js";
import { DEFAULT_CAPABILITIES } from "../../core/strategy.js";
import type { TextBackend } from "../../core/text-backend.js";
import type { TokenCounter } from "../../core/token-counter.js";
import {
  focusArea,
  focusSeeds,
  keywordSeeds,
  mentionSeeds,
  mergeSeeds,
} from "../../graph/graph-seeds.js";
import { DEFAULT_WALK, rankAround, rankedWithinPaths } from "../../graph/graph-walk.js";
import { locateLines, locationSeeds, taskLocations } from "../../graph/location-seeds.js";
import { coChangeSupport } from "../../history/co-change-support.js";
import { historyLifts } from "../../history/history-lift.js";
import { messageSupport } from "../../history/message-support.js";
import { expandedTerms } from "../../history/task-identifiers.js";
import { partnerFiles, toldFiles } from "../../history/told-files.js";
import { learnedScore } from "../../rank/learned-ranking.js";
import { type FragmentPlace, taskFacts } from "../../rank/rank-features.js";
import { activeRankingModel } from "../../rank/ranking-model.js";
import { queryTerms } from "../../text/code-tokenizer.js";
import { definitionFragment } from "./definition-fragments.js";
import { focusHits, inFocusTest } from "./focus-hits.js";
import {
  type Candidate,
  type History,
  MAX_REACHED,
  navigatorCandidates,
} from "./navigator-candidates.js";
import type { NavigatorSettings } from "./navigator-settings.js";
import { DEFAULT_MAX_FRAGMENTS } from "./simple-keyword.js";

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
    const facts = taskFacts(request.task, request.budget, backends.fileRoles);
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
    const area = focusArea(graph, request.focus ?? []);
    const focused = await focusHits(text, graph, area, terms, [...hits, ...told], request.paths);
    const candidates = navigatorCandidates(
      graph,
      [...hits, ...told, ...focused],
      ranked,
      { nodes: new Set(focus.keys()), inFocus: inFocusTest(graph, area) },
      located,
      history,
      scoreOf,
      facts.stems,
    );
    return this.fill(graph, candidates, text, request, budget, signal);
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
    // A keyword hit that does not fit whole is cut down to its lines that speak of the task.
    const focus = focusTerms(request.task);
    for (const candidate of candidates) {
      if (fragments.length >= maxFragments || total - used < 8) break;
      const room = total - used;
      let fragment: ContextFragment | null;
      if ("chunk" in candidate) {
        if (texts.has(candidate.chunk.hash)) continue;
        texts.add(candidate.chunk.hash);
        fragment = chunkWithin(
          candidate.chunk,
          candidate.score,
          this.name,
          this.counter,
          room,
          focus,
        );
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
