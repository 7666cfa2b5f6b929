import { describe, expect, it } from "vitest";
import { identifiersOfPatch, MAX_COMMIT_IDENTIFIERS } from "../../src/history/diff-identifiers.js";

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
