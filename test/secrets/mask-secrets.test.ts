import { describe, expect, it } from "vitest";
import { MASK, maskDocumentAndChunks, maskSecrets } from "../../src/secrets/mask-secrets.js";
import { FakeSecrets, leakedSlices } from "../helpers/fake-secrets.js";

const fake = new FakeSecrets(7);

/** A secret in the text around it, and the file it sits in (some rules go by the file's name). */
interface Case {
  readonly name: string;
  readonly secret: string;
  readonly text: string;
  readonly path?: string;
  /** Text around the secret that must survive masking. */
  readonly kept: string;
}

function cases(): Case[] {
  const awsId = fake.awsKeyId();
  const awsSecret = fake.awsSecret();
  const awsSecret2 = fake.awsSecret();
  const awsSecret3 = fake.awsSecret();
  const ghp = fake.githubToken("ghp");
  const gho = fake.githubToken("gho");
  const ghu = fake.githubToken("ghu");
  const ghs = fake.githubToken("ghs");
  const ghr = fake.githubToken("ghr");
  const pat = fake.githubFineGrained();
  const xoxb = fake.slackToken("xoxb");
  const xoxp = fake.slackToken("xoxp");
  const hook = fake.slackWebhook();
  const skLive = fake.stripeKey("sk_live");
  const rkLive = fake.stripeKey("rk_live");
  const skTest = fake.stripeKey("sk_test");
  const openai = fake.openAiKey();
  const npm = fake.npmToken();
  const pgPassword = fake.password();
  const myPassword = fake.password();
  const mongoPassword = fake.password();
  const envPassword = fake.password();
  const codePassword = fake.password();
  const jsonPassword = fake.password();
  const rsa = fake.privateKey("RSA PRIVATE KEY");
  const pkcs8 = fake.privateKey("PRIVATE KEY");
  const openssh = fake.privateKey("OPENSSH PRIVATE KEY");
  const ec = fake.privateKey("EC PRIVATE KEY", 3);
  const gcp = fake.serviceAccount();
  return [
    {
      name: "AWS access key id",
      secret: awsId,
      text: `AWS_ACCESS_KEY_ID=${awsId}\n`,
      kept: "AWS_ACCESS_KEY_ID=",
    },
    {
      name: "AWS secret access key (credentials file)",
      secret: awsSecret,
      text: `[default]\naws_secret_access_key = ${awsSecret}\nregion = eu-west-1\n`,
      kept: "region = eu-west-1",
    },
    {
      name: "AWS secret access key (environment)",
      secret: awsSecret2,
      text: `export AWS_SECRET_ACCESS_KEY="${awsSecret2}"\n`,
      kept: "export AWS_SECRET_ACCESS_KEY=",
    },
    {
      name: "AWS secret access key (JSON)",
      secret: awsSecret3,
      text: `{"AccessKeyId": "x", "SecretAccessKey": "${awsSecret3}", "Expiration": "soon"}`,
      kept: '"Expiration": "soon"',
    },
    { name: "GitHub ghp_", secret: ghp, text: `const token = "${ghp}";`, kept: "const token = " },
    { name: "GitHub gho_", secret: gho, text: `token: ${gho}\n`, kept: "token: " },
    {
      name: "GitHub ghu_",
      secret: ghu,
      text: `Authorization: token ${ghu}`,
      kept: "Authorization: token",
    },
    {
      name: "GitHub ghs_",
      secret: ghs,
      text: `GH_TOKEN=${ghs} make release`,
      kept: "make release",
    },
    { name: "GitHub ghr_", secret: ghr, text: `refresh = '${ghr}'`, kept: "refresh = " },
    {
      name: "GitHub github_pat_",
      secret: pat,
      text: `gh auth login --with-token ${pat}`,
      kept: "gh auth login",
    },
    {
      name: "Slack bot token",
      secret: xoxb,
      text: `SLACK_BOT_TOKEN=${xoxb}\n`,
      kept: "SLACK_BOT_TOKEN=",
    },
    {
      name: "Slack user token",
      secret: xoxp,
      text: `client = WebClient(token="${xoxp}")`,
      kept: "client = WebClient(",
    },
    {
      name: "Slack webhook",
      secret: hook,
      text: `post(url="${hook}", json=payload)`,
      kept: "json=payload",
    },
    {
      name: "Stripe sk_live_",
      secret: skLive,
      text: `stripe.api_key = "${skLive}"`,
      kept: "stripe.api_key = ",
    },
    {
      name: "Stripe rk_live_",
      secret: rkLive,
      text: `STRIPE_RESTRICTED=${rkLive}`,
      kept: "STRIPE_RESTRICTED=",
    },
    {
      name: "Stripe sk_test_",
      secret: skTest,
      text: `Stripe(${JSON.stringify(skTest)})`,
      kept: "Stripe(",
    },
    {
      name: "OpenAI key",
      secret: openai,
      text: `client = OpenAI(api_key="${openai}")`,
      kept: "client = OpenAI(",
    },
    {
      name: "npm token",
      secret: npm,
      text: `//registry.npmjs.org/:_authToken=${npm}\n`,
      path: ".npmrc",
      kept: "//registry.npmjs.org/:_authToken=",
    },
    {
      name: "password in a PostgreSQL URL",
      secret: pgPassword,
      text: `DATABASE_URL=postgres://billing:${pgPassword}@db.internal.example.net:5432/billing`,
      kept: "@db.internal.example.net:5432/billing",
    },
    {
      name: "password in a MySQL URL",
      secret: myPassword,
      text: `url = "mysql://app:${myPassword}@10.0.4.12/shop"`,
      kept: "@10.0.4.12/shop",
    },
    {
      name: "password in a MongoDB URL",
      secret: mongoPassword,
      text: `MONGO="mongodb+srv://svc:${mongoPassword}@cluster0.abcde.mongodb.net/app"`,
      kept: "cluster0.abcde.mongodb.net",
    },
    {
      name: "DB_PASSWORD= assignment",
      secret: envPassword,
      text: `DB_HOST=db\nDB_PASSWORD=${envPassword}\n`,
      kept: "DB_HOST=db",
    },
    {
      name: "password = '…' in code",
      secret: codePassword,
      text: `conn = connect(host="db", password="${codePassword}")`,
      kept: 'conn = connect(host="db", password=',
    },
    {
      name: '"password": "…" in JSON',
      secret: jsonPassword,
      text: `{"user": "app", "password": "${jsonPassword}"}`,
      kept: '{"user": "app", "password": ',
    },
    {
      name: "PEM RSA key",
      secret: rsa,
      text: `# deploy key\n${rsa}\n# end\n`,
      kept: "# deploy key",
    },
    { name: "PKCS#8 key", secret: pkcs8, text: `key = """\n${pkcs8}\n"""\n`, kept: 'key = """' },
    { name: "OpenSSH key", secret: openssh, text: `${openssh}\n`, kept: "" },
    { name: "EC key", secret: ec, text: `const key = \`${ec}\`;`, kept: "const key = " },
    {
      name: "GCP service-account JSON (private_key)",
      secret: gcp.privateKey,
      text: gcp.json,
      path: "billing-prod-3f2a.json",
      kept: '"type": "service_account"',
    },
    {
      name: "GCP service-account JSON (private_key_id)",
      secret: gcp.privateKeyId,
      text: gcp.json,
      path: "billing-prod-3f2a.json",
      kept: '"client_email"',
    },
  ];
}

describe("masking secrets before text leaves the machine", () => {
  for (const { name, secret, text, path, kept } of cases()) {
    it(`masks the whole of: ${name}`, async () => {
      const masked = await maskSecrets(text, path);
      expect(masked.masked).toBeGreaterThan(0);
      expect(masked.text).toContain(MASK);
      expect(masked.text).not.toContain(secret);
      // JSON escapes a key's newlines: look at the secret as the text spells it too.
      const spelled = text.includes(secret) ? secret : JSON.stringify(secret).slice(1, -1);
      expect(masked.text).not.toContain(spelled);
      expect(leakedSlices(secret, masked.text, 8)).toEqual([]);
      expect(leakedSlices(spelled, masked.text, 8)).toEqual([]);
      expect(masked.text).toContain(kept);
    });
  }

  it("masks a whole private key block, BEGIN to END, not only its first line", async () => {
    const key = fake.privateKey("RSA PRIVATE KEY");
    const masked = await maskSecrets(`before\n${key}\nafter\n`);
    expect(masked.text).toBe(`before\n${MASK}\nafter\n`);
  });

  it("leaves text without secrets as it is", async () => {
    const text =
      'def connect(url):\n    """Connects to url."""\n    return Client(url, timeout=5)\n';
    expect(await maskSecrets(text)).toEqual({ text, masked: 0 });
  });
});

describe("masking a document's chunks", () => {
  it("masks both halves of a private key split across two chunks", async () => {
    const key = fake.privateKey("PRIVATE KEY", 16);
    const lines = ["const config = {", "  key: `", ...key.split("\n"), "`,", "};"];
    const document = lines.join("\n");
    // Neither half holds BEGIN and END together; the second holds neither.
    const first = { content: lines.slice(0, 10).join("\n"), startLine: 1 };
    const middle = { content: lines.slice(10, 14).join("\n"), startLine: 11 };
    const last = { content: lines.slice(14).join("\n"), startLine: 15 };
    const masked = await maskDocumentAndChunks(document, [first, middle, last], "config.ts");
    for (const text of [masked.document.text, ...masked.chunks.map((chunk) => chunk.text)]) {
      expect(leakedSlices(key, text, 8)).toEqual([]);
    }
    expect(masked.chunks[0]?.text).toContain("const config = {");
    expect(masked.chunks[2]?.text).toContain("};");
  });

  it("masks a token split inside one over-long line's pieces", async () => {
    const token = fake.githubToken();
    const line = `const tokens = ["${"a".repeat(40)}", "${token}", "${"b".repeat(40)}"];`;
    const cut = line.indexOf(token) + 10;
    const pieces = [line.slice(0, cut), line.slice(cut)].map((content) => ({
      content,
      startLine: 1,
    }));
    const masked = await maskDocumentAndChunks(line, pieces);
    for (const piece of masked.chunks) expect(leakedSlices(token, piece.text, 8)).toEqual([]);
  });
});
