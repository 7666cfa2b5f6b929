import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { SERVICE } from "../helpers/service-fixture.js";
import { gitRepo } from "../helpers/temp-dir.js";

describe("the repo map", () => {
  let engine: ContextEngine;

  beforeAll(async () => {
    const root = gitRepo(SERVICE);
    engine = await ContextEngine.open({ start: root, cwd: root });
    await engine.index();
  });
  afterAll(() => engine.close());

  it("is never over the budget, and holds more as the budget grows", async () => {
    let largest = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 400 }), async (budget) => {
        const map = await engine.repoMap({ budget });
        expect(map.tokens).toBeLessThanOrEqual(budget);
        expect(engine.counter.count(map.text)).toBe(map.tokens);
        largest = Math.max(largest, map.files.length);
      }),
      { numRuns: 60, seed: 7 },
    );
    expect(largest).toBeGreaterThan(3);
    const small = await engine.repoMap({ budget: 40 });
    const large = await engine.repoMap({ budget: 4000 });
    const count = (map: typeof small) => map.files.reduce((n, f) => n + f.definitions.length, 0);
    expect(count(large)).toBeGreaterThan(count(small));
    expect(count(large)).toBe(large.definitions);
  });

  it("puts the most used definitions first, as signatures with elisions", async () => {
    const map = await engine.repoMap({ budget: 60 });
    expect(map.files[0]?.path).toBe("src/util/paths.ts");
    expect(map.text).toMatch(
      /^src\/util\/paths.ts:\n│function splitPath\(path: string\): string\[\]\n⋮\n/,
    );
    expect(map.text).not.toContain("return path.split");
  });

  it("ranks around the focus, and names focus entries it cannot find", async () => {
    const map = await engine.repoMap({ budget: 50, focus: ["src/colors.ts", "noSuchThing"] });
    expect(map.files[0]?.path).toBe("src/colors.ts");
    expect(map.unknownFocus).toEqual(["noSuchThing"]);
    const bySymbol = await engine.repoMap({ budget: 30, focus: ["normalize"] });
    expect(bySymbol.files.map((file) => file.path)).toContain("pkg/helpers.py");
  });

  it("lines a decorated or annotated method up with its siblings", async () => {
    const root = gitRepo({
      "src/Shape.java": [
        "public class Shape {",
        "    public Shape() {}",
        "",
        "    @Override",
        '    public String toString() { return "shape"; }',
        "}",
        "",
      ].join("\n"),
      "cache.py": [
        "class Cached:",
        "    @staticmethod",
        "    def make(value):",
        "        return value",
        "",
        "    def __init__(self, value):",
        "        self.value = value",
        "",
      ].join("\n"),
    });
    const decorated = await ContextEngine.open({ start: root, cwd: root });
    try {
      await decorated.index();
      const { text } = await decorated.repoMap({ budget: 400 });
      expect(text).toContain("│  public Shape()\n");
      expect(text).toContain("│  public String toString()");
      expect(text).toContain("│  def make(value):\n");
      expect(text).toContain("│  def __init__(self, value):\n");
    } finally {
      decorated.close();
    }
  });

  it("keeps a signature's later lines where they stand against its first, and leaves C#'s attributes out", async () => {
    const root = gitRepo({
      "src/Pipeline.cs": [
        "namespace Demo;",
        "",
        "public sealed class Pipeline",
        "{",
        '    [Obsolete("use RunAsync")]',
        "    public async Task<int> RunAsync(",
        "        int input,",
        "        CancellationToken token = default)",
        "    {",
        "        return input;",
        "    }",
        "}",
        "",
      ].join("\n"),
      "src/runner.ts": [
        "export class Runner {",
        "  async run(",
        "    input: string,",
        "  ): Promise<string> {",
        "    return input;",
        "  }",
        "}",
        "",
      ].join("\n"),
    });
    const mapped = await ContextEngine.open({ start: root, cwd: root });
    try {
      await mapped.index();
      const { text } = await mapped.repoMap({ budget: 400 });
      expect(text).toContain(
        "│  public async Task<int> RunAsync(\n│      int input,\n│      CancellationToken token = default)\n",
      );
      expect(text).not.toContain("Obsolete");
      expect(text).toContain("│  async run(\n│    input: string,\n│  ): Promise<string>\n");
    } finally {
      mapped.close();
    }
  });

  it("refuses a budget that is not a positive whole number", async () => {
    await expect(engine.repoMap({ budget: 0 })).rejects.toThrow(/positive whole number/);
  });
});
