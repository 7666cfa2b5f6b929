import type { ContextFragment, Tier } from "../../core/fragment.js";
import type { Plan } from "../../core/plans.js";
import type {
  Backends,
  ContextRequest,
  ContextStrategy,
  PlanContext,
  StrategyCapabilities,
  TokenBudget,
} from "../../core/strategy.js";
import { DEFAULT_CAPABILITIES } from "../../core/strategy.js";
import type { TokenCounter } from "../../core/token-counter.js";

export const PLAN_STRATEGY = "plan-decision-context";

/**
 * The decisions of the request's plan and of its ancestors, nearest first: what
 * was decided, why, what else was considered and what came of it. When the
 * budget runs short, farther plans are shown by their titles only.
 */
export class PlanDecisionContextStrategy implements ContextStrategy {
  readonly name = PLAN_STRATEGY;
  readonly capabilities: StrategyCapabilities = {
    ...DEFAULT_CAPABILITIES,
    resourceTypes: ["folder", "git"],
    qualityScore: 0.7,
    supportsPlanHierarchy: true,
  };

  constructor(private readonly counter: TokenCounter) {}

  canHandle(request: ContextRequest, backends: Backends): number {
    return backends.plans && request.planId ? 0.9 : 0;
  }

  async assemble(
    request: ContextRequest,
    backends: Backends,
    budget: TokenBudget,
    plan?: PlanContext,
  ): Promise<ContextFragment[]> {
    const planId = plan?.planId ?? request.planId;
    if (!backends.plans || !planId) return [];
    const lineage = await backends.plans.lineage(planId);
    const fragments: ContextFragment[] = [];
    let used = 0;
    let shortened = false;
    lineage.forEach((current, depth) => {
      const score = 1 / (depth + 1);
      const tier: Tier = current.status === "closed" ? "cold" : depth === 0 ? "hot" : "warm";
      let fragment = this.fragment(current, planText(current), score, tier);
      // The nearest plans whole while they fit the share; beyond, titles only.
      if (shortened || (depth > 0 && used + fragment.tokens > budget.allocated)) {
        shortened = true;
        fragment = {
          ...this.fragment(current, planTitle(current), score, tier),
          detailDepth: "outline",
        };
      }
      used += fragment.tokens;
      fragments.push(fragment);
    });
    return fragments;
  }

  private fragment(plan: Plan, content: string, score: number, tier: Tier): ContextFragment {
    return {
      id: `plan:${plan.id}`,
      source: { kind: "decision", id: plan.id },
      content,
      tokens: this.counter.count(content),
      score,
      strategy: this.name,
      tier,
      nodeId: `plan:${plan.id.padStart(12, "0")}`,
      detailDepth: "full",
      symbol: plan.title,
      chunkKind: "section",
      chunkIds: [],
    };
  }

  explain(): string {
    return (
      "plan-decision-context: the decisions recorded in the request's plan and its ancestors " +
      "(what, why, alternatives, outcome), nearest plan first; farther plans shrink to their " +
      "titles when the budget is tight."
    );
  }
}

function planTitle(plan: Plan): string {
  const decisions = `${plan.decisions.length} ${plan.decisions.length === 1 ? "decision" : "decisions"}`;
  return `Plan ${plan.id} (${plan.status}): ${plan.title} — ${decisions}`;
}

function planText(plan: Plan): string {
  const lines = [`Plan ${plan.id} (${plan.status}): ${plan.title}`];
  for (const decision of plan.decisions) {
    lines.push(`- Decided: ${decision.what}`, `  Why: ${decision.why}`);
    if (decision.alternatives.length > 0)
      lines.push(`  Instead of: ${decision.alternatives.join("; ")}`);
    if (decision.outcome) lines.push(`  Outcome: ${decision.outcome}`);
  }
  if (plan.decisions.length === 0) lines.push("- No decisions recorded yet.");
  if (plan.outcome) lines.push(`Outcome of the plan: ${plan.outcome}`);
  return lines.join("\n");
}
