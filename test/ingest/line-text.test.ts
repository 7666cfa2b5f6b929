import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineText } from "../../src/ingest/chunk/line-text.js";

/** What LineText promises, written the plain way: split on LF or CRLF, join with LF. */
function referenceLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

describe("LineText", () => {
  const text = fc
    .array(fc.constantFrom("a", "bc", " ", "\n", "\r\n", "\r", "é", "😀", "\n\n"), {
      maxLength: 40,
    })
    .map((pieces) => pieces.join(""));

  it("splits on LF and CRLF and joins any range with LF, like split and join", () => {
    fc.assert(
      fc.property(text, fc.nat(45), fc.nat(45), (source, a, b) => {
        const lines = new LineText(source, () => 1);
        const reference = referenceLines(source);
        expect(lines.lines).toEqual(reference);
        const start = Math.min(a, b) + 1;
        const end = Math.max(a, b);
        expect(lines.slice(start, end)).toBe(reference.slice(start - 1, end).join("\n"));
      }),
      { numRuns: 3000 },
    );
  });

  it("gives CRLF documents' chunks LF line ends", () => {
    const lines = new LineText("one\r\ntwo\r\nthree\r\n", () => 1);
    expect(lines.count).toBe(3);
    expect(lines.slice(1, 3)).toBe("one\ntwo\nthree");
  });
});
