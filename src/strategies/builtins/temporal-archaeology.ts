import { chunkFragment, fitFragment } from "../../assemble/chunk-fragments.js";
import { focusTerms } from "../../assemble/detail-depth.js";
import type { ContextFragment } from "../../core/fragment.js";
import type { LoadedGraph } from "../../core/graph.js";
import type { TemporalBackend } from "../../core/history.js";
import type {
  Backends,
  ContextRequest,
  ContextStrategy,
  StrategyCapabilities,
  TokenBudget,
} from "../../core/strategy.js";
import { DEFAULT_CAPABILITIES } from "../../core/strategy.js";
import type { LineSpan, TextBackend, TextHit } from "../../core/text-backend.js";
import type { TokenCounter } from "../../core/token-counter.js";
import { type NamedDefinition, namedDefinitions } from "../../graph/named-definitions.js";
import { maskSecrets } from "../../secrets/mask-secrets.js";
import { queryTerms } from "../../text/code-tokenizer.js";
import { asksForHistory, asksForOrigin } from "../../text/history-question.js";

/** Words of a question about how code came to be: why, when, who, a regression, a version. */
const HISTORY_QUESTION =
  /\b(why|when|who|since|regress\w*|used to|chang(e|ed|es)|introduc\w*|broke|broken|history|commits?|revert\w*|versions?|v\d+(\.\d+)+)\b/i;
/** Added to the project's strategies for a task that asks for history (see asksForHistory). */
export const HISTORY_STRATEGY = "temporal-archaeology";
/** Keyword hits whose lines are blamed. */
const BLAMED_HITS = 6;
/** Commits shown: more for a question about history, a few otherwise. */
const COMMITS_FOR_QUESTION = 6;
const COMMITS_OTHERWISE = 2;
/** Files whose co-change partners are offered, and partners per file. */
const PARTNER_SOURCES = 3;
const PARTNERS_PER_FILE = 2;
const BODY_LINES = 8;
const PATCH_LINES = 40;

/** Lines whose last changes are looked up, and how much their commits count. */
interface Blamed {
  readonly resourceId: string;
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  /** The best keyword hit's lines weigh 1. */
  readonly weight: number;
  /** Its commits count by recency alone (a named definition), not half by lines changed. */
  readonly newest: boolean;
  /** The definition's name, where the question names it. */
  readonly name?: string;
}

interface CommitEvidence {
  readonly resourceId: string;
  readonly sha: string;
  /** What the keyword hits' lines give it, summed. */
  score: number;
  /** What the named definitions give it: its best place among one definition's changes. */
  named: number;
  /** Committer time: of two commits as well supported, the newer comes first. */
  readonly time: number;
  /** The file's path in the commit, and its path now, of the best-supported hit. */
  pathThen: string;
  pathNow: string;
  best: number;
  /** What it changed that the question names, for `--explain`. */
  readonly reasons: string[];
  /** Where in its version of the file it changed the named definition: its hunks there come first. */
  around?: LineSpan;
}

/**
 * Git history around the task's keyword hits: the commits that last changed
 * the hit lines (git blame), shown with their message and the hunks of that
 * file, and the chunks of the files that most often change together with the
 * hits. Confident for questions about why, when and what changed; otherwise it
 * adds a little history to the best hits.
 */
export class TemporalArchaeologyStrategy implements ContextStrategy {
  readonly name = HISTORY_STRATEGY;
  readonly capabilities: StrategyCapabilities = {
    ...DEFAULT_CAPABILITIES,
    usesText: true,
    usesTemporal: true,
    resourceTypes: ["git"],
    qualityScore: 0.5,
    supportsTemporal: true,
  };

  constructor(private readonly counter: TokenCounter) {}

  canHandle(request: ContextRequest, backends: Backends): number {
    if (!backends.temporal || !backends.text) return 0;
    if (queryTerms(request.task).length === 0) return 0;
    return HISTORY_QUESTION.test(request.task) || asksForHistory(request.task) ? 0.9 : 0.2;
  }

  async assemble(
    request: ContextRequest,
    backends: Backends,
    budget: TokenBudget,
    _plan?: unknown,
    signal?: AbortSignal,
  ): Promise<ContextFragment[]> {
    const { text, temporal } = backends;
    if (!text || !temporal) return [];
    const terms = queryTerms(request.task);
    const hits = await text.searchText({
      terms,
      limit: BLAMED_HITS,
      ...(request.paths ? { pathPrefixes: request.paths } : {}),
    });
    signal?.throwIfAborted();
    const top = hits[0]?.score ?? 0;
    const asked = asksForHistory(request.task);
    const question = asked || HISTORY_QUESTION.test(request.task);
    const named = asked ? await this.namedInScope(request, backends) : [];
    if (top <= 0 && named.length === 0) return [];
    const hitSpans = hits.map(({ chunk, score }) => ({
      resourceId: chunk.resourceId,
      path: chunk.path,
      startLine: chunk.startLine,
      endLine: chunk.endLine,
      weight: score / top,
      newest: false,
    }));
    // "Why was parse_args in cli.py changed" asks for the definition's last change. Its
    // commits count by recency alone, at a weight that puts the newest above any other
    // commit however many keyword hits (often its callers, changed later or written
    // together with it) add to that one: twice everything the hits can give.
    const namedWeight = 2 * (1 + hitSpans.reduce((sum, span) => sum + span.weight, 0));
    const blamed: Blamed[] = [
      ...named.map((definition) => ({ ...definition, weight: namedWeight, newest: true })),
      ...hitSpans,
    ];
    // "When was X added" asks for the commit that wrote X, which blame shows only
    // while none of X's lines has changed since: it is looked for in the file's
    // history and placed above every other.
    const origins = asksForOrigin(
      request.task,
      named.map((definition) => definition.name),
    )
      ? await this.originsOf(named, temporal, 2 * namedWeight)
      : [];
    const commits = await this.commitFragments(
      blamed,
      temporal,
      question ? COMMITS_FOR_QUESTION : COMMITS_OTHERWISE,
      question ? 1 : 0.5,
      origins,
    );
    signal?.throwIfAborted();
    const partners =
      top > 0 ? await this.partnerFragments(hits, top, terms, request, text, temporal) : [];
    const fragments: ContextFragment[] = [...commits];
    let used = commits.reduce((sum, fragment) => sum + fragment.tokens, 0);
    const focus = focusTerms(request.task);
    for (const fragment of partners) {
      const fitted = fitFragment(fragment, budget.total - used, this.counter, focus);
      if (!fitted) continue;
      used += fitted.tokens;
      fragments.push(fitted);
    }
    return fragments;
  }

  /** The definitions the question names, within the request's paths; none without a code graph. */
  private async namedInScope(
    request: ContextRequest,
    backends: Backends,
  ): Promise<NamedDefinition[]> {
    if (!backends.graph) return [];
    let graph: LoadedGraph;
    try {
      graph = await backends.graph.load();
    } catch {
      // The keyword hits still have a history: the graph's own failure is the navigator's to report.
      return [];
    }
    return namedDefinitions(graph, request.task).filter(
      (definition) =>
        !request.paths || request.paths.some((prefix) => definition.path.startsWith(prefix)),
    );
  }

  /** The commits that first wrote each named definition into its file, at `weight`. */
  private async originsOf(
    named: readonly NamedDefinition[],
    temporal: TemporalBackend,
    weight: number,
  ): Promise<CommitEvidence[]> {
    const found = await Promise.all(
      named.map((definition) =>
        temporal.introducedBy(definition.resourceId, definition.name, definition.path),
      ),
    );
    return named.flatMap((definition, index) => {
      const origin = found[index];
      if (!origin) return [];
      return [
        {
          resourceId: definition.resourceId,
          sha: origin.sha,
          score: 0,
          named: weight,
          time: 0,
          pathThen: origin.pathThen,
          pathNow: definition.path,
          best: weight,
          reasons: [`the commit that added ${definition.name} to ${definition.path}`],
          ...(origin.around ? { around: origin.around } : {}),
        },
      ];
    });
  }

  /**
   * The commits that last changed most of the blamed lines, weighted by each
   * span's weight, after the `origins` (commits that wrote a named definition).
   */
  private async commitFragments(
    spans: readonly Blamed[],
    temporal: TemporalBackend,
    count: number,
    weight: number,
    origins: readonly CommitEvidence[] = [],
  ): Promise<ContextFragment[]> {
    const blames = await Promise.all(
      spans.map((span) => temporal.blame(span.resourceId, span.path, span.startLine, span.endLine)),
    );
    const evidence = new Map<string, CommitEvidence>();
    for (const origin of origins) {
      const key = `${origin.resourceId}\0${origin.sha}`;
      const seen = evidence.get(key);
      if (seen) seen.reasons.push(...origin.reasons);
      else evidence.set(key, { ...origin, reasons: [...origin.reasons] });
    }
    spans.forEach((span, index) => {
      const lines = span.endLine - span.startLine + 1;
      // A hit's newest change explains it best ("why was X changed"), its oldest
      // often only wrote it: half the weight goes by recency, half by lines.
      const newestFirst = [...(blames[index] ?? [])].sort((a, b) => b.time - a.time);
      newestFirst.forEach((blamed, rank) => {
        const share = span.newest
          ? span.weight / (rank + 1)
          : span.weight * (0.5 * (blamed.lines / lines) + 0.5 / (rank + 1));
        const key = `${span.resourceId}\0${blamed.sha}`;
        const seen = evidence.get(key);
        if (!seen) {
          evidence.set(key, {
            resourceId: span.resourceId,
            sha: blamed.sha,
            score: span.newest ? 0 : share,
            named: span.newest ? share : 0,
            time: blamed.time,
            pathThen: blamed.pathThen,
            pathNow: span.path,
            best: share,
            reasons: [],
          });
        } else {
          // Each named definition's last change comes before any one's older changes: a
          // commit that touched three overloads long ago does not outweigh the newest
          // change to one of them. The keyword hits' support adds up.
          if (span.newest) seen.named = Math.max(seen.named, share);
          else seen.score += share;
          if (share > seen.best) {
            seen.best = share;
            seen.pathThen = blamed.pathThen;
            seen.pathNow = span.path;
          }
        }
        const found = evidence.get(key);
        if (span.name !== undefined && found) {
          const where = `${span.name} (${span.path}:${span.startLine}-${span.endLine})`;
          found.reasons.push(rank === 0 ? `the last change to ${where}` : `changed ${where}`);
          // Its hunks are read from the file of the span it counts most for.
          if (found.pathNow === span.path) found.around ??= blamed.linesThen;
        }
      });
    });
    const total = (commit: CommitEvidence) => commit.score + commit.named;
    const chosen = [...evidence.values()]
      .sort((a, b) => total(b) - total(a) || b.time - a.time || (a.sha < b.sha ? -1 : 1))
      .slice(0, count);
    const best = chosen[0] ? total(chosen[0]) : 0;
    const fragments = await Promise.all(
      chosen.map(async (commit) => {
        const [summary] = await temporal.commits(commit.resourceId, [commit.sha]);
        if (!summary) return null; // older than the history kept
        const patch = await temporal.patch(
          commit.resourceId,
          commit.sha,
          commit.pathThen,
          PATCH_LINES,
          commit.around,
        );
        const body = summary.body.split("\n").slice(0, BODY_LINES).join("\n").trim();
        // An old version of an indexed file may have held a secret its commit removed.
        const content = (
          await maskSecrets(
            [body, `${commit.pathNow}:`, patch].filter((part) => part.length > 0).join("\n\n"),
          )
        ).text;
        const fragment: ContextFragment = {
          id: `commit:${summary.sha}:${commit.pathNow}`,
          source: {
            kind: "commit",
            sha: summary.sha,
            date: summary.date,
            author: summary.author,
            subject: summary.subject,
            path: commit.pathNow,
          },
          content,
          tokens: this.counter.count(content),
          score: weight * (total(commit) / best),
          strategy: this.name,
          tier: "cold",
          nodeId: `commit:${summary.sha}`,
          detailDepth: "full",
          symbol: "",
          chunkKind: "unit",
          chunkIds: [],
          ...(commit.reasons.length > 0 ? { ranking: commit.reasons } : {}),
        };
        return fragment;
      }),
    );
    return fragments.filter((fragment): fragment is ContextFragment => fragment !== null);
  }

  /** For the best hits' files, the best-matching chunk of each file that most often changes with them. */
  private async partnerFragments(
    hits: readonly TextHit[],
    top: number,
    terms: readonly string[],
    request: ContextRequest,
    text: TextBackend,
    temporal: TemporalBackend,
  ): Promise<ContextFragment[]> {
    const hitFiles = new Map<string, TextHit>();
    for (const hit of hits) {
      const key = `${hit.chunk.resourceId}\0${hit.chunk.path}`;
      if (!hitFiles.has(key)) hitFiles.set(key, hit);
    }
    const sources = [...hitFiles.values()].slice(0, PARTNER_SOURCES);
    const inScope = (path: string) =>
      !request.paths || request.paths.some((prefix) => path.startsWith(prefix));
    const found: ContextFragment[] = [];
    const seen = new Set<number>();
    for (const hit of sources) {
      const partners = await temporal.coChanges(
        hit.chunk.resourceId,
        hit.chunk.path,
        PARTNERS_PER_FILE,
      );
      for (const partner of partners) {
        if (!inScope(partner.path) || hitFiles.has(`${hit.chunk.resourceId}\0${partner.path}`))
          continue;
        const [match] = await text.searchText({ terms, limit: 1, pathPrefixes: [partner.path] });
        // The chunk that matches the task, else the file's first: it changes with the hit either way.
        const chunk =
          match && match.chunk.path === partner.path
            ? match.chunk
            : (await text.getDocumentChunks(hit.chunk.resourceId, partner.path))[0];
        if (!chunk || seen.has(chunk.id)) continue;
        seen.add(chunk.id);
        const strength = partner.together / (partner.together + 2);
        found.push(
          chunkFragment(chunk, 0.6 * (hit.score / top) * strength, this.name, this.counter),
        );
      }
    }
    return found.sort((a, b) => b.score - a.score);
  }

  explain(): string {
    return (
      "temporal-archaeology: git history around the keyword hits: the commits that last " +
      "changed the hit lines (git blame), with their message and hunks, and the chunks of " +
      "files that often change together with the hits; confident for why/when/what-changed questions."
    );
  }
}
