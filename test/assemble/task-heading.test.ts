import { describe, expect, it } from "vitest";
import { TASK_HEADING_MAX_CHARS, taskHeading } from "../../src/assemble/renderers.js";

describe("the task as an answer's header shows it", () => {
  it("whole when it is one short line", () => {
    expect(taskHeading("  where are   retries configured ")).toBe("where are retries configured");
  });

  it("as its first line that holds anything, marked as cut, when it has more", () => {
    const log = "\n\nTypeError: x is undefined\n    at run (src/a.ts:3:1)\n";
    expect(taskHeading(log)).toBe("TypeError: x is undefined …");
  });

  it("cut to a bound, never inside a surrogate pair", () => {
    const long = `${"a".repeat(TASK_HEADING_MAX_CHARS - 1)}😀😀 tail`;
    const heading = taskHeading(long);
    expect(Array.from(heading)).toHaveLength(TASK_HEADING_MAX_CHARS + 1);
    expect(heading.endsWith("a😀…")).toBe(true);
    expect(taskHeading("x".repeat(100_000)).length).toBeLessThanOrEqual(TASK_HEADING_MAX_CHARS + 1);
  });
});
