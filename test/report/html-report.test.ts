import { execFileSync } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitRepo, writeFiles } from "../helpers/temp-dir.js";

const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
/** Screenshots are kept here as test artifacts (ignored by git). */
const ARTIFACTS = fileURLToPath(new URL("../../test-artifacts", import.meta.url));
const CHROMIUM = process.env.CTX_CHROMIUM ?? "/usr/bin/chromium";

type Browser = import("playwright-core").Browser;

function ctx(cwd: string, ...args: string[]): string {
  return execFileSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: cwd, XDG_CONFIG_HOME: cwd },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

// Chromium comes from Debian (`.ci/run` installs it): in CI its absence is a failure, not a skip.
const haveChromium = existsSync(CHROMIUM);
if (process.env.CI && !haveChromium) {
  throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium for these tests`);
}

describe.skipIf(!haveChromium)("the HTML report in headless Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it("shows the budget bar, one row per candidate with reasons for those left out, and loads nothing", async () => {
    const files: Record<string, string> = { "README.md": "# Ledger\n\nBalances.\n" };
    for (let i = 0; i < 30; i++) {
      files[`src/ledger${i}.ts`] =
        `/** Posts an entry to ledger ${i}. */\nexport function postLedgerEntry${i}(amount: number): number {\n  const balance = amount * ${i};\n  return balance + ${i};\n}\n`;
    }
    const root = gitRepo(files);
    writeFiles(root, { "src/copy.ts": files["src/ledger3.ts"] as string });
    ctx(root, "index");
    const reportFile = join(root, "report.html");
    ctx(root, "query", "post ledger entry balance", "--budget", "400", "--report", reportFile);
    const html = readFileSync(reportFile, "utf8");

    const page = await browser.newPage();
    const requests: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith("file:")) requests.push(request.url());
    });
    await page.goto(`file://${reportFile}`);

    const bar = page.locator("#budget-bar");
    expect(await bar.getAttribute("data-budget")).toBe("400");
    const segments = bar.locator(".seg");
    expect(await segments.count()).toBeGreaterThan(0);
    const strategies = await segments.evaluateAll((nodes) =>
      nodes.map((node) => ({
        name: node.getAttribute("data-strategy"),
        allocated: Number(node.getAttribute("data-allocated")),
        used: Number(node.getAttribute("data-used")),
        givenBack: Number(node.getAttribute("data-given-back")),
        width: node.getBoundingClientRect().width,
      })),
    );
    expect(strategies.map((segment) => segment.name)).toContain("simple-keyword");
    for (const segment of strategies) {
      expect(segment.givenBack).toBe(Math.max(0, segment.allocated - segment.used));
      expect(segment.width).toBeGreaterThan(0);
    }

    // One row per candidate: the query's JSON record names them all.
    const record = JSON.parse(ctx(root, "report", "--json")) as {
      trace: { id: string; outcome: string; reason: string }[];
    };
    const rows = page.locator("#candidates tr.candidate");
    expect(await rows.count()).toBe(record.trace.length);
    const outcomes = await rows.evaluateAll((nodes) =>
      nodes.map((node) => ({
        outcome: node.getAttribute("data-outcome"),
        reason: node.querySelector(".reason")?.textContent ?? "",
      })),
    );
    expect(outcomes.filter((row) => row.outcome === "included").length).toBeGreaterThan(0);
    expect(outcomes.some((row) => row.outcome === "over-budget")).toBe(true);
    expect(outcomes.some((row) => row.outcome === "duplicate")).toBe(true);
    for (const row of outcomes.filter((r) => r.outcome !== "included")) {
      expect(row.reason.length).toBeGreaterThan(0);
    }
    expect(await page.locator("#context").textContent()).toContain(
      "# Context for: post ledger entry balance",
    );
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
    expect(requests).toEqual([]);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "request-report.png"), fullPage: true });
    expect(existsSync(join(ARTIFACTS, "request-report.png"))).toBe(true);
    await page.close();
  }, 60_000);

  it("ctx eval --html charts each strategy's metrics and lists the queries each one missed", async () => {
    const root = gitRepo({ "README.md": "# Eval\n" });
    // beir-mini, plus a query no strategy can answer: its relevant unit shares no word with it.
    const mini = join(root, "beir");
    cpSync(fileURLToPath(new URL("../fixtures/beir-mini", import.meta.url)), mini, {
      recursive: true,
    });
    appendFileSync(
      join(mini, "queries.jsonl"),
      '{"_id": "q9", "text": "retry exponential pool"}\n',
    );
    appendFileSync(join(mini, "qrels/test.tsv"), "q9\tu3\t1\n");
    const reportFile = join(root, "eval.html");
    ctx(
      root,
      "eval",
      mini,
      "-k",
      "1",
      "--strategy",
      "simple-keyword",
      "--strategy",
      "breadth-depth-navigator",
      "--html",
      reportFile,
    );
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith("file:")) requests.push(request.url());
    });
    await page.goto(`file://${reportFile}`);
    const rankings = await page
      .locator("#metrics tbody tr")
      .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-strategy")));
    expect(rankings).toEqual([
      "simple-keyword+breadth-depth-navigator",
      "simple-keyword",
      "breadth-depth-navigator",
    ]);
    // Every ranking has a bar for each metric: Pass@1, nDCG@10, MRR@10.
    const bars = page.locator("#chart .chart-row");
    expect(await bars.count()).toBe(3 * 3);
    const pass1 = await page
      .locator('#chart .chart-row[data-metric="Pass@1"]')
      .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute("data-value"))));
    expect(pass1.every((value) => value >= 0 && value <= 100)).toBe(true);
    // Each ranking's missed queries are those it scored 0 on at k = 1.
    const missedCounts = await page
      .locator("details.missed")
      .evaluateAll((nodes) => nodes.map((node) => node.querySelectorAll("tr.missed-query").length));
    const summaryRows = await page
      .locator("#metrics tbody tr td:nth-last-child(2)")
      .evaluateAll((cells) => cells.map((cell) => Number(cell.textContent)));
    expect(missedCounts).toEqual(summaryRows);
    expect(missedCounts[0]).toBeGreaterThan(0);
    const missedText = await page.locator("details.missed").first().textContent();
    expect(missedText).toContain("q9");
    expect(missedText).toContain("retry exponential pool");
    expect(requests).toEqual([]);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "eval-report.png"), fullPage: true });
    await page.close();
  }, 60_000);
});
