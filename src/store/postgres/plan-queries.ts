import {
  type Decision,
  type DecisionToRecord,
  type Plan,
  PlanClosedError,
  PlanNotFoundError,
  type PlanStore,
} from "../../core/plans.js";
import { type DecisionRow, type PlanRow, planNumber, plansOf, toDecision } from "../plan-rows.js";
import { type PgSession, type Queryable, rowsOf } from "./pg-session.js";

const PLAN_COLUMNS = "id, project, parent_id, title, status, outcome, created_at, closed_at";

async function planRow(
  client: Queryable,
  projectId: number,
  project: string,
  planId: string,
  lock = false,
): Promise<PlanRow | undefined> {
  const id = planNumber(planId);
  if (id === null) return undefined;
  const [row] = await rowsOf<PlanRow>(
    client,
    `SELECT ${PLAN_COLUMNS} FROM plans WHERE id = $1 AND project_id = $2 AND project = $3 ${lock ? "FOR UPDATE" : ""}`,
    [id, projectId, project],
  );
  return row;
}

async function withDecisions(client: Queryable, rows: readonly PlanRow[]): Promise<Plan[]> {
  if (rows.length === 0) return [];
  const decisions = await rowsOf<DecisionRow>(
    client,
    "SELECT * FROM plan_decisions WHERE plan_id = ANY($1::bigint[]) ORDER BY id",
    [rows.map((row) => row.id)],
  );
  return plansOf(rows, decisions);
}

/** The plan store over one connection: plans and their decisions. */
export function pgPlans(session: PgSession): PlanStore {
  return {
    async createPlan(project: string, title: string, parentId: string | null): Promise<Plan> {
      return session.transaction(async (client) => {
        let parent: number | null = null;
        if (parentId !== null) {
          const row = await planRow(client, session.projectId, project, parentId);
          if (!row) throw new PlanNotFoundError(parentId);
          parent = row.id;
        }
        const [created] = await rowsOf<PlanRow>(
          client,
          `INSERT INTO plans (project_id, project, parent_id, title, status, created_at)
       VALUES ($1, $2, $3, $4, 'open', $5) RETURNING ${PLAN_COLUMNS}`,
          [session.projectId, project, parent, title, new Date().toISOString()],
        );
        return (await withDecisions(client, [created as PlanRow]))[0] as Plan;
      });
    },
    async recordDecision(
      project: string,
      planId: string,
      decision: DecisionToRecord,
    ): Promise<Decision> {
      return session.transaction(async (client) => {
        const plan = await planRow(client, session.projectId, project, planId, true);
        if (!plan) throw new PlanNotFoundError(planId);
        if (plan.status === "closed") throw new PlanClosedError(planId, "decide");
        const [row] = await rowsOf<DecisionRow>(
          client,
          `INSERT INTO plan_decisions (plan_id, what, why, alternatives, outcome, decided_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
          [
            plan.id,
            decision.what,
            decision.why,
            JSON.stringify(decision.alternatives),
            decision.outcome,
            new Date().toISOString(),
          ],
        );
        return toDecision(row as DecisionRow);
      });
    },
    async closePlan(project: string, planId: string, outcome: string | null): Promise<Plan> {
      return session.transaction(async (client) => {
        const plan = await planRow(client, session.projectId, project, planId, true);
        if (!plan) throw new PlanNotFoundError(planId);
        if (plan.status === "closed") throw new PlanClosedError(planId, "close");
        const [closed] = await rowsOf<PlanRow>(
          client,
          `UPDATE plans SET status = 'closed', outcome = $1, closed_at = $2 WHERE id = $3 RETURNING ${PLAN_COLUMNS}`,
          [outcome, new Date().toISOString(), plan.id],
        );
        return (await withDecisions(client, [closed as PlanRow]))[0] as Plan;
      });
    },
    async getPlan(project: string, planId: string): Promise<Plan | null> {
      const row = await planRow(session.pool, session.projectId, project, planId);
      return row ? ((await withDecisions(session.pool, [row]))[0] ?? null) : null;
    },
    async listPlans(
      project: string,
      { openOnly }: { readonly openOnly: boolean },
    ): Promise<Plan[]> {
      const rows = await session.rows<PlanRow>(
        `SELECT ${PLAN_COLUMNS} FROM plans WHERE project_id = $1 AND project = $2
     ${openOnly ? "AND status = 'open'" : ""} ORDER BY id DESC`,
        [session.projectId, project],
      );
      return withDecisions(session.pool, rows);
    },
  };
}
