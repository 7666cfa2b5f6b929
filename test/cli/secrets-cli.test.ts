import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeSecrets, leakedSlices } from "../helpers/fake-secrets.js";
import { LlmServer } from "../helpers/llm-server.js";
import { indexedMcpClient } from "../helpers/mcp-client.js";
import { runCliAsync } from "../helpers/run-cli.js";
import { gitRepo, tempDir, writeFiles } from "../helpers/temp-dir.js";

/**
 * A repository with 13 planted secrets, in files named for secrets and in
 * ordinary source, README and AGENTS.md; a model, an embedder and a reranker
 * configured in the user's own config against a local server that records
 * every request. Nothing of a secret may reach an answer, a request, a
 * read_fragment or a request log.
 */
const fake = new FakeSecrets(2026);
const pem = fake.privateKey("RSA PRIVATE KEY");
const pkcs8 = fake.privateKey("PRIVATE KEY");
const openssh = fake.privateKey("OPENSSH PRIVATE KEY");
const gcp = fake.serviceAccount();
/** A key's secret is its body: the BEGIN and END lines say only what it is. */
const bodyOf = (key: string) => key.split("\n").slice(1, -1).join("\n");

const SECRETS = {
  awsKeyId: fake.awsKeyId(),
  awsSecret: fake.awsSecret(),
  github: fake.githubToken(),
  slack: fake.slackToken(),
  stripe: fake.stripeKey("sk_live"),
  openai: fake.openAiKey(),
  npm: fake.npmToken(),
  dbUrlPassword: fake.password(),
  dbPassword: fake.password(),
  pem: bodyOf(pem),
  pkcs8: bodyOf(pkcs8),
  openssh: bodyOf(openssh),
  gcp: `${bodyOf(gcp.privateKey.trimEnd())}\n${gcp.privateKeyId}`,
};

const FILES: Record<string, string> = {
  "src/aws_client.py": [
    '"""Uploads invoices to the billing bucket."""',
    "import boto3",
    "",
    `AWS_ACCESS_KEY_ID = "${SECRETS.awsKeyId}"`,
    `AWS_SECRET_ACCESS_KEY = "${SECRETS.awsSecret}"`,
    "",
    "def upload_invoice(path):",
    "    client = boto3.client('s3', aws_access_key_id=AWS_ACCESS_KEY_ID,",
    "                          aws_secret_access_key=AWS_SECRET_ACCESS_KEY)",
    "    client.upload_file(path, 'billing-invoices', path)",
  ].join("\n"),
  "scripts/release.sh": [
    "#!/bin/sh",
    "# Publishes a release of the billing service to GitHub.",
    `export GITHUB_TOKEN=${SECRETS.github}`,
    'gh release create "$1" --notes "billing release"',
  ].join("\n"),
  "src/notify.ts": [
    "/** Posts billing alerts to the team's Slack channel. */",
    `const SLACK_BOT_TOKEN = "${SECRETS.slack}";`,
    "export async function notifyBillingAlert(text: string): Promise<void> {",
    '  await fetch("https://slack.com/api/chat.postMessage", {',
    '    method: "POST",',
    '    headers: { authorization: "Bearer " + SLACK_BOT_TOKEN },',
    '    body: JSON.stringify({ channel: "#billing", text }),',
    "  });",
    "}",
  ].join("\n"),
  "AGENTS.md": [
    "# Working on the billing service",
    "",
    "Run `npm test` before every commit. Charge tests run against Stripe with",
    `the live key ${SECRETS.stripe}; never print it.`,
  ].join("\n"),
  "CLAUDE.md": "# Notes for agents\n\nThe billing service charges invoices through Stripe.\n",
  "README.md": [
    "# Billing service",
    "",
    "Charges invoices and summarises them with a language model.",
    "",
    `Set OPENAI_API_KEY=${SECRETS.openai} to try the summaries locally.`,
  ].join("\n"),
  ".npmrc": `//registry.npmjs.org/:_authToken=${SECRETS.npm}\n`,
  "src/db.go": [
    "package billing",
    "",
    "// Opens the billing database.",
    `const billingDatabaseURL = "postgres://billing:${SECRETS.dbUrlPassword}@db.prod.example.net:5432/billing"`,
    "",
    "func OpenBillingDatabase() (*sql.DB, error) {",
    '\treturn sql.Open("postgres", billingDatabaseURL)',
    "}",
  ].join("\n"),
  ".env.production": `DB_HOST=db.prod.example.net\nDB_PASSWORD=${SECRETS.dbPassword}\n`,
  "deploy/server.pem": `${pem}\n`,
  "src/tls.ts": [
    "/** The TLS key the billing API serves with. */",
    "export const BILLING_TLS_KEY = `",
    pkcs8,
    "`;",
    "export function billingTlsOptions() {",
    "  return { key: BILLING_TLS_KEY };",
    "}",
  ].join("\n"),
  id_rsa: `${openssh}\n`,
  "credentials.json": gcp.json,
  // Ordinary files around the same subjects, which the answers should be made of.
  "src/invoices.py": [
    '"""Invoices of the billing service."""',
    "",
    "def charge_invoice(invoice, stripe_client):",
    '    """Charges an invoice through Stripe and uploads it to the billing bucket."""',
    "    stripe_client.charge(invoice.total)",
    "    return invoice",
  ].join("\n"),
  "src/summary.ts": [
    "/** Summarises invoices with a language model (OpenAI) for the billing report. */",
    "export function summariseInvoices(lines: string[]): string {",
    '  return lines.join("\\n");',
    "}",
  ].join("\n"),
};

const SECRET_FILES = [
  ".env.production",
  ".npmrc",
  "AGENTS.md",
  "README.md",
  "credentials.json",
  "deploy/server.pem",
  "id_rsa",
  "scripts/release.sh",
  "src/aws_client.py",
  "src/db.go",
  "src/notify.ts",
  "src/tls.ts",
];

/** Tasks about each secret's surroundings. */
const TASKS = [
  "upload invoice to the billing bucket with boto3 aws credentials",
  "publish a github release of the billing service token",
  "post billing alerts to slack with the bot token",
  "stripe live key for charge tests",
  "openai api key for invoice summaries",
  "npm registry auth token",
  "open the billing database postgres url password",
  "billing tls key options private key",
  "ssh deploy key id_rsa",
  "gcp service account private key credentials",
];
const FORMATS = ["markdown", "xml", "json"];

let server: LlmServer;
let root: string;
let env: NodeJS.ProcessEnv;

/** Every secret (or 12-character slice of one) found in the text, by name. */
function leaks(text: string): string[] {
  const found: string[] = [];
  for (const [name, secret] of Object.entries(SECRETS)) {
    if (leakedSlices(secret, text, 12).length > 0) found.push(name);
  }
  return found;
}

/** A request body as sent, and every string in it decoded (JSON escapes a key's newlines). */
function requestTexts(): string[] {
  return server.requests.flatMap((request) => [request.body, ...stringsIn(request.json)]);
}

function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === "object") return Object.values(value).flatMap(stringsIn);
  return [];
}

function modeOf(path: string): number {
  return statSync(path).mode & 0o777;
}

beforeAll(async () => {
  server = await LlmServer.start();
  root = gitRepo(FILES);
  const config = tempDir("ctx-user-config-");
  writeFiles(config, {
    "ctx/config.toml": [
      "[contextualize]",
      'generator = "openai-compatible"',
      `base_url = "${server.url}/v1"`,
      "retry_base_seconds = 0.01",
      "max_retries = 1",
      "[embeddings]",
      'provider = "openai-compatible"',
      'model = "test-embed"',
      `base_url = "${server.url}/v1"`,
      "[rerank]",
      'provider = "openai-compatible"',
      `base_url = "${server.url}/v1"`,
      'api_key_env = "OPENAI_API_KEY"',
      "",
    ].join("\n"),
  });
  env = { XDG_CONFIG_HOME: config, OPENAI_API_KEY: "test-key" };
});

afterAll(async () => {
  await server.close();
});

describe("a repository with 13 planted secrets", () => {
  it("indexes none of the files that hold them, names them, and sends none to the model", async () => {
    const indexed = await runCliAsync(["index"], root, env);
    expect(indexed.code, indexed.stderr).toBe(0);
    expect(indexed.stdout).toMatch(/Skipped: .*secret 12\b/);
    expect(indexed.stdout).toContain("Not indexed, holding secrets:");
    // A short list: the first ten by name, then how many more.
    for (const file of SECRET_FILES.slice(0, 10)) expect(indexed.stdout).toContain(file);
    expect(indexed.stdout).toContain("and 2 more (ctx status --json lists them)");
    expect(indexed.stdout).toMatch(/src\/aws_client\.py \(AWS access key id on line 4\)/);
    expect(indexed.stdout).toMatch(/Contexts: openai-compatible/);
    expect(indexed.stdout).toMatch(/\d+ generated, 0 failed/);
    expect(server.requests.some((request) => request.path === "/v1/chat/completions")).toBe(true);
    expect(server.requests.some((request) => request.path === "/v1/embeddings")).toBe(true);

    const status = await runCliAsync(["status"], root, env);
    expect(status.stdout).toMatch(/skipped: .*secret 12\b/);
    const json = JSON.parse((await runCliAsync(["status", "--json"], root, env)).stdout) as {
      resources: { secretFiles: { path: string; found: string }[] }[];
      tiers: { hot: string[] };
    };
    expect(json.resources[0]?.secretFiles.map((file) => file.path)).toEqual(SECRET_FILES);
    // AGENTS.md holds the Stripe key: the hot tier offers CLAUDE.md alone.
    expect(json.tiers.hot).toEqual(["CLAUDE.md"]);
  });

  it("answers every task, in every format, without a secret, and logs none", async () => {
    // Each task once, the formats in turn; and once through the reranker.
    const runs = TASKS.map((task, index) => [
      "query",
      task,
      "--format",
      FORMATS[index % FORMATS.length] as string,
      "--budget",
      "4000",
    ]);
    runs.push(["query", TASKS[0] as string, "--strategy", "arce", "--format", "json"]);
    const answers: string[] = [];
    // Four at a time: each is a process of its own.
    for (let start = 0; start < runs.length; start += 4) {
      const batch = await Promise.all(
        runs.slice(start, start + 4).map((args) => runCliAsync(args, root, env)),
      );
      for (const result of batch) {
        expect(result.code, result.stderr).toBe(0);
        answers.push(result.stdout);
      }
    }
    const all = answers.join("\n");
    // The answers are made of the ordinary files (and the hot tier's CLAUDE.md).
    expect(all).toContain("src/invoices.py");
    expect(all).toContain("CLAUDE.md");
    expect(leaks(all)).toEqual([]);
    for (const file of SECRET_FILES) expect(all).not.toContain(`${file}:`);
    expect(server.requests.some((request) => request.path === "/v1/rerank")).toBe(true);
    expect(requestTexts().flatMap(leaks)).toEqual([]);

    const logs = join(root, ".ctx", "index-requests");
    const logged = readdirSync(logs).filter((name) => name.endsWith(".json"));
    expect(logged.length).toBeGreaterThan(0);
    expect(leaks(logged.map((name) => readFileSync(join(logs, name), "utf8")).join("\n"))).toEqual(
      [],
    );
  });

  it("serves none over MCP: get_context, read_fragment and the pinned resources", async () => {
    const { client, close } = await indexedMcpClient(root);
    try {
      const call = async (name: string, args: Record<string, unknown>) =>
        (await client.callTool({ name, arguments: args })) as CallToolResult;
      const texts: string[] = [];
      for (const task of TASKS) {
        const result = await call("get_context", { task, budget_tokens: 4000 });
        texts.push(...result.content.map((part) => (part.type === "text" ? part.text : "")));
      }
      for (const path of SECRET_FILES) {
        const result = await call("read_fragment", { path });
        const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join();
        expect(result.isError, path).toBe(true);
        expect(text).toMatch(/is not served: it holds secrets/);
        texts.push(text);
      }
      const ordinary = await call("read_fragment", { path: "src/invoices.py" });
      expect(ordinary.isError).toBeFalsy();
      const { resources } = await client.listResources();
      const pinned = resources.filter((resource) => resource.uri.startsWith("ctx://pinned/"));
      // README.md holds the OpenAI key, AGENTS.md the Stripe key.
      expect(pinned.map((resource) => resource.name)).toEqual(["CLAUDE.md"]);
      expect(leaks(texts.join("\n"))).toEqual([]);
    } finally {
      await close();
    }
  });

  it("keeps the index and what is written beside it to the user", async () => {
    const report = join(tempDir("ctx-report-"), "request.html");
    const result = await runCliAsync(
      ["query", "charge an invoice", "--report", report, "--no-refresh"],
      root,
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(modeOf(join(root, ".ctx"))).toBe(0o700);
    expect(modeOf(join(root, ".ctx", "index.db"))).toBe(0o600);
    const logs = join(root, ".ctx", "index-requests");
    expect(modeOf(logs)).toBe(0o700);
    const log = readdirSync(logs).find((name) => name.endsWith(".json")) as string;
    expect(modeOf(join(logs, log))).toBe(0o600);
    expect(modeOf(report)).toBe(0o600);
  });
});
