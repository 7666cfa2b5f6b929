import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { taskLocations } from "../../src/graph/location-seeds.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

describe("the places a task points at", () => {
  it("reads Python, Node, Rust, Java and compiler locations, each once, in the task's order", () => {
    const task = [
      "Traceback (most recent call last):",
      '  File "/opt/venv/lib/python3.12/site-packages/shop/pricing.py", line 41, in total',
      "    at handler (/srv/app/src/routes.ts:12:5)",
      "  --> src/main.rs:10:5",
      "\tat com.shop.Routes.get(Routes.java:42)",
      "C:\\work\\shop\\src\\tax.ts:3:1 - error TS2345",
      "again at handler (/srv/app/src/routes.ts:12:5)",
      "not places: localhost:8080, at 12:30, version 1.2:3 and line 0 of a.ts:0",
    ].join("\n");
    expect(taskLocations(task)).toEqual([
      { path: "/opt/venv/lib/python3.12/site-packages/shop/pricing.py", line: 41 },
      { path: "/srv/app/src/routes.ts", line: 12 },
      { path: "src/main.rs", line: 10 },
      { path: "Routes.java", line: 42 },
      { path: "C:\\work\\shop\\src\\tax.ts", line: 3 },
    ]);
  });

  it("reads a link to a line of a file on GitHub or GitLab as that line", () => {
    const task = [
      "Day.js always returns the same string: https://github.com/iamkun/dayjs/blob/0fdac93/src/index.js#L254",
      "see also <https://gitlab.com/o/r/-/blob/main/Sources/Parsable%20Types/Flag.swift#L10-L12>",
      "and (https://github.com/o/r/blob/feature/x/lib/a.rb#L3).",
      "not places: https://github.com/o/r/blob/dev/docs/Plugin.md#quarterofyear and /blob/main/README.md",
    ].join("\n");
    expect(taskLocations(task)).toEqual([
      { path: "src/index.js", line: 254 },
      { path: "Sources/Parsable Types/Flag.swift", line: 10 },
      { path: "x/lib/a.rb", line: 3 },
    ]);
  });
});

describe("a task with a stack trace or a compiler error", () => {
  let engine: ContextEngine;

  beforeAll(async () => {
    const root = tempDir("ctx-locations-");
    writeFiles(root, {
      "src/billing/tax.ts": [
        "export function roundCents(value: number): number {",
        "  return Math.round(value * 100) / 100;",
        "}",
        "",
        "export function vatFor(net: number, rate: number): number {",
        "  const gross = net * (1 + rate);",
        "  return roundCents(gross - net);",
        "}",
        "",
      ].join("\n"),
      // Every word of the error, and none of the place.
      "src/forms/parse.ts": [
        "/** Argument of type string is not assignable to parameter of type number: parse it. */",
        "export function parseArgument(text: string): number {",
        "  const value = Number(text); // the parameter type is number, the argument a string",
        "  if (Number.isNaN(value)) throw new TypeError(`argument ${text} is not a number`);",
        "  return value;",
        "}",
        "",
      ].join("\n"),
      "src/app.py": [
        "def checkout(cart):",
        "    return sum(item.price for item in cart)",
        "",
        "",
        "def receipt(cart):",
        "    lines = [item.name for item in cart]",
        "    return '\\n'.join(lines)",
        "",
      ].join("\n"),
    });
    engine = await ContextEngine.open({ start: root, cwd: root });
    await engine.index();
  });
  afterAll(() => engine.close());

  it("shows the definition holding the line an error names first, above every word match", async () => {
    const answer = await engine.query({
      task: "src/billing/tax.ts:7:10 - error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
      budget: 2000,
      explain: true,
      format: "json",
    });
    const [first] = answer.fragments;
    expect(first?.source).toMatchObject({ kind: "file", path: "src/billing/tax.ts" });
    expect(first?.source.kind === "file" && first.source.startLine <= 7).toBe(true);
    expect(first?.source.kind === "file" && first.source.endLine >= 7).toBe(true);
    expect(first?.content).toContain("vatFor");
    expect(first?.rank?.model?.features.located).toBe(1);
  });

  it("matches a frame of a trace from another machine by the end of its path", async () => {
    const answer = await engine.query({
      task: 'Traceback (most recent call last):\n  File "/home/ci/build/shop/src/app.py", line 6, in <listcomp>\nAttributeError: oops',
      budget: 2000,
    });
    expect(answer.fragments[0]?.content).toContain("def receipt(cart):");
  });
});
