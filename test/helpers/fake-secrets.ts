/**
 * Credential-shaped values made at run time from a seed, so no test file holds
 * a literal that scanners (ours included) would take for a leaked key, and
 * each run plants the same values.
 */
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const BASE64 = `${ALNUM}+/`;
const DIGITS = "0123456789";

export class FakeSecrets {
  private state: number;

  constructor(seed = 42) {
    this.state = seed >>> 0;
  }

  /** `length` characters drawn from `alphabet`. */
  chars(alphabet: string, length: number): string {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }

  awsKeyId(): string {
    return `AKIA${this.chars(UPPER_DIGITS, 16)}`;
  }

  awsSecret(): string {
    return this.chars(BASE64, 40);
  }

  githubToken(prefix: "ghp" | "gho" | "ghu" | "ghs" | "ghr" = "ghp"): string {
    return `${prefix}_${this.chars(ALNUM, 36)}`;
  }

  githubFineGrained(): string {
    return `github_pat_${this.chars(ALNUM, 22)}_${this.chars(ALNUM, 59)}`;
  }

  slackToken(prefix = "xoxb"): string {
    return `${prefix}-${this.chars(DIGITS, 11)}-${this.chars(DIGITS, 13)}-${this.chars(ALNUM, 24)}`;
  }

  slackWebhook(): string {
    return `https://hooks.slack.com/services/T${this.chars(UPPER_DIGITS, 8)}/B${this.chars(UPPER_DIGITS, 8)}/${this.chars(ALNUM, 24)}`;
  }

  stripeKey(prefix: "sk_live" | "rk_live" | "sk_test" = "sk_live"): string {
    return `${prefix}_${this.chars(ALNUM, 24)}`;
  }

  openAiKey(): string {
    return `sk-proj-${this.chars(ALNUM, 20)}T3BlbkFJ${this.chars(ALNUM, 20)}${this.chars(ALNUM, 40)}`;
  }

  npmToken(): string {
    return `npm_${this.chars(ALNUM, 36)}`;
  }

  password(): string {
    return `${this.chars(ALNUM, 10)}!${this.chars(ALNUM, 6)}`;
  }

  /** A private key block: `label` "RSA PRIVATE KEY", "PRIVATE KEY" (PKCS#8), "OPENSSH PRIVATE KEY". */
  privateKey(label: string, lines = 12): string {
    const magic = label.startsWith("OPENSSH")
      ? "b3BlbnNzaC1rZXktdjEAAAAA"
      : "MIIEvQIBADANBgkqhkiG9w0B";
    const body = magic + this.chars(BASE64, lines * 64 - magic.length);
    const wrapped = body.match(/.{1,64}/g) as string[];
    return [`-----BEGIN ${label}-----`, ...wrapped, `-----END ${label}-----`].join("\n");
  }

  /** A GCP service-account key file's JSON, its private key inside. */
  serviceAccount(): { json: string; privateKey: string; privateKeyId: string } {
    const privateKey = `${this.privateKey("PRIVATE KEY", 10)}\n`;
    const privateKeyId = this.chars("0123456789abcdef", 40);
    const json = JSON.stringify(
      {
        type: "service_account",
        project_id: "billing-prod",
        private_key_id: privateKeyId,
        private_key: privateKey,
        client_email: "billing@billing-prod.iam.gserviceaccount.com",
        client_id: this.chars(DIGITS, 21),
        token_uri: "https://oauth2.googleapis.com/token",
      },
      null,
      2,
    );
    return { json, privateKey, privateKeyId };
  }

  /** mulberry32. */
  private next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}

/** Every `size`-character slice of a secret (its lines, for a multi-line one) found in the text. */
export function leakedSlices(secret: string, text: string, size: number): string[] {
  const leaked: string[] = [];
  for (const part of secret.split("\n")) {
    for (let at = 0; at + size <= part.length; at++) {
      const slice = part.slice(at, at + size);
      if (text.includes(slice)) leaked.push(slice);
    }
    if (part.length > 0 && part.length < size && text.includes(part)) leaked.push(part);
  }
  return leaked;
}
