import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Repo } from "../helpers/git-history.js";
import { indexedEngine } from "../helpers/indexed-engine.js";

/**
 * adjust.ts is where discounts are made, which only its commits' messages
 * say; format.ts has more of the task's words in its text.
 */
function repository(): Repo {
  const repo = new Repo();
  const pricing = (n: number) =>
    `export function adjust(price: number, rate: number): number {\n  return price * (1 - rate) - ${n};\n}\n`;
  const format = (n: number) =>
    `export function label(price: number): string {\n  // the price, as a price label (${n})\n  return "$" + price.toFixed(2);\n}\n`;
  const others = Object.fromEntries(
    ["parse", "render", "fetch", "store", "route", "theme"].map((name) => [
      `src/${name}.ts`,
      `export function ${name}Thing(input: string): string {\n  return input.trim();\n}\n`,
    ]),
  );
  repo.commit("start", { "src/adjust.ts": pricing(0), "src/format.ts": format(0), ...others });
  for (let n = 1; n <= 4; n++) {
    repo.commit(`Seasonal discount for loyal customers, step ${n}`, {
      "src/adjust.ts": pricing(n),
    });
    repo.commit(`Thousands separators in labels, step ${n}`, { "src/format.ts": format(n) });
  }
  return repo;
}

async function order(root: string): Promise<{ path: string; ranking: string[] }[]> {
  const engine = await indexedEngine(root);
  const result = await engine.query({
    task: "a bigger discount on the price for loyal customers",
    budget: 4000,
    format: "json",
    explain: true,
    strategies: ["breadth-depth-navigator"],
  });
  return (JSON.parse(result.output) as { fragments: { path: string; ranking: string[] }[] })
    .fragments;
}

describe("commit-message support in breadth-depth-navigator", () => {
  it("moves up the files that past commits with messages like the task changed", async () => {
    const withHistory = await order(repository().root);
    expect(withHistory.slice(0, 2).map((f) => f.path)).toEqual(["src/adjust.ts", "src/format.ts"]);
    expect(withHistory[0]?.ranking).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^changed by past commits worded like the task \+\d+\.\d\d: "Seasonal discount for loyal customers, step \d", "Seasonal/,
        ),
      ]),
    );
    const repo = repository();
    writeFileSync(join(repo.root, "ctx.toml"), "[history]\nenabled = false\n");
    const without = await order(repo.root);
    expect(without.slice(0, 2).map((f) => f.path)).toEqual(["src/format.ts", "src/adjust.ts"]);
  });

  it("adds the files such commits changed that no keyword search finds, under --path only", async () => {
    // throttle.ts shares no word with the task; only its commits say what it is for.
    const repo = new Repo();
    const throttle = (n: number) =>
      `export function allowCall(calls: number): boolean {\n  return calls < ${100 + n};\n}\n`;
    const others = Object.fromEntries(
      ["users", "orders", "search", "health"].map((name) => [
        `src/${name}.ts`,
        `// the public API: ${name}\nexport function ${name}Endpoint(request: Request): Response {\n  return new Response("${name}");\n}\n`,
      ]),
    );
    repo.commit("start", { "lib/throttle.ts": throttle(0), ...others });
    for (let n = 1; n <= 3; n++) {
      repo.commit(`Rate limiting for the public API, step ${n}`, {
        "lib/throttle.ts": throttle(n),
      });
    }
    const engine = await indexedEngine(repo.root);
    const paths = async (options: { paths?: string[] } = {}) => {
      const result = await engine.query({
        task: "raise the rate limiting of the public API",
        budget: 4000,
        format: "json",
        explain: true,
        strategies: ["breadth-depth-navigator"],
        ...options,
      });
      return (JSON.parse(result.output) as { fragments: { path: string; ranking?: string[] }[] })
        .fragments;
    };
    const fragments = await paths();
    const told = fragments.find((fragment) => fragment.path === "lib/throttle.ts");
    expect(told?.ranking).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^changed by past commits worded like the task .*Rate limiting/),
      ]),
    );
    expect(await engine.search("rate limiting public api", 20)).not.toEqual(
      expect.arrayContaining([
        expect.objectContaining({ chunk: expect.objectContaining({ path: "lib/throttle.ts" }) }),
      ]),
    );
    const underSrc = await paths({ paths: ["src/"] });
    expect(underSrc.map((fragment) => fragment.path)).not.toContain("lib/throttle.ts");
    expect(underSrc.length).toBeGreaterThan(0);
  });
});
