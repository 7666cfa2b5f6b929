import { describe, expect, it } from "vitest";
import { asksForHistory, asksForOrigin } from "../../src/text/history-question.js";
import { Repo } from "../helpers/git-history.js";
import { indexedEngine } from "../helpers/indexed-engine.js";
import { writeFiles } from "../helpers/temp-dir.js";

const NAMES = [
  "parseInvoice",
  "renderReceipt",
  "computeShipping",
  "applyVoucher",
  "refundOrder",
  "reserveStock",
  "notifyCourier",
  "mergeBaskets",
  "roundCurrency",
  "scheduleDelivery",
  "validateAddress",
  "printLabel",
  "splitPayment",
  "expireSession",
  "throttleLogin",
];
const FILES = ["src/billing.ts", "src/orders.ts", "src/shipping.ts"];
const fileOf = (index: number) => FILES[index % FILES.length] as string;

/**
 * A project of fifteen functions in three files and 520 commits, each tuning
 * one function's constant (and often a neighbour's): the commit that last
 * changed a function is one among hundreds that changed its file.
 */
function busyProject(): { repo: Repo; lastChange: string[] } {
  const repo = new Repo();
  const factors = NAMES.map(() => 1);
  const source = (file: string) =>
    NAMES.flatMap((name, i) =>
      fileOf(i) === file
        ? [
            `export function ${name}(amount: number): number {`,
            `  const factor = ${factors[i]};`,
            `  return Math.round(amount * factor * 100) / 100;`,
            "}",
            "",
          ]
        : [],
    ).join("\n");
  const changedBy: number[] = NAMES.map(() => 0);
  let seed = 11;
  const pick = (n: number) => {
    seed = (seed * 48_271) % 2_147_483_647;
    return seed % n;
  };
  const commits = Array.from({ length: 520 }, (_, c) => {
    const touched = c < NAMES.length ? [c] : [pick(NAMES.length), pick(NAMES.length)];
    for (const i of touched) {
      factors[i] = c + 2;
      changedBy[i] = c;
    }
    const names = touched.map((i) => NAMES[i]).join(" and ");
    return {
      message: `tune ${names} for the ${["spring", "summer", "autumn", "winter"][c % 4]} rates`,
      files: Object.fromEntries(
        [...new Set(touched.map(fileOf))].map((file) => [file, source(file)]),
      ),
    };
  });
  repo.importCommits(commits);
  const shas = repo.git("log", "--reverse", "--format=%H").trim().split("\n");
  return { repo, lastChange: changedBy.map((c) => shas[c] as string) };
}

/**
 * A ledger whose `settleInvoice` changed once after it was written, and eight
 * report files that call it three times each and changed later, for their own
 * reasons: the keyword search for its name finds the callers first.
 */
function calledEverywhere(): { repo: Repo; lastChange: string } {
  const repo = new Repo();
  const ledger = (rounding: string) =>
    [
      "export function settleInvoice(total: number): number {",
      `  return ${rounding};`,
      "}",
      "",
      "export function openLedger(): number[] {",
      "  return [];",
      "}",
      "",
    ].join("\n");
  const report = (n: number, style: string) =>
    [
      `import { settleInvoice } from "./ledger";`,
      "",
      `export function monthlyReport${n}(totals: number[]): string {`,
      `  const first = settleInvoice(totals[0] ?? 0);`,
      `  const last = settleInvoice(totals[totals.length - 1] ?? 0);`,
      `  const sum = totals.map((t) => settleInvoice(t)).reduce((a, b) => a + b, 0);`,
      `  return \`${style} \${first} \${last} \${sum}\`;`,
      "}",
      "",
    ].join("\n");
  const reports = (style: string) =>
    Object.fromEntries(
      Array.from({ length: 8 }, (_, n) => [`src/report${n}.ts`, report(n, style)]),
    );
  repo.importCommits([
    {
      message: "start the ledger",
      files: { "src/ledger.ts": ledger("total"), ...reports("plain") },
    },
    {
      message: "round totals to cents",
      files: { "src/ledger.ts": ledger("Math.round(total * 100) / 100") },
    },
    ...["bold", "italic", "boxed", "tabbed"].map((style) => ({
      message: `print the monthly reports ${style}`,
      files: reports(style),
    })),
  ]);
  const shas = repo.git("log", "--reverse", "--format=%H").trim().split("\n");
  return { repo, lastChange: shas[1] as string };
}

describe("history where a task asks for it", () => {
  it("tells a question about how code came to be from a commit message", () => {
    for (const task of [
      "why was parseInvoice in src/billing.ts changed",
      "Why did we remove the retry cap?",
      "When was the session timeout added?",
      "who changed roundCurrency",
      "what changed in the router since 2.0",
      "which commit broke the label printer",
      "git blame of printLabel",
    ])
      expect([task, asksForHistory(task)]).toEqual([task, true]);
    for (const task of [
      "Fix crash when the body was empty",
      "change the default timeout to 30 seconds",
      "Add AttemptNumber to HedgingPredicateArguments",
      "why does the parser reject empty input",
      "bump version to 2.1",
    ])
      expect([task, asksForHistory(task)]).toEqual([task, false]);
  });

  it("answers why NAME was changed with the commit that last changed it, no strategy named", async () => {
    const { repo, lastChange } = busyProject();
    const engine = await indexedEngine(repo.root);
    let found = 0;
    for (const [i, name] of NAMES.entries()) {
      const answer = await engine.query({
        task: `why was ${name} in ${fileOf(i)} changed`,
        budget: 4000,
      });
      const shas = answer.fragments.flatMap((f) =>
        f.source.kind === "commit" ? [f.source.sha] : [],
      );
      if (shas.includes(lastChange[i] as string)) found++;
    }
    expect(found / NAMES.length).toBeGreaterThanOrEqual(0.8);
    // A task that does not ask for history gets none.
    const plain = await engine.query({
      task: "tune parseInvoice for the winter rates",
      budget: 4000,
    });
    expect(plain.fragments.filter((f) => f.source.kind === "commit")).toEqual([]);
    // Turned off in the settings, it stays off.
    writeFiles(repo.root, {
      "ctx.toml": "[context.strategies.settings.temporal-archaeology]\nenabled = false\n",
    });
    const off = await indexedEngine(repo.root);
    const asked = await off.query({ task: "why was parseInvoice changed", budget: 4000 });
    expect(asked.fragments.filter((f) => f.source.kind === "commit")).toEqual([]);
  }, 120_000);

  it("shows the hunk that changed the named definition, not the commit's first ones", async () => {
    const repo = new Repo();
    // A table of 60 rates above `applyRates`, all rewritten by the commit that also
    // changed `applyRates`: the diff's first hunk, and its first 40 lines, are the table's.
    const source = (rate: number, rounding: string) =>
      [
        ...Array.from({ length: 60 }, (_, i) => `export const RATE_${i} = ${rate + i};`),
        ...Array.from({ length: 10 }, (_, i) => `export const FIXED_${i} = ${i};`),
        "",
        "export function applyRates(total: number): number {",
        `  return ${rounding};`,
        "}",
        "",
      ].join("\n");
    repo.importCommits([
      { message: "start the rates", files: { "src/rates.ts": source(1, "total") } },
      {
        message: "new rates, rounded to cents",
        files: { "src/rates.ts": source(2, "Math.round(total * 100) / 100") },
      },
    ]);
    const engine = await indexedEngine(repo.root);
    const answer = await engine.query({
      task: "why was applyRates in src/rates.ts changed",
      budget: 4000,
    });
    const commit = answer.fragments.find((f) => f.source.kind === "commit");
    expect(commit?.content).toContain("+  return Math.round(total * 100) / 100;");
  }, 60_000);

  it("answers with the named definition's last change, not its callers' newer ones", async () => {
    const { repo, lastChange } = calledEverywhere();
    const engine = await indexedEngine(repo.root);
    for (const task of [
      "why was settleInvoice in src/ledger.ts changed",
      "why was settleInvoice changed",
    ]) {
      const answer = await engine.query({ task, budget: 4000 });
      const commits = answer.fragments.filter((f) => f.source.kind === "commit");
      const first = commits[0];
      expect([task, first?.source.kind === "commit" && first.source.sha]).toEqual([
        task,
        lastChange,
      ]);
      // --explain says why: it is the named definition's last change.
      expect(first?.ranking).toContain("the last change to settleInvoice (src/ledger.ts:1-3)");
    }
  }, 60_000);

  it("puts each same-named definition's last change before older changes to several of them", async () => {
    const repo = new Repo();
    // Three `area` methods in one file, each computing a value and returning it: an
    // old commit tidied every value, and each method's return was changed once since.
    // Added up, the old commit's three older changes outweighed each method's last one.
    const method = (value: string, result: string) => [
      "  area(): number {",
      `    const value = ${value};`,
      `    return ${result};`,
      "  }",
    ];
    const shapes = (values: string[], results: string[]) =>
      ["Circle", "Square", "Triangle"]
        .flatMap((name, i) => [
          `export class ${name} {`,
          ...method(values[i] as string, results[i] as string),
          "}",
        ])
        .join("\n");
    const start = ["3.14 * r ** 2", "side ** 2", "b * h"];
    const tidy = ["Math.PI * r ** 2", "side * side", "(b * h) / 2"];
    const cents = "Math.round(value * 100) / 100";
    repo.importCommits([
      {
        message: "start the shapes",
        files: { "src/shapes.ts": shapes(start, ["value", "value", "value"]) },
      },
      {
        message: "tidy every area",
        files: { "src/shapes.ts": shapes(tidy, ["value", "value", "value"]) },
      },
      {
        message: "round the square's area to cents",
        files: { "src/shapes.ts": shapes(tidy, ["value", cents, "value"]) },
      },
      {
        message: "round the triangle's area to cents",
        files: { "src/shapes.ts": shapes(tidy, ["value", cents, cents]) },
      },
      {
        message: "round the circle's area to cents",
        files: { "src/shapes.ts": shapes(tidy, [cents, cents, cents]) },
      },
    ]);
    const shas = repo.git("log", "--format=%H").trim().split("\n");
    const engine = await indexedEngine(repo.root);
    const answer = await engine.query({
      task: "why was area in src/shapes.ts changed",
      budget: 4000,
    });
    const commits = answer.fragments.flatMap((f) => (f.source.kind === "commit" ? [f] : []));
    // The three last changes first (their support is alike); the tidying after them, if at all.
    const order = commits.map((f) => (f.source.kind === "commit" ? f.source.sha : ""));
    expect(order.slice(0, 3).sort()).toEqual(shas.slice(0, 3).sort());
    const circleLast = commits.find((f) => f.source.kind === "commit" && f.source.sha === shas[0]);
    expect(circleLast?.ranking).toContain("the last change to area (src/shapes.ts:2-5)");
  }, 60_000);

  it("answers when NAME was added with the commit that wrote it, through a rename", async () => {
    expect(asksForOrigin("when was applyDiscount added?")).toBe(true);
    expect(asksForOrigin("which commit introduced applyDiscount")).toBe(true);
    expect(asksForOrigin("why was applyDiscount changed")).toBe(false);
    expect(asksForOrigin("add a discount for members")).toBe(false);
    expect(asksForOrigin("when did we add the discount?")).toBe(true);
    // A name is not a word of the question.
    expect(asksForOrigin("why was created in models.py changed", ["created"])).toBe(false);
    const repo = new Repo();
    // Every line of `applyDiscount` changed after the commit that wrote it, and its
    // file was renamed: blame no longer shows that commit at all.
    const pricing = (rate: number, body: string) =>
      [
        `export const RATE = ${rate};`,
        "",
        "export function applyDiscount(total: number): number {",
        `  ${body}`,
        "}",
        "",
      ].join("\n");
    repo.importCommits([
      { message: "start pricing", files: { "src/price.ts": `export const RATE = 1;\n` } },
      {
        message: "give members a discount",
        files: { "src/price.ts": pricing(1, "return total * 0.9;") },
      },
      ...Array.from({ length: 6 }, (_, i) => ({
        message: `tune the rate, step ${i}`,
        files: { "src/price.ts": pricing(i + 2, "return total * 0.9;") },
      })),
    ]);
    repo.importCommits([
      {
        message: "pricing.ts is the file's name",
        rename: ["src/price.ts", "src/pricing.ts"],
        files: {},
      },
      {
        message: "round discounts to cents",
        files: {
          "src/pricing.ts": [
            "export const RATE = 7;",
            "",
            "export function applyDiscount(amount: number): number {",
            "  return Math.round(amount * 90) / 100;",
            "}",
            "",
          ].join("\n"),
        },
      },
    ]);
    const added = repo.git("log", "--format=%H", "--grep=give members").trim();
    const engine = await indexedEngine(repo.root);
    const answer = await engine.query({ task: "when was applyDiscount added?", budget: 4000 });
    const first = answer.fragments.find((f) => f.source.kind === "commit");
    expect(first?.source.kind === "commit" && first.source.sha).toBe(added);
    expect(first?.ranking).toContain("the commit that added applyDiscount to src/pricing.ts");
    expect(first?.content).toContain("+export function applyDiscount(total: number): number {");
  }, 60_000);
});
