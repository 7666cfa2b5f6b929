import type { ResolvedConfig } from "../config/resolved-config.js";
import type { Store } from "../core/store.js";
import type { Backends } from "../core/strategy.js";
import type { TokenCounter } from "../core/token-counter.js";
import { focusLeftOut } from "../graph/graph-seeds.js";
import type { ProjectPlans } from "../plans/project-plans.js";
import { PLAN_STRATEGY } from "../strategies/builtins/plan-decision-context.js";
import type { StrategyRegistry } from "../strategies/registry.js";
import type { StrategyPipeline } from "../strategies/strategy-pipeline.js";
import type { EnabledStrategies, QueryOptions, QueryResult } from "./engine-options.js";
import type { CachedGraphSource } from "./graph-source.js";
import { hotTier } from "./hot-files.js";
import { assertBudget, packAnswer } from "./pack-answer.js";
import type { KeptRequests } from "./request-log.js";

/** What a query uses of an open engine. */
export interface QueryParts {
  readonly config: ResolvedConfig;
  readonly store: Store;
  readonly registry: StrategyRegistry;
  readonly pipeline: StrategyPipeline;
  /** The engine's counter for queries (it remembers recent counts). */
  readonly counter: TokenCounter;
  readonly plans: ProjectPlans;
  readonly graph: CachedGraphSource;
  readonly requests: KeptRequests;
  readonly enabledStrategies: () => Promise<EnabledStrategies>;
  readonly backends: () => Promise<Backends>;
}

/**
 * One query: the hot tier set aside, the strategy pipeline run on what is left
 * of the budget (with the plan's decisions when a plan is named), the answer
 * packed and rendered, and the request kept for `ctx explain`.
 */
export async function answerQuery(parts: QueryParts, options: QueryOptions): Promise<QueryResult> {
  const { config } = parts;
  assertBudget(options.budget);
  const format = options.format ?? config.query.format;
  const limit = Math.floor(options.budget * (1 - config.tokens.safetyMargin));
  const plan = options.planId ? await parts.plans.context(options.planId) : null;
  let enabled = options.strategies ?? (await parts.enabledStrategies()).enabled;
  if (options.strategies) parts.registry.assertEnabled(options.strategies, "requested strategies");
  // Naming a plan asks for its decisions, whatever the project's list.
  else if (plan && !enabled.includes(PLAN_STRATEGY)) enabled = [...enabled, PLAN_STRATEGY];
  const resources = await parts.store.documents.listResources();
  const { tiers, hydration } = config;
  const { includeSecrets } = hydration;
  const hot = hotTier(resources, tiers, parts.counter, limit, options.paths, includeSecrets);
  const pipelineOutput = await parts.pipeline.run(
    {
      task: options.task,
      budget: limit - hot.need,
      ...(options.paths ? { paths: options.paths } : {}),
      ...(options.focus && options.focus.length > 0 ? { focus: options.focus } : {}),
      ...(plan ? { planId: plan.planId } : {}),
    },
    await parts.backends(),
    enabled,
    { ...(options.signal ? { signal: options.signal } : {}), ...(plan ? { plan } : {}) },
  );
  const result = packAnswer({
    task: options.task,
    budget: options.budget,
    limit,
    format,
    explain: options.explain ?? false,
    resources,
    hot,
    output: pipelineOutput,
    counter: parts.counter,
    settingsFor: (name) => config.strategies.settingsFor(name),
  });
  const graph = config.graph ? () => parts.graph.load() : null;
  return {
    ...result,
    unknownFocus: await focusLeftOut(options.focus ?? [], graph),
    requestId: options.record === false ? "" : parts.requests.add(result),
  };
}
