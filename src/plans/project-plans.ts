import { UsageError } from "../core/errors.js";
import {
  type Decision,
  type DecisionToRecord,
  type Plan,
  PlanNotFoundError,
  type PlanSource,
  type PlanStore,
} from "../core/plans.js";
import type { PlanContext } from "../core/strategy.js";

/** Plans deeper than this are cut off: a parent chain longer than any real plan is a loop or damage. */
const MAX_DEPTH = 64;
const MAX_TEXT = 8000;

/** One project's plans and decisions, as the CLI, the MCP tools and strategies use them. */
export class ProjectPlans implements PlanSource {
  constructor(
    private readonly store: PlanStore,
    private readonly project: string,
  ) {}

  async create(title: string, parentId: string | null = null): Promise<Plan> {
    return this.store.createPlan(this.project, required("title", title), parentId);
  }

  async decide(planId: string, decision: DecisionToRecord): Promise<Decision> {
    return this.store.recordDecision(this.project, planId, {
      what: required("what", decision.what),
      why: required("why", decision.why),
      alternatives: decision.alternatives.map((text) => required("alternative", text)),
      outcome: decision.outcome === null ? null : required("outcome", decision.outcome),
    });
  }

  async close(planId: string, outcome: string | null = null): Promise<Plan> {
    return this.store.closePlan(
      this.project,
      planId,
      outcome === null ? null : required("outcome", outcome),
    );
  }

  /** The plan with its decisions; throws when there is none. */
  async show(planId: string): Promise<Plan> {
    const plan = await this.store.getPlan(this.project, planId);
    if (!plan) throw new PlanNotFoundError(planId);
    return plan;
  }

  list(options: { readonly openOnly?: boolean } = {}): Promise<Plan[]> {
    return this.store.listPlans(this.project, { openOnly: options.openOnly ?? false });
  }

  /** What strategies get of the plan: its id and its ancestors'; throws when there is no such plan. */
  async context(planId: string): Promise<PlanContext> {
    const lineage = await this.lineage(planId);
    if (lineage.length === 0) throw new PlanNotFoundError(planId);
    return { planId, parentIds: lineage.slice(1).map((plan) => plan.id) };
  }

  async lineage(planId: string): Promise<Plan[]> {
    const chain: Plan[] = [];
    let next: string | null = planId;
    while (next !== null && chain.length < MAX_DEPTH) {
      const plan = await this.store.getPlan(this.project, next);
      if (!plan) break;
      chain.push(plan);
      next = plan.parentId;
    }
    return chain;
  }
}

function required(what: string, text: string): string {
  const trimmed = text.trim();
  if (trimmed.length === 0) throw new UsageError(`the ${what} is empty; say it in a few words`);
  if (trimmed.length > MAX_TEXT)
    throw new UsageError(`the ${what} is ${trimmed.length} characters; keep it under ${MAX_TEXT}`);
  return trimmed;
}
