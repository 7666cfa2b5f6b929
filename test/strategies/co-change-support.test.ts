import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Repo } from "../helpers/git-history.js";
import { indexedEngine } from "../helpers/indexed-engine.js";

/** a.ts answers the task; b.ts always changes with it; c.ts matches the words better than b.ts but changes alone. */
function repository(): Repo {
  const repo = new Repo();
  const a = (n: number) =>
    `export function invoiceTotal(lines: number[]): number {\n  // invoice total, version ${n}\n  return lines.reduce((sum, x) => sum + x, ${n});\n}\n`;
  const b = (n: number) =>
    `export function roundCents(value: number): number {\n  // the total is rounded, ${n}\n  return Math.round(value * 100) / 100 + ${n} * 0;\n}\n`;
  const c = (n: number) =>
    `export function logTotal(total: number): void {\n  console.log(total, ${n});\n}\n`;
  // Files without the task's words, so that its words weigh something.
  const others = Object.fromEntries(
    ["parse", "render", "fetch", "store", "route", "theme"].map((name) => [
      `src/${name}.ts`,
      `export function ${name}Thing(input: string): string {\n  return input.trim();\n}\n`,
    ]),
  );
  repo.commit("start", { "src/a.ts": a(0), "src/b.ts": b(0), "src/c.ts": c(0), ...others });
  for (let n = 1; n <= 6; n++)
    repo.commit(`invoice change ${n}`, { "src/a.ts": a(n), "src/b.ts": b(n) });
  for (let n = 1; n <= 6; n++) repo.commit(`log change ${n}`, { "src/c.ts": c(n) });
  return repo;
}

async function order(root: string): Promise<string[]> {
  const engine = await indexedEngine(root);
  const result = await engine.query({
    task: "invoice total",
    budget: 4000,
    strategies: ["breadth-depth-navigator"],
  });
  return result.fragments.flatMap((f) => (f.source.kind === "file" ? [f.source.path] : []));
}

describe("co-change support in breadth-depth-navigator", () => {
  it("moves up the files that change together with the best hits", async () => {
    const withHistory = await order(repository().root);
    expect(withHistory[0]).toBe("src/a.ts");
    expect(withHistory.indexOf("src/b.ts")).toBeLessThan(withHistory.indexOf("src/c.ts"));

    const repo = repository();
    writeFileSync(join(repo.root, "ctx.toml"), "[history]\nenabled = false\n");
    const without = await order(repo.root);
    expect(without.indexOf("src/c.ts")).toBeLessThan(without.indexOf("src/b.ts"));
  });

  it("brings in files that change with the best hits' files when none of their words are the task's", async () => {
    const build = () => {
      const repo = new Repo();
      const a = (n: number) =>
        `export function invoiceTotal(lines: number[]): number {\n  // invoice total, version ${n}\n  return lines.reduce((sum, x) => sum + x, ${n});\n}\n`;
      const d = (n: number) =>
        `export function formatCurrency(value: number): string {\n  return value.toFixed(2) + " EUR" + "${"".padEnd(n, " ")}";\n}\n`;
      const others = Object.fromEntries(
        ["parse", "render", "fetch", "store", "route", "theme"].map((name) => [
          `src/${name}.ts`,
          `export function ${name}Thing(input: string): string {\n  return input.trim();\n}\n`,
        ]),
      );
      repo.commit("start", { "src/a.ts": a(0), "src/d.ts": d(0), ...others });
      for (let n = 1; n <= 6; n++)
        repo.commit(`billing change ${n}`, { "src/a.ts": a(n), "src/d.ts": d(n) });
      return repo;
    };
    const withHistory = await order(build().root);
    expect(withHistory[0]).toBe("src/a.ts");
    expect(withHistory).toContain("src/d.ts");

    const repo = build();
    writeFileSync(join(repo.root, "ctx.toml"), "[history]\nenabled = false\n");
    expect(await order(repo.root)).not.toContain("src/d.ts");

    // One commit is no pattern: in a repository of one commit every file changed with every other.
    const once = new Repo();
    once.commit("start", {
      "src/a.ts":
        "export function invoiceTotal(lines: number[]): number {\n  return lines.length;\n}\n",
      "src/d.ts":
        "export function formatCurrency(value: number): string {\n  return String(value);\n}\n",
    });
    expect(await order(once.root)).not.toContain("src/d.ts");
  });
});
