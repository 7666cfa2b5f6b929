import type Database from "better-sqlite3";
import {
  type Decision,
  type DecisionToRecord,
  type Plan,
  PlanClosedError,
  PlanNotFoundError,
  type PlanStatus,
} from "../../core/plans.js";
import { inWriteTransaction } from "./write-transaction.js";

interface PlanRow {
  id: number;
  project: string;
  parent_id: number | null;
  title: string;
  status: PlanStatus;
  outcome: string | null;
  created_at: string;
  closed_at: string | null;
}

interface DecisionRow {
  id: number;
  plan_id: number;
  what: string;
  why: string;
  alternatives: string;
  outcome: string | null;
  decided_at: string;
}

/** Plan ids are decimal numbers; anything else names no plan. */
function planNumber(planId: string): number | null {
  return /^[1-9]\d{0,15}$/.test(planId) ? Number(planId) : null;
}

function planRow(db: Database.Database, project: string, planId: string): PlanRow | undefined {
  const id = planNumber(planId);
  if (id === null) return undefined;
  return db.prepare("SELECT * FROM plans WHERE id = ? AND project = ?").get(id, project) as
    | PlanRow
    | undefined;
}

function withDecisions(db: Database.Database, rows: readonly PlanRow[]): Plan[] {
  if (rows.length === 0) return [];
  const decisions = db
    .prepare(
      "SELECT * FROM plan_decisions WHERE plan_id IN (SELECT value FROM json_each(?)) ORDER BY id",
    )
    .all(JSON.stringify(rows.map((row) => row.id))) as DecisionRow[];
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

function toDecision(row: DecisionRow): Decision {
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

export function createPlan(
  db: Database.Database,
  project: string,
  title: string,
  parentId: string | null,
): Plan {
  return inWriteTransaction(db, () => {
    let parent: number | null = null;
    if (parentId !== null) {
      const row = planRow(db, project, parentId);
      if (!row) throw new PlanNotFoundError(parentId);
      parent = row.id;
    }
    const result = db
      .prepare(
        "INSERT INTO plans (project, parent_id, title, status, created_at) VALUES (?, ?, ?, 'open', ?)",
      )
      .run(project, parent, title, new Date().toISOString());
    const created = planRow(db, project, String(result.lastInsertRowid)) as PlanRow;
    return withDecisions(db, [created])[0] as Plan;
  });
}

export function recordDecision(
  db: Database.Database,
  project: string,
  planId: string,
  decision: DecisionToRecord,
): Decision {
  return inWriteTransaction(db, () => {
    const plan = planRow(db, project, planId);
    if (!plan) throw new PlanNotFoundError(planId);
    if (plan.status === "closed") throw new PlanClosedError(planId, "decide");
    const result = db
      .prepare(
        "INSERT INTO plan_decisions (plan_id, what, why, alternatives, outcome, decided_at) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run(
        plan.id,
        decision.what,
        decision.why,
        JSON.stringify(decision.alternatives),
        decision.outcome,
        new Date().toISOString(),
      );
    const row = db
      .prepare("SELECT * FROM plan_decisions WHERE id = ?")
      .get(result.lastInsertRowid) as DecisionRow;
    return toDecision(row);
  });
}

export function closePlan(
  db: Database.Database,
  project: string,
  planId: string,
  outcome: string | null,
): Plan {
  return inWriteTransaction(db, () => {
    const plan = planRow(db, project, planId);
    if (!plan) throw new PlanNotFoundError(planId);
    if (plan.status === "closed") throw new PlanClosedError(planId, "close");
    db.prepare("UPDATE plans SET status = 'closed', outcome = ?, closed_at = ? WHERE id = ?").run(
      outcome,
      new Date().toISOString(),
      plan.id,
    );
    return withDecisions(db, [planRow(db, project, planId) as PlanRow])[0] as Plan;
  });
}

export function getPlan(db: Database.Database, project: string, planId: string): Plan | null {
  const row = planRow(db, project, planId);
  return row ? (withDecisions(db, [row])[0] ?? null) : null;
}

export function listPlans(db: Database.Database, project: string, openOnly: boolean): Plan[] {
  const rows = db
    .prepare(
      `SELECT * FROM plans WHERE project = ? ${openOnly ? "AND status = 'open'" : ""} ORDER BY id DESC`,
    )
    .all(project) as PlanRow[];
  return withDecisions(db, rows);
}
