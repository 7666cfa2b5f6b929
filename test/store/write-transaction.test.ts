import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { IndexNotWritableError } from "../../src/core/errors.js";
import { openDatabase } from "../../src/store/sqlite/open-database.js";
import { inWriteTransaction } from "../../src/store/sqlite/write-transaction.js";
import { tempDir } from "../helpers/temp-dir.js";

describe("writing the index", () => {
  it("says the disk is full, naming the file, and keeps what was written before", () => {
    const file = join(tempDir(), "index.db");
    const db = openDatabase(file, { create: true });
    inWriteTransaction(db, () => db.exec("CREATE TABLE notes (text TEXT)"));
    inWriteTransaction(db, () => db.prepare("INSERT INTO notes VALUES ('kept')").run());
    // SQLite's own way to run out of room: the file may not grow past its pages now.
    const pages = db.pragma("page_count", { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`);
    const insert = db.prepare("INSERT INTO notes VALUES (?)");
    const write = () =>
      inWriteTransaction(db, () => {
        for (let i = 0; i < 1000; i++) insert.run("x".repeat(1000));
      });
    expect(write).toThrow(IndexNotWritableError);
    expect(write).toThrow(
      `${file}: cannot write the index: the disk is full; free some space on it and run the command again (what was written before is kept)`,
    );
    expect(db.prepare("SELECT text FROM notes").all()).toEqual([{ text: "kept" }]);
    db.close();
  });
});
