import { describe, expect, it } from "vitest";
import type { Store } from "../../../src/core/store.js";
import { STORE_ADAPTER_ROWS, type StoreAdapter } from "../../helpers/store-adapters.js";

describe.each(STORE_ADAPTER_ROWS)(
  "the IndexState contract: leases, project overrides and breakers (%s)",
  (_name, adapter: StoreAdapter) => {
    const fresh = async (): Promise<Store> => adapter.place().open();

    it("gives a lease to one holder at a time, and to another once it expired or was released", async () => {
      const store = await fresh();
      expect(await store.state.takeLease("contexts", "first", 60_000)).toBe(true);
      expect(await store.state.takeLease("contexts", "second", 60_000)).toBe(false);
      expect(await store.state.takeLease("contexts", "first", 60_000)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await store.state.takeLease("contexts", "second", 10)).toBe(true);
      await store.state.releaseLease("contexts", "first");
      expect(await store.state.takeLease("contexts", "first", 60_000)).toBe(false);
      await store.state.releaseLease("contexts", "second");
      expect(await store.state.takeLease("contexts", "first", 60_000)).toBe(true);
    });

    it("keeps project strategy overrides, breakers and cached contexts", async () => {
      const store = await fresh();
      expect(await store.state.getProject("local/app")).toEqual({
        name: "local/app",
        enabledStrategies: null,
        updatedAt: null,
      });
      await store.state.setProjectStrategies("local/app", ["simple-keyword"]);
      expect((await store.state.getProject("local/app")).enabledStrategies).toEqual([
        "simple-keyword",
      ]);
      await store.state.setProjectStrategies("local/app", null);
      expect((await store.state.getProject("local/app")).enabledStrategies).toBeNull();

      await store.state.saveBreaker("local/app", { strategy: "arce", failures: 2, openedAt: null });
      await store.state.saveBreaker("local/app", { strategy: "arce", failures: 3, openedAt: 1234 });
      expect(await store.state.listBreakers("local/app")).toEqual([
        { strategy: "arce", failures: 3, openedAt: 1234 },
      ]);
      expect(await store.state.listBreakers("local/other")).toEqual([]);

      await store.contexts.putCachedContexts([
        { key: "k1", context: "first", generator: "g", model: "m" },
        { key: "k2", context: "second", generator: "g", model: "m" },
      ]);
      expect(await store.contexts.getCachedContexts(["k1", "k2", "k3"])).toEqual(
        new Map([
          ["k1", "first"],
          ["k2", "second"],
        ]),
      );
    });
  },
);
