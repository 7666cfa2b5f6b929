import { describe, expect, it } from "vitest";
import { PlanClosedError, PlanNotFoundError } from "../../src/core/plans.js";
import type { ContextEngine } from "../../src/engine/context-engine.js";
import { indexedEngine } from "../helpers/indexed-engine.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

async function project(): Promise<ContextEngine> {
  const root = tempDir("ctx-plans-");
  writeFiles(root, { "src/auth.ts": "export function signToken(user: string) { return user; }\n" });
  return indexedEngine(root);
}

describe("plans and decisions", () => {
  it("gives a child plan's decisions, then its parent's, as context", async () => {
    const engine = await project();
    const parent = await engine.plans.create("Move sessions to signed tokens");
    await engine.plans.decide(parent.id, {
      what: "Sign tokens with Ed25519",
      why: "Short keys, fast verification",
      alternatives: ["HMAC-SHA256"],
      outcome: null,
    });
    const child = await engine.plans.create("Rotate signing keys", parent.id);
    await engine.plans.decide(child.id, {
      what: "Rotate keys every 30 days",
      why: "Limits what a leaked key can sign",
      alternatives: [],
      outcome: null,
    });
    const result = await engine.query({ task: "signToken", budget: 2000, planId: child.id });
    const decisions = result.fragments.filter((f) => f.strategy === "plan-decision-context");
    expect(decisions.map((f) => f.source.kind === "decision" && f.source.id)).toEqual([
      child.id,
      parent.id,
    ]);
    expect(decisions[0]?.content).toMatch(/Decided: Rotate keys every 30 days\n {2}Why: Limits/);
    expect(decisions[1]?.content).toMatch(/Ed25519.*Instead of: HMAC-SHA256/s);
    expect(decisions.map((f) => f.tier)).toEqual(["hot", "warm"]);
    const at = (id: string) => result.output.indexOf(`## plan ${id}`);
    expect(at(child.id)).toBeGreaterThanOrEqual(0);
    expect(at(child.id)).toBeLessThan(at(parent.id));
    // The code is still there.
    expect(result.fragments.some((f) => f.source.kind === "file")).toBe(true);
  });

  it("sends a closed plan's decisions to the cold tier and refuses new ones", async () => {
    const engine = await project();
    const plan = await engine.plans.create("Spike: token formats");
    await engine.plans.decide(plan.id, {
      what: "Use PASETO",
      why: "No alg confusion",
      alternatives: [],
      outcome: null,
    });
    const closed = await engine.plans.close(plan.id, "Adopted PASETO v4");
    expect(closed).toMatchObject({ status: "closed", outcome: "Adopted PASETO v4" });
    const result = await engine.query({ task: "token format", budget: 2000, planId: plan.id });
    const decision = result.fragments.find((f) => f.strategy === "plan-decision-context");
    expect(decision?.tier).toBe("cold");
    expect(decision?.content).toMatch(/Outcome of the plan: Adopted PASETO v4/);
    await expect(
      engine.plans.decide(plan.id, { what: "x", why: "y", alternatives: [], outcome: null }),
    ).rejects.toThrow(PlanClosedError);
    await expect(engine.plans.close(plan.id)).rejects.toThrow(/already closed/);
    expect((await engine.plans.list({ openOnly: true })).map((p) => p.id)).not.toContain(plan.id);
  });

  it("shortens far ancestors to their titles when the budget is tight", async () => {
    const engine = await project();
    let parent: string | null = null;
    const ids: string[] = [];
    for (let level = 0; level < 4; level++) {
      const plan = await engine.plans.create(`Level ${level}`, parent);
      for (let n = 0; n < 6; n++) {
        await engine.plans.decide(plan.id, {
          what: `Decision ${n} of level ${level}: ${"a long explanation of the choice ".repeat(4)}`,
          why: "because ".repeat(20),
          alternatives: ["another way"],
          outcome: null,
        });
      }
      ids.push(plan.id);
      parent = plan.id;
    }
    const nearest = ids[ids.length - 1] as string;
    const result = await engine.query({
      task: "signToken",
      budget: 1500,
      planId: nearest,
      strategies: ["plan-decision-context"],
    });
    expect(result.tokensUsed).toBeLessThanOrEqual(1500);
    const shown = result.fragments.map((f) => [
      f.source.kind === "decision" ? f.source.id : "",
      f.detailDepth,
    ]);
    expect(shown[0]).toEqual([nearest, "full"]);
    expect(shown.some(([, depth]) => depth === "outline")).toBe(true);
    const titleOnly = result.fragments.find((f) => f.detailDepth === "outline");
    expect(titleOnly?.content).toMatch(/^Plan \d+ \(open\): Level \d — 6 decisions$/);
  });

  it("names a plan that does not exist", async () => {
    const engine = await project();
    await expect(engine.query({ task: "x", budget: 500, planId: "41" })).rejects.toThrow(
      PlanNotFoundError,
    );
    await expect(engine.plans.create("orphan", "nope")).rejects.toThrow(
      /no plan nope in this project/,
    );
    await expect(engine.plans.create("   ")).rejects.toThrow(/title is empty/);
  });
});
