import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import {
  findCertainSecret,
  findCertainSecretNow,
  needsSecretlint,
  secretlintRanges,
} from "../../src/secrets/find-secrets.js";
import { isSecretFile } from "../../src/secrets/secret-files.js";
import { FakeSecrets } from "../helpers/fake-secrets.js";

const fake = new FakeSecrets(11);

describe("files that hold secrets by their name", () => {
  it("are environment files, keys, registry and cloud credentials", () => {
    for (const path of [
      ".env",
      ".env.production",
      "config/.env.local",
      ".envrc",
      "id_rsa",
      "home/.ssh/id_ed25519",
      "certs/server.pem",
      "tls/server.key",
      "signing.p12",
      ".npmrc",
      ".pypirc",
      ".netrc",
      ".git-credentials",
      "credentials.json",
      "config/secrets.yml",
      "client_secret_1234.apps.json",
      "deploy/service-account.json",
      ".aws/credentials",
      ".docker/config.json",
      ".kube/config",
      "infra/terraform.tfstate",
    ]) {
      expect(isSecretFile(path), path).toBe(true);
    }
  });

  it("are not source files that merely mention them", () => {
    for (const path of [
      "src/env.ts",
      "src/environment.py",
      "docs/credentials.md",
      "src/id_utils.py",
      "keys.go",
      "src/secret-files.ts",
      "README.md",
      "sig/jq-1.8.2.tar.gz.asc",
    ]) {
      expect(isSecretFile(path), path).toBe(false);
    }
  });
});

describe("which secrets keep a file out of the index", () => {
  const real = {
    "AWS access key id": `const id = "${fake.awsKeyId()}";`,
    "AWS secret access key": `aws_secret_access_key = ${fake.awsSecret()}`,
    "GitHub token": `token = "${fake.githubToken()}"`,
    "Slack token": `SLACK=${fake.slackToken()}`,
    "Slack webhook": `url = "${fake.slackWebhook()}"`,
    "Stripe key": `Stripe.apiKey = "${fake.stripeKey()}";`,
    "OpenAI key": `OPENAI_API_KEY=${fake.openAiKey()}`,
    "npm token": `NPM_TOKEN=${fake.npmToken()}`,
    "database password": `DSN = "postgres://billing:${fake.password()}@db.prod.example.net/billing"`,
    "private key": fake.privateKey("RSA PRIVATE KEY"),
    "OpenSSH key": fake.privateKey("OPENSSH PRIVATE KEY"),
    "service account": fake.serviceAccount().json,
  };

  for (const [name, text] of Object.entries(real)) {
    it(`a real-looking ${name}`, async () => {
      expect(await findCertainSecret(text, "src/config.ts")).not.toBeNull();
      // Serving checks without secretlint, and must agree.
      expect(findCertainSecretNow(text)).not.toBeNull();
    });
  }

  it("not documentation's example keys, placeholders, or test databases on this machine", async () => {
    const placeholders = [
      "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
      "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      'token = "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"',
      "SLACK_BOT_TOKEN=xoxb-your-bot-token-here",
      'stripe.api_key = "sk_test_4eC39HqLyjWDarjtT1zdp7dc"',
      "DATABASE_URL=postgres://postgres:postgres@localhost:5432/app_test",
      "DATABASE_URL=postgres://app:ctx-test@127.0.0.1:55432/app",
      "REDIS_URL=redis://default:$REDIS_PASSWORD@cache:6379",
      "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
      'password = "changeme"',
      "basic_auth = base64.b64encode(b'foo:bar')",
    ];
    for (const text of placeholders) {
      expect(await findCertainSecret(text, "docs/setup.md"), text).toBeNull();
    }
  });

  it("asks secretlint only about texts with a hint of a credential, and never misses one it reports", async () => {
    const samples = [
      fake.privateKey("PRIVATE KEY"),
      `aws_secret_access_key = ${fake.awsSecret()}`,
      `"repository": "https://${fake.chars("abcdef0123456789", 40)}:x-oauth-basic@github.com/a/b.git"`,
      `//registry.npmjs.org/:_authToken=${fake.chars("abcdef0123456789-", 36)}`,
      fake.npmToken(),
      fake.slackToken("xoxp"),
      fake.slackWebhook().toUpperCase(),
      `https://deploy:${fake.chars("abcdefghjkmnpqrstuvwxyz23456789", 16)}@ci.example.org/hook`,
      `mongodb://root:${fake.password()}@mongo.example.org/app`,
      fake.githubToken("ghs"),
      `SG.${fake.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 22)}.${fake.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 43)}`,
      `shpat_${fake.chars("abcdef0123456789", 32)}`,
      `lin_api_${fake.chars("abcdefghijklmnopqrstuvwxyz0123456789", 40)}`,
    ];
    for (const text of samples) {
      const path = text.includes("_authToken") ? ".npmrc" : "package.json";
      expect((await secretlintRanges(text, path)).length, text).toBeGreaterThan(0);
      expect(needsSecretlint(text, path), text).toBe(true);
    }
    expect(needsSecretlint("export function add(a: number, b: number) {}\n", "a.ts")).toBe(false);
  });

  it("keeps no performance marks per lint (secretlint's profiler kept every one)", async () => {
    const text = `aws_secret_access_key = ${fake.awsSecret()}\n`;
    await secretlintRanges(text, "a.py");
    const before = performance.getEntriesByType("mark").length;
    for (let i = 0; i < 50; i++) await secretlintRanges(text, "a.py");
    expect(performance.getEntriesByType("mark").length).toBe(before);
  });
});
