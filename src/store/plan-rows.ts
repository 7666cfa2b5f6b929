import type { Decision, Plan, PlanStatus } from "../core/plans.js";

/** A plan row as both stores keep it. */
export interface PlanRow {
  id: number;
  project: string;
  parent_id: number | null;
  title: string;
  status: PlanStatus;
  outcome: string | null;
  created_at: string;
  closed_at: string | null;
}

/** A decision row as both stores keep it (alternatives as a JSON array). */
export interface DecisionRow {
  id: number;
  plan_id: number;
  what: string;
  why: string;
  alternatives: string;
  outcome: string | null;
  decided_at: string;
}

/** Plan ids are decimal numbers; anything else names no plan. */
export function planNumber(planId: string): number | null {
  return /^[1-9]\d{0,15}$/.test(planId) ? Number(planId) : null;
}

/** Plans from their rows, each with its decisions (from `decisions`, any order of plans, oldest first). */
export function plansOf(rows: readonly PlanRow[], decisions: readonly DecisionRow[]): Plan[] {
  const byPlan = new Map<number, Decision[]>();
  for (const row of decisions) {
    const list = byPlan.get(row.plan_id) ?? [];
    list.push(toDecision(row));
    byPlan.set(row.plan_id, list);
  }
  return rows.map((row) => ({
    id: String(row.id),
    project: row.project,
    parentId: row.parent_id === null ? null : String(row.parent_id),
    title: row.title,
    status: row.status,
    outcome: row.outcome,
    createdAt: row.created_at,
    closedAt: row.closed_at,
    decisions: byPlan.get(row.id) ?? [],
  }));
}

export function toDecision(row: DecisionRow): Decision {
  return {
    id: String(row.id),
    planId: String(row.plan_id),
    what: row.what,
    why: row.why,
    alternatives: JSON.parse(row.alternatives) as string[],
    outcome: row.outcome,
    decidedAt: row.decided_at,
  };
}
