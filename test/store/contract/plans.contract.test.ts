import { describe, expect, it } from "vitest";
import type { Store } from "../../../src/core/store.js";
import { STORE_ADAPTER_ROWS, type StoreAdapter } from "../../helpers/store-adapters.js";

describe.each(STORE_ADAPTER_ROWS)(
  "the PlanStore contract: plans and decisions (%s)",
  (_name, adapter: StoreAdapter) => {
    const fresh = async (): Promise<Store> => adapter.place().open();

    it("records plans and decisions, closed plans refusing more", async () => {
      const store = await fresh();
      const parent = await store.plans.createPlan("local/app", "Rework the cache", null);
      const child = await store.plans.createPlan("local/app", "Pick an eviction policy", parent.id);
      const decision = await store.plans.recordDecision("local/app", child.id, {
        what: "LRU",
        why: "hot keys stay",
        alternatives: ["FIFO"],
        outcome: null,
      });
      expect(decision.planId).toBe(child.id);
      const closed = await store.plans.closePlan("local/app", child.id, "shipped");
      expect([closed.status, closed.outcome, closed.decisions.map((d) => d.what)]).toEqual([
        "closed",
        "shipped",
        ["LRU"],
      ]);
      await expect(
        store.plans.recordDecision("local/app", child.id, {
          what: "x",
          why: "y",
          alternatives: [],
          outcome: null,
        }),
      ).rejects.toThrow(/is closed/);
      expect(
        (await store.plans.listPlans("local/app", { openOnly: true })).map((p) => p.title),
      ).toEqual(["Rework the cache"]);
      expect(
        (await store.plans.listPlans("local/app", { openOnly: false })).map((p) => p.id),
      ).toEqual([child.id, parent.id]);
      expect(await store.plans.getPlan("local/other", parent.id)).toBeNull();
      expect(await store.plans.getPlan("local/app", "nonsense")).toBeNull();
      expect((await store.plans.getPlan("local/app", child.id))?.parentId).toBe(parent.id);
    });
  },
);
