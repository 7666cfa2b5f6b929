import { describe, expect, it } from "vitest";
import { IndexNotWritableError } from "../../src/core/errors.js";
import { explainPgError } from "../../src/store/postgres/connection-errors.js";

describe("a PostgreSQL server whose disk is full", () => {
  it("is an index that cannot be written, so a query answers from what is stored", () => {
    // What pg raises for SQLSTATE 53100 (disk_full).
    const raised = Object.assign(new Error('could not extend file "base/5/16384": No space left'), {
      code: "53100",
    });
    const error = explainPgError("postgres://ctx@db/ctx", raised);
    expect(error).toBeInstanceOf(IndexNotWritableError);
    expect((error as Error).message).toBe(
      "postgres://ctx@db/ctx: cannot write the index: the server's disk is full; free some space on it and run the command again (what was written before is kept)",
    );
  });
});
