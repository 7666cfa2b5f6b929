import type { ResolvedConfig } from "../config/resolved-config.js";
import type { GeneratorChoice } from "../contextualize/resolve-generator.js";
import type { Embedder } from "../core/embedder.js";
import type { Store } from "../core/store.js";
import type { TokenCounter } from "../core/token-counter.js";
import type { EmbedderChoice } from "../embed/resolve-embedder.js";
import { optionalFeatureStatus } from "../optional-packages.js";
import type { ProjectPlans } from "../plans/project-plans.js";
import { describeChoice, describeEmbeddings, fileSize, type StatusReport } from "./engine-files.js";
import type { EnabledStrategies } from "./engine-options.js";
import { hotFragments, tierCounts } from "./hot-files.js";
import { rootsWithPresence } from "./project-roots.js";

/** What a status report reads of an engine (the ContextEngine). */
export interface StatusSource {
  readonly root: string;
  readonly project: string;
  readonly indexPath: string;
  readonly store: Store;
  readonly config: ResolvedConfig;
  readonly counter: TokenCounter;
  readonly plans: ProjectPlans;
  enabledStrategies(): Promise<EnabledStrategies>;
  generatorChoice(): GeneratorChoice;
  embedderChoice(): EmbedderChoice;
  embedderFor(choice: EmbedderChoice): Promise<Embedder | null>;
}

/** What an engine's index covers and how it is set up, for `ctx status` and MCP `index_status`. */
export async function statusOf(engine: StatusSource): Promise<StatusReport> {
  const { store, config, counter } = engine;
  const stats = await store.stats();
  return {
    tiers: tierCounts(
      hotFragments(
        await store.documents.listResources(),
        config.tiers.hot,
        counter,
        undefined,
        config.hydration.includeSecrets,
      ),
      stats,
      await engine.plans.list(),
    ),
    root: engine.root,
    project: engine.project,
    indexPath: engine.indexPath,
    // On a server the index's size is its schema's, which other projects may share.
    indexBytes: stats.server
      ? stats.server.bytes
      : fileSize(engine.indexPath) + fileSize(`${engine.indexPath}-wal`),
    store: stats,
    resources: await rootsWithPresence(store),
    tokenCounter: counter.name,
    configFiles: config.sources,
    untrustedSettings: config.untrusted?.ignored ?? [],
    enabledStrategies: (await engine.enabledStrategies()).enabled,
    contextGenerator: describeChoice(() => engine.generatorChoice()),
    embeddings: await describeEmbeddings(
      engine.embedderChoice(),
      (choice) => engine.embedderFor(choice),
      store,
    ),
    optionalFeatures: optionalFeatureStatus(),
  };
}
