import { describe, expect, it } from "vitest";
import {
  identifiersOfPatch,
  MAX_COMMIT_IDENTIFIERS,
  readDiffIdentifiers,
} from "../../src/history/diff-identifiers.js";
import { Repo } from "../helpers/git-history.js";

describe("identifiers of a commit's diff", () => {
  it("reads compound names from changed lines and hunk headers, not from file names or context", () => {
    const patch = [
      "",
      "diff --git a/src/session_store.ts b/src/session_store.ts",
      "--- a/src/session_store.ts",
      "+++ b/src/session_store.ts",
      "@@ -10,2 +10,2 @@ export function renewTicket(ticket: Ticket) {",
      "-  return ticket.expiresAt + ONE_DAY;",
      "+  return ticket.expiresAt + ttl_seconds * 1000;",
      "@@ -30 +30 @@ class SessionStore:",
      "+    self.max_age = other",
    ].join("\n");
    expect(identifiersOfPatch(patch)).toEqual([
      "renewTicket",
      "expiresAt",
      "ONE_DAY",
      "ttl_seconds",
      "SessionStore",
      "max_age",
    ]);
  });

  it("leaves out words of the language and short names, and calls a sweep a sweep", () => {
    expect(identifiersOfPatch("+  const value = items.map(x => x.id);\n-return null;")).toEqual([]);
    const sweep = Array.from(
      { length: MAX_COMMIT_IDENTIFIERS + 1 },
      (_, i) => `+renamedItem${i}();`,
    );
    expect(identifiersOfPatch(sweep.join("\n"))).toBeNull();
  });
});

describe("reading the diffs of a real history", () => {
  it("reads each commit whole however git's output is cut, and a separator byte in a file's text starts no commit", async () => {
    const repo = new Repo();
    // An initial import of about 4 MB: git's output reaches us in many pieces,
    // the first name on the first of them and the last on the last.
    const filler = Array.from({ length: 60_000 }, (_, i) => `value = ${i} # padding line`);
    const imported = repo.commit("import the project", {
      "big.py": ["def first_name():", ...filler, "def last_name():", ""].join("\n"),
      "odd.txt": "before\u001eafter_mark on the same line\nplain tail_word here\n",
    });
    const changed = repo.commit("rename the helper", {
      "small.py": "def renamed_helper():\n    return other_value\n",
    });
    const found = await readDiffIdentifiers(repo.root, [changed, imported], []);
    expect([...found.keys()].sort()).toEqual([changed, imported].sort());
    expect(found.get(changed)).toEqual(["renamed_helper", "other_value"]);
    const names = found.get(imported) ?? [];
    expect(names).toEqual(
      expect.arrayContaining(["first_name", "last_name", "after_mark", "tail_word"]),
    );
  });
});
