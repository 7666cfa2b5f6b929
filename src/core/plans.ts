/** Plans agents work through and the decisions they record: warm while a plan is open, cold once closed. */

import { CtxError } from "./errors.js";

export type PlanStatus = "open" | "closed";

export interface Decision {
  readonly id: string;
  readonly planId: string;
  /** What was decided. */
  readonly what: string;
  /** Why: the rationale an agent will need later. */
  readonly why: string;
  /** Options considered and not taken. */
  readonly alternatives: readonly string[];
  /** What came of it, once known. */
  readonly outcome: string | null;
  readonly decidedAt: string;
}

export interface Plan {
  readonly id: string;
  /** The project the plan belongs to (`local/my-project`). */
  readonly project: string;
  readonly parentId: string | null;
  readonly title: string;
  readonly status: PlanStatus;
  readonly outcome: string | null;
  readonly createdAt: string;
  readonly closedAt: string | null;
  /** In the order they were recorded. */
  readonly decisions: readonly Decision[];
}

export interface DecisionToRecord {
  readonly what: string;
  readonly why: string;
  readonly alternatives: readonly string[];
  readonly outcome: string | null;
}

/** The index's plans and decisions. */
export interface PlanStore {
  createPlan(project: string, title: string, parentId: string | null): Promise<Plan>;
  recordDecision(project: string, planId: string, decision: DecisionToRecord): Promise<Decision>;
  closePlan(project: string, planId: string, outcome: string | null): Promise<Plan>;
  /** The plan with its decisions; null when the project has no such plan. */
  getPlan(project: string, planId: string): Promise<Plan | null>;
  /** The project's plans, newest first, with their decisions. */
  listPlans(project: string, options: { readonly openOnly: boolean }): Promise<Plan[]>;
}

/** Plans as strategies read them (`Backends.plans`). */
export interface PlanSource {
  /** The plan and its ancestors, nearest first; empty when there is no such plan. */
  lineage(planId: string): Promise<Plan[]>;
}

/** A plan id that names no plan of the project. */
export class PlanNotFoundError extends CtxError {
  constructor(planId: string) {
    super("plan_not_found", `no plan ${planId} in this project; \`ctx plan list\` shows its plans`);
  }
}

/** A decision recorded on, or a close of, a plan already closed. */
export class PlanClosedError extends CtxError {
  constructor(planId: string, doing: "decide" | "close") {
    super(
      "plan_closed",
      doing === "decide"
        ? `plan ${planId} is closed; start a follow-up (\`ctx plan create TITLE --parent ${planId}\`) and record the decision there`
        : `plan ${planId} is already closed`,
    );
  }
}
