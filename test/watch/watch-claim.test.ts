import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { WatchClaim } from "../../src/watch/watch-claim.js";
import { tempDir } from "../helpers/temp-dir.js";

const opened: SqliteStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

function store(): SqliteStore {
  const created = SqliteStore.open(join(tempDir(), "index.db"), { create: true });
  opened.push(created);
  return created;
}

describe("a watcher's claim on the index", () => {
  it("is given up by the watcher that wrote it, and left alone by another watcher of the same index", async () => {
    const index = store();
    const first = new WatchClaim(index);
    const second = new WatchClaim(index);
    first.markSettled();
    await first.written();
    second.markSettled();
    await second.written();
    const secondClaim = await index.state.getMeta("watcher");
    expect(JSON.parse(secondClaim ?? "")).toMatchObject({ pid: process.pid, state: "settled" });

    // The first watcher stops: the second still keeps the index up to date, and says so.
    await first.stop();
    expect(await index.state.getMeta("watcher")).toBe(secondClaim);

    await second.stop();
    expect(await index.state.getMeta("watcher")).toBe("");
  });
});
