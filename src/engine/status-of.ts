import { optionalFeatureStatus } from "../optional-packages.js";
import type { ContextEngine } from "./context-engine.js";
import { describeChoice, describeEmbeddings, fileSize, type StatusReport } from "./engine-files.js";
import { hotFragments, tierCounts } from "./hot-files.js";
import { rootsWithPresence } from "./project-roots.js";

/** What an engine's index covers and how it is set up, for `ctx status` and MCP `index_status`. */
export async function statusOf(engine: ContextEngine): Promise<StatusReport> {
  const { store, config, counter } = engine;
  const stats = await store.stats();
  return {
    tiers: tierCounts(
      hotFragments(
        await store.listResources(),
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
