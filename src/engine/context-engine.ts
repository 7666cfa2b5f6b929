import { basename, resolve } from "node:path";
import { loadConfig } from "../config/load-config.js";
import type { ResolvedConfig } from "../config/resolved-config.js";
import { type GeneratorChoice, resolveGenerator } from "../contextualize/resolve-generator.js";
import type { Embedder } from "../core/embedder.js";
import { fragmentIdShower } from "../core/fragment-id.js";
import type { LoadedGraph, SymbolRecord } from "../core/graph.js";
import type { Reranker } from "../core/reranker.js";
import type { Store } from "../core/store.js";
import type { Backends } from "../core/strategy.js";
import type { TextHit } from "../core/text-backend.js";
import type { TokenCounter } from "../core/token-counter.js";
import { createEmbedder, type EmbedderChoice, resolveEmbedder } from "../embed/resolve-embedder.js";
import type { RepoMap } from "../graph/repo-map.js";
import { HistoryCache } from "../history/git-temporal-backend.js";
import { ProjectPlans } from "../plans/project-plans.js";
import { createReranker } from "../rerank/rerank-settings.js";
import { ProjectBreakers } from "../strategies/breaker-board.js";
import { buildRegistry } from "../strategies/build-registry.js";
import type { StrategyRegistry } from "../strategies/registry.js";
import { StrategyPipeline } from "../strategies/strategy-pipeline.js";
import { createTokenCounter } from "../tokens/create-counter.js";
import { rememberingCounter } from "../tokens/remembering-counter.js";
import { answerQuery } from "./answer-query.js";
import { warnAboutConfig } from "./config-warnings.js";
import { withDocs } from "./definition-doc-lookup.js";
import { engineBackends } from "./engine-backends.js";
import type { StatusReport } from "./engine-files.js";
import type {
  EnabledStrategies,
  IndexOptions,
  OpenOptions,
  QueryOptions,
  QueryResult,
} from "./engine-options.js";
import { CachedGraphSource, packedGraphFile } from "./graph-source.js";
import { indexRoots } from "./index-roots.js";
import { keywordSearch } from "./keyword-search.js";
import { storedFileRoles } from "./linguist-marks.js";
import { findProjectRoot, storeLocationFor } from "./locate-project.js";
import { openIndex } from "./open-index.js";
import { type PinnedFile, pinnedFiles, readPinnedFile } from "./pinned-files.js";
import { projectMap } from "./project-map.js";
import { coveredRoots, forgetRoot } from "./project-roots.js";
import { enabledStrategiesOf, setProjectStrategies } from "./project-strategies.js";
import { type FragmentAddress, type FragmentText, readFragment } from "./read-fragment.js";
import { KeptRequests, type RequestRecord } from "./request-log.js";
import type { IndexRunReport } from "./run-index.js";
import { measureStaleness, type Staleness } from "./staleness.js";
import { statusOf } from "./status-of.js";
import { findReferences, findSymbols, type SymbolReferences } from "./symbol-lookup.js";
import { currentTreeStates, matchesIndexedStates, type TreeStates } from "./tree-states.js";

export type { StatusReport } from "./engine-files.js";
export type {
  EnabledStrategies,
  IndexOptions,
  OpenOptions,
  QueryOptions,
  QueryResult,
  StrategyContribution,
} from "./engine-options.js";

/**
 * The library's entry point: one project, its configuration, its index and its
 * strategy pipeline. The CLI (and the MCP server) are thin layers over it.
 */
export class ContextEngine {
  readonly counter: TokenCounter;
  /** Recent requests, also kept beside the index file for `ctx report` in another process. */
  private readonly requests: KeptRequests;
  private running: Promise<IndexRunReport> | null = null;
  private readonly embedders = new Map<string, Promise<Embedder | null>>();
  private reranker: Reranker | null | undefined;
  /** Blames of the lines queries asked about and words-to-code windows, kept across requests. */
  private readonly history = new HistoryCache();
  /** The project's plans and the decisions recorded in them. */
  readonly plans: ProjectPlans;
  private readonly graph: CachedGraphSource;

  private constructor(
    readonly root: string,
    readonly project: string,
    readonly indexPath: string,
    readonly config: ResolvedConfig,
    readonly store: Store,
    readonly pipeline: StrategyPipeline,
    /** True when this open created the index file. */
    readonly created: boolean,
    counter: TokenCounter,
    /** The same counter, remembering recent counts: queries count the same chunks again and again. */
    private readonly queryCounter: TokenCounter,
    private readonly env: NodeJS.ProcessEnv,
    /** The index file, null when the index lives in memory. */
    private readonly storeFile: string | null,
  ) {
    this.counter = counter;
    this.requests = new KeptRequests(storeFile);
    this.graph = new CachedGraphSource(store, storeFile ? packedGraphFile(storeFile) : null);
    this.plans = new ProjectPlans(store.plans, project);
  }

  static async open(options: OpenOptions = {}): Promise<ContextEngine> {
    const cwd = options.cwd ?? process.cwd();
    const root = findProjectRoot(resolve(cwd, options.start ?? "."));
    const config = await loadConfig(root, options.env);
    warnAboutConfig(config, options.warn);
    const counter = createTokenCounter(config.tokens.counter);
    const queryCounter = rememberingCounter(counter);
    const registry = await buildRegistry(
      config.strategies,
      { counter: queryCounter, projectRoot: root },
      { navigator: config.navigator },
      options.strategies,
    );
    const env = options.env ?? process.env;
    const location = storeLocationFor(root, config, options.db, cwd, env);
    const project = config.storeServer.project ?? `local/${basename(root)}`;
    const opened = await openIndex(root, location, project, config, options.ifMissing ?? "create");
    const { store } = opened;
    const breakers = new ProjectBreakers(config.strategies.settingsFor, opened.breakers, {
      save: (record) => store.state.saveBreaker(project, record),
    });
    const pipeline = new StrategyPipeline({
      registry,
      settingsFor: config.strategies.settingsFor,
      counter: queryCounter,
      breakers,
    });
    return new ContextEngine(
      root,
      project,
      opened.location,
      config,
      store,
      pipeline,
      opened.created,
      counter,
      queryCounter,
      options.env ?? process.env,
      opened.file,
    );
  }

  get registry(): StrategyRegistry {
    return this.pipeline.registry;
  }

  /**
   * Indexes `paths` (default: the roots the index already covers, or the project
   * root for a new index), adding any new root, then gives every changed chunk
   * the context of the active generator.
   */
  index(paths?: readonly string[], options: IndexOptions = {}): Promise<IndexRunReport> {
    return this.indexWith(paths, options, undefined);
  }

  /**
   * Re-indexes the roots the index covers, unless git says nothing under them
   * changed since a whole run last matched them (see readTreeState): then
   * returns null without listing or comparing a file.
   */
  async refreshIfChanged(options: IndexOptions = {}): Promise<IndexRunReport | null> {
    const roots = await coveredRoots(this.store, this.root);
    const states = await currentTreeStates(roots, this.config);
    if (states && (await matchesIndexedStates(this.store, states))) return null;
    return this.indexWith(undefined, options, states);
  }

  private indexWith(
    paths: readonly string[] | undefined,
    options: IndexOptions,
    /** The roots' states read just before, when the caller has them. */
    known: TreeStates | null | undefined,
  ): Promise<IndexRunReport> {
    const parts = {
      root: this.root,
      store: this.store,
      config: this.config,
      counter: this.counter,
      env: this.env,
      storeFile: this.storeFile,
      graph: this.graph,
      generator: this.generatorChoice(options.contextualize),
      embedder: this.embedderChoice(options.embedder),
      embedderFor: (choice: EmbedderChoice) => this.embedderFor(choice),
    };
    return indexRoots(parts, paths, options, known);
  }

  /**
   * Removes a root the index covers (`path` as shown by status, or a path to the
   * same folder) with all its documents; returns the root and how many went.
   */
  forget(path: string): Promise<{ root: string; documents: number }> {
    return forgetRoot(this.store, path);
  }

  /**
   * Re-indexes what changed under the roots the index covers. Two refreshes never
   * run at once: a call during a refresh waits for that one and gets its report.
   */
  refresh(options: IndexOptions = {}): Promise<IndexRunReport> {
    this.running ??= this.index(undefined, options).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /**
   * Re-indexes only these absolute paths (files or folders that changed, came or
   * went), after any refresh already running: a watcher's batch of changes.
   */
  async refreshPaths(
    paths: readonly string[],
    options: Omit<IndexOptions, "only"> = {},
  ): Promise<IndexRunReport> {
    // A running refresh may have passed these files already: wait, then run our own.
    while (this.running) await this.running.catch(() => undefined);
    this.running = this.index(undefined, { ...options, only: paths }).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** True while a refresh is running. */
  get refreshing(): boolean {
    return this.running !== null;
  }

  /** The embedder the configuration picks, and why. */
  embedderChoice(explicit?: string): EmbedderChoice {
    return resolveEmbedder(explicit, this.config.embeddings, this.env);
  }

  /** The embedder for a choice, built once per engine. */
  async embedderFor(choice: EmbedderChoice = this.embedderChoice()): Promise<Embedder | null> {
    let made = this.embedders.get(choice.name);
    if (!made) {
      made = createEmbedder(choice, this.config.embeddings, this.env);
      made.catch(() => this.embedders.delete(choice.name));
      this.embedders.set(choice.name, made);
    }
    return made;
  }

  /** The context generator the priority chain picks, and why. */
  generatorChoice(explicit?: string): GeneratorChoice {
    return resolveGenerator(explicit, this.config.contextualize, this.env);
  }

  /** Assembles context for a task within a token budget, through the strategy pipeline. */
  query(options: QueryOptions): Promise<QueryResult> {
    return answerQuery(
      {
        config: this.config,
        store: this.store,
        registry: this.registry,
        pipeline: this.pipeline,
        counter: this.queryCounter,
        plans: this.plans,
        graph: this.graph,
        requests: this.requests,
        enabledStrategies: () => this.enabledStrategies(),
        backends: () => this.backends(),
      },
      options,
    );
  }

  /** Fragment ids as outputs show them: without the resource while the index has one root. */
  async fragmentIds(): Promise<(id: string) => string> {
    const resources = await this.store.documents.listResources();
    return fragmentIdShower(resources.map((resource) => resource.id));
  }

  /**
   * What the last request (or the one with this id) did: strategies, budgets,
   * every candidate and the output. Requests of other processes on the same
   * index (`ctx query`, a server) are found in its request log.
   */
  async explainRequest(requestId?: string): Promise<{ id: string; record: RequestRecord } | null> {
    return this.requests.get(requestId);
  }

  /**
   * The current text of a fragment or file range, read from disk inside the
   * project's roots; a file that holds secrets is refused unless they are served.
   */
  async readFragment(address: FragmentAddress): Promise<FragmentText> {
    return readFragment(await this.store.documents.listResources(), address, this.config.hydration);
  }

  /** How many files changed, appeared or disappeared since the last index run. */
  async staleness(): Promise<Staleness> {
    return measureStaleness(
      this.store,
      await this.store.documents.listResources(),
      this.config.hydration,
    );
  }

  /** README, AGENTS.md and similar files at the top of each root. */
  async pinnedFiles(): Promise<PinnedFile[]> {
    const resources = await this.store.documents.listResources();
    // Before the first index run the project root is the only root.
    const includeSecrets = this.config.hydration.includeSecrets;
    return resources.length > 0
      ? pinnedFiles(resources, includeSecrets)
      : pinnedFiles([{ id: "project", root: this.root }], includeSecrets);
  }

  /** A pinned file's text as it is now; refused if it has come to hold secrets since it was listed. */
  readPinnedFile(pinned: PinnedFile): string {
    return readPinnedFile(pinned, this.config.hydration.includeSecrets);
  }

  /** Definitions by name (`ctx symbols`, MCP `find_symbol`). */
  async findSymbols(
    name: string,
    options: { kind?: string; path?: string; limit?: number } = {},
  ): Promise<SymbolRecord[]> {
    return withDocs(await findSymbols(this.store.graph, name, options), this.store.documents);
  }

  /** A symbol's definitions and uses (`ctx refs`, MCP `find_references`). */
  findReferences(symbol: string, path?: string): Promise<SymbolReferences> {
    return findReferences(this.store.graph, symbol, path);
  }

  /** Ranked chunks for a keyword query, best first. */
  search(query: string, limit: number, paths?: readonly string[]): Promise<TextHit[]> {
    return keywordSearch(this.store, query, limit, paths);
  }

  /** The project's override if set, else the config's list, else the default. */
  async enabledStrategies(): Promise<EnabledStrategies> {
    return enabledStrategiesOf(this.store, this.registry, this.project, this.config);
  }

  /** Replaces the project's enabled strategies (null restores the configured list). */
  setProjectStrategies(strategies: readonly string[] | null): Promise<void> {
    return setProjectStrategies(this.store, this.registry, this.project, strategies);
  }

  /** Roots, files, chunks, tiers, history, contexts, embeddings and options: `ctx status`. */
  status(): Promise<StatusReport> {
    return statusOf(this);
  }

  /** Keeps the graph built for a watcher's batch in the index now, not after its quiet spell. */
  keepGraph(): Promise<void> {
    return this.graph.saveUnsaved();
  }

  async close(): Promise<void> {
    await this.requests.flush();
    await this.graph.saveUnsaved();
    await this.store.close();
  }

  /**
   * The files and their most central definitions within a token budget
   * (`ctx map`, MCP `repo_map`), ranked by centrality personalised by `focus`.
   */
  async repoMap(options: { budget: number; focus?: readonly string[] }): Promise<RepoMap> {
    return projectMap(this.config.graph, () => this.graph.load(), this.queryCounter, {
      ...options,
      roleOf: await storedFileRoles(this.store),
    });
  }

  /** The code graph in memory, rebuilt when the index changed. */
  loadGraph(): Promise<LoadedGraph> {
    return this.graph.load();
  }

  /**
   * Starts reading the kept code graph, so that a query after a refresh finds
   * it loaded: the file is read while git checks the tree (a second of each
   * in a 200,000-file checkout). A graph the refresh changes is brought up to
   * date from this one; a failure here is met again, and reported, by the
   * load that needs the graph.
   */
  warmGraph(): void {
    if (this.config.graph) this.graph.load().catch(() => undefined);
  }

  /** What the strategies can use for a query (see engineBackends). */
  async backends(): Promise<Backends> {
    this.reranker ??= createReranker(this.config.rerank, this.env);
    const embedder = this.store.vectors.available ? await this.embedderFor() : null;
    const { reranker, graph, plans, history } = this;
    return engineBackends(this.store, this.config, { embedder, reranker, graph, plans, history });
  }
}
