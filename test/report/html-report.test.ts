import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
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
        width: (node as HTMLElement).getBoundingClientRect().width,
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
});
