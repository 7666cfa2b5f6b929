import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { monotonicFactory } from "ulid";
import { describe, expect, it } from "vitest";
import { RequestLog, type RequestRecord } from "../../src/engine/request-log.js";
import { tempDir } from "../helpers/temp-dir.js";

const nextId = monotonicFactory();
const record = (task: string) => ({ task }) as unknown as RequestRecord;
const kept = (log: RequestLog) =>
  readdirSync(log.folder)
    .filter((name) => name.endsWith(".json"))
    .sort();

describe("the request log beside an index", () => {
  it("keeps the newest requests up to its capacity, its own and other processes'", async () => {
    const log = new RequestLog(join(tempDir(), "index.db"), 3, 4);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const id = nextId();
      ids.push(id);
      await log.write(id, record(`task ${i}`));
      expect(kept(log).length).toBeLessThanOrEqual(3);
    }
    expect(kept(log)).toEqual(ids.slice(-3).map((id) => `${id}.json`));
    expect((await log.read())?.record).toEqual(record("task 7"));

    // Another process answered two requests meanwhile: they are pruned at the next listing.
    for (const other of [nextId(), nextId()]) {
      writeFileSync(join(log.folder, `${other}.json`), JSON.stringify(record("other")));
    }
    const newest: string[] = [];
    for (let i = 0; i < 4; i++) {
      const id = nextId();
      newest.push(id);
      await log.write(id, record(`later ${i}`));
    }
    expect(kept(log)).toEqual(newest.slice(-3).map((id) => `${id}.json`));
  });

  it("writes the next request when its folder was removed after it was listed", async () => {
    const log = new RequestLog(join(tempDir(), "index.db"), 3, 4);
    await log.write(nextId(), record("first"));
    rmSync(log.folder, { recursive: true, force: true });
    const id = nextId();
    await log.write(id, record("second"));
    expect(kept(log)).toEqual([`${id}.json`]);
  });
});
