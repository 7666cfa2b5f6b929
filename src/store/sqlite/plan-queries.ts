import type Database from "better-sqlite3";
import {
  type Decision,
  type DecisionToRecord,
  type Plan,
  PlanClosedError,
  PlanNotFoundError,
  type PlanStore,
} from "../../core/plans.js";
import { type DecisionRow, type PlanRow, planNumber, plansOf, toDecision } from "../plan-rows.js";
import { inWriteTransaction } from "./write-transaction.js";

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
  return plansOf(rows, decisions);
}

/** The plan store over one connection: plans and their decisions. */
export function sqlitePlans(db: Database.Database): PlanStore {
  return {
    async createPlan(project: string, title: string, parentId: string | null): Promise<Plan> {
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
    },
    async recordDecision(
      project: string,
      planId: string,
      decision: DecisionToRecord,
    ): Promise<Decision> {
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
    },
    async closePlan(project: string, planId: string, outcome: string | null): Promise<Plan> {
      return inWriteTransaction(db, () => {
        const plan = planRow(db, project, planId);
        if (!plan) throw new PlanNotFoundError(planId);
        if (plan.status === "closed") throw new PlanClosedError(planId, "close");
        db.prepare(
          "UPDATE plans SET status = 'closed', outcome = ?, closed_at = ? WHERE id = ?",
        ).run(outcome, new Date().toISOString(), plan.id);
        return withDecisions(db, [planRow(db, project, planId) as PlanRow])[0] as Plan;
      });
    },
    async getPlan(project: string, planId: string): Promise<Plan | null> {
      const row = planRow(db, project, planId);
      return row ? (withDecisions(db, [row])[0] ?? null) : null;
    },
    async listPlans(
      project: string,
      { openOnly }: { readonly openOnly: boolean },
    ): Promise<Plan[]> {
      const rows = db
        .prepare(
          `SELECT * FROM plans WHERE project = ? ${openOnly ? "AND status = 'open'" : ""} ORDER BY id DESC`,
        )
        .all(project) as PlanRow[];
      return withDecisions(db, rows);
    },
  };
}
