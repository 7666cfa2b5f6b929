import { describe, expect, it } from "vitest";
import { escapeHtml } from "../../src/report/html-page.js";
import { RAW_CONTROL } from "../helpers/parse-output.js";

describe("the HTML report's escaping", () => {
  it("turns markup into text and control and bidirectional characters into visible escapes", () => {
    const name = `src/<script>alert("x")</script>\u001b]0;t\u0007'\u202eexe.ts&\r`;
    const escaped = escapeHtml(name);
    expect(escaped).toBe(
      "src/&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;\\x1b]0;t\\x07&#39;\\u202eexe.ts&amp;\\r",
    );
    expect(escaped).not.toMatch(RAW_CONTROL);
    expect(escaped).not.toMatch(/[<>"']/);
  });
});
