import type { DecisionToRecord, PlanStatus } from "../../core/plans.js";
import { type PgSession, rowsOf } from "./pg-session.js";

/** A plan as another index holds it: its own id only to find its parent among the others. */
export interface ImportedPlan {
  readonly id: number;
  readonly project: string;
  readonly parentId: number | null;
  readonly title: string;
  readonly status: PlanStatus;
  readonly outcome: string | null;
  readonly createdAt: string;
  readonly closedAt: string | null;
  readonly decisions: readonly (DecisionToRecord & { readonly decidedAt: string })[];
}

/** Writes the plans in one transaction, parents before children (ids ascending), with new ids. */
export async function importPlans(
  session: PgSession,
  plans: readonly ImportedPlan[],
): Promise<void> {
  if (plans.length === 0) return;
  await session.transaction(async (client) => {
    const ids = new Map<number, number>();
    for (const plan of [...plans].sort((a, b) => a.id - b.id)) {
      const [row] = await rowsOf<{ id: number }>(
        client,
        `INSERT INTO plans (project_id, project, parent_id, title, status, outcome, created_at, closed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
        [
          session.projectId,
          plan.project,
          plan.parentId === null ? null : (ids.get(plan.parentId) ?? null),
          plan.title,
          plan.status,
          plan.outcome,
          plan.createdAt,
          plan.closedAt,
        ],
      );
      const id = row?.id as number;
      ids.set(plan.id, id);
      for (const decision of plan.decisions) {
        await client.query(
          `INSERT INTO plan_decisions (plan_id, what, why, alternatives, outcome, decided_at)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [
            id,
            decision.what,
            decision.why,
            JSON.stringify(decision.alternatives),
            decision.outcome,
            decision.decidedAt,
          ],
        );
      }
    }
  });
}
