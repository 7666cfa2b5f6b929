import { linesAround, linesOfFirstFiles } from "../assemble/lines-around.js";
import { withSmallFilesWhole } from "../assemble/small-files-whole.js";
import type { ResolvedConfig } from "../config/resolved-config.js";
import type { Store } from "../core/store.js";
import type { Backends } from "../core/strategy.js";
import type { TokenCounter } from "../core/token-counter.js";
import { focusLeftOut } from "../graph/graph-seeds.js";
import type { ProjectPlans } from "../plans/project-plans.js";
import { PLAN_STRATEGY } from "../strategies/builtins/plan-decision-context.js";
import { HISTORY_STRATEGY } from "../strategies/builtins/temporal-archaeology.js";
import type { StrategyRegistry } from "../strategies/registry.js";
import type { StrategyPipeline } from "../strategies/strategy-pipeline.js";
import { asksForHistory } from "../text/history-question.js";
import { withoutTemplateLines } from "../text/issue-template.js";
import type { EnabledStrategies, QueryOptions, QueryResult } from "./engine-options.js";
import type { CachedGraphSource } from "./graph-source.js";
import { hotTier } from "./hot-files.js";
import { issueTemplatePhrases } from "./issue-templates.js";
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
 * The list with the strategies a request asks for without naming them: naming
 * a plan asks for its decisions, a question about how code came to be ("why
 * was X changed") for its history, whatever the project's list. A strategy
 * turned off in the settings stays off (the pipeline skips it).
 */
function withAskedFor(
  enabled: readonly string[],
  task: string,
  planNamed: boolean,
  registry: StrategyRegistry,
): readonly string[] {
  const asked = [
    ...(planNamed ? [PLAN_STRATEGY] : []),
    ...(asksForHistory(task) && registry.get(HISTORY_STRATEGY) ? [HISTORY_STRATEGY] : []),
  ].filter((name) => !enabled.includes(name));
  return asked.length > 0 ? [...enabled, ...asked] : enabled;
}

/**
 * One query: the hot tier set aside, the strategy pipeline run on what is left
 * of the budget (with the plan's decisions when a plan is named) for the task
 * without the lines it copies from the project's issue templates, the answer
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
  else enabled = withAskedFor(enabled, options.task, plan !== null, parts.registry);
  const resources = await parts.store.documents.listResources();
  const { tiers, hydration } = config;
  const { includeSecrets } = hydration;
  const hot = hotTier(resources, tiers, parts.counter, limit, options.paths, includeSecrets);
  const backends = await parts.backends();
  const budget = limit - hot.need;
  const pipelineOutput = await parts.pipeline.run(
    {
      task: withoutTemplateLines(options.task, issueTemplatePhrases(resources)),
      budget,
      ...(options.paths ? { paths: options.paths } : {}),
      ...(options.focus && options.focus.length > 0 ? { focus: options.focus } : {}),
      ...(plan ? { planId: plan.planId } : {}),
    },
    backends,
    enabled,
    { ...(options.signal ? { signal: options.signal } : {}), ...(plan ? { plan } : {}) },
  );
  const candidates = await withSmallFilesWhole(
    pipelineOutput.candidates,
    backends.text,
    parts.counter,
    budget,
  );
  const linesOf = await linesOfFirstFiles(candidates, backends.text);
  const result = packAnswer({
    task: options.task,
    budget: options.budget,
    limit,
    format,
    explain: options.explain ?? false,
    resources,
    hot,
    output: { ...pipelineOutput, candidates },
    counter: parts.counter,
    around: (fragment, shown) => linesAround(fragment, linesOf, shown),
    settingsFor: (name) => config.strategies.settingsFor(name),
  });
  const graph = config.graph ? () => parts.graph.load() : null;
  return {
    ...result,
    unknownFocus: await focusLeftOut(options.focus ?? [], graph),
    requestId: options.record === false ? "" : parts.requests.add(result),
  };
}
