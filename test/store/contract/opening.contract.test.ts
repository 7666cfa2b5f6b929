import { describe, expect, it } from "vitest";
import { IndexMissingError, SchemaTooNewError } from "../../../src/core/errors.js";
import { STORE_ADAPTER_ROWS, type StoreAdapter } from "../../helpers/store-adapters.js";
import { document } from "../../helpers/store-documents.js";

describe.each(STORE_ADAPTER_ROWS)(
  "the Store contract: opening, reopening and schema versions (%s)",
  (_name, adapter: StoreAdapter) => {
    it("keeps its data across reopening and records its roots", async () => {
      const place = adapter.place();
      const first = await place.open();
      const resource = await first.documents.ensureResource("/repo", "folder");
      await first.documents.writeDocuments([document(resource.id, "a.ts", "const answer = 42;")]);
      await first.state.setMeta("ingest_version", "8");
      await first.close();

      const second = await place.open({ create: false });
      expect((await second.documents.listResources()).map((r) => r.root)).toEqual(["/repo"]);
      expect((await second.documents.ensureResource("/repo", "folder")).id).toBe(resource.id);
      expect((await second.documents.searchText({ terms: ["answer"], limit: 5 })).length).toBe(1);
      expect(await second.state.getMeta("ingest_version")).toBe("8");
      expect(await second.state.getMeta("nothing")).toBeNull();
    });

    it("refuses a missing index when asked not to create one", async () => {
      await expect(adapter.place().open({ create: false })).rejects.toThrow(IndexMissingError);
    });

    it("refuses an index written by a newer version and leaves it as it was", async () => {
      const place = adapter.place();
      const store = await place.open();
      const resource = await store.documents.ensureResource("/repo", "git");
      await store.documents.writeDocuments([document(resource.id, "a.ts", "kept")]);
      const version = (await store.stats()).schemaVersion;
      await store.close();
      await place.setSchemaVersion(version + 1);
      await expect(place.open({ create: false })).rejects.toThrow(SchemaTooNewError);
      await place.setSchemaVersion(version);
      const again = await place.open({ create: false });
      expect((await again.documents.searchText({ terms: ["kept"], limit: 5 })).length).toBe(1);
    });
  },
);
