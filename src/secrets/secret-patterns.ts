/** A span of text that holds a secret, with what was found there. */
export interface SecretRange {
  readonly start: number;
  /** Exclusive. */
  readonly end: number;
  /** What it is ("GitHub token", "private key"): never the secret itself. */
  readonly kind: string;
  /**
   * The shape of a real credential (a provider's token format, a private key,
   * a password in a connection string) and not a placeholder: enough to keep
   * a whole file out of the index. Other ranges (a `password = "…"`) are only
   * masked before text leaves the machine.
   */
  readonly certain: boolean;
}

interface SecretPattern {
  readonly kind: string;
  /** Global. A `secret` group, when present, is the part masked (the value of `key = value`). */
  readonly regex: RegExp;
  /**
   * Whether a match (its masked part) is a real credential rather than a
   * placeholder; absent: never certain, only masked.
   */
  readonly real?: (secret: string, match: RegExpMatchArray) => boolean;
}

/** Keys published in providers' documentation: masked, but they mark no file as secret. */
const PUBLISHED_EXAMPLES: ReadonlySet<string> = new Set([
  "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
  "sk_test_BQokikJOvBiI2HlWgH4olfQ2",
]);

/** Passwords of local databases in examples and test setups, not secrets anyone keeps. */
const LOCAL_PASSWORDS =
  /^(?:pass(?:word)?|secret|root|admin|user(?:name)?|tests?|testing|dev|local|guest|demo|postgres(?:ql)?|mysql|mariadb|mongo(?:db)?|redis|rabbitmq|sa|db|default|changeme|pwd|passwd|foo|bar|baz|qux|quux|spam|eggs|abc|xyz|hunter)\d*$/i;

/**
 * A database of a test or development setup: on this machine, or with a
 * password that is the user's name, a well-known word, or says it is a test
 * one. Its connection string is masked, but does not mark a file as secret.
 */
export function isTestDatabase(user: string, password: string, host: string): boolean {
  return (
    password.length < 4 ||
    password === user ||
    LOCAL_PASSWORDS.test(password) ||
    /test|example|dummy|changeme/i.test(password) ||
    /^(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])$/i.test(host)
  );
}

const notPlaceholder = (secret: string): boolean =>
  !isPlaceholder(secret) && !PUBLISHED_EXAMPLES.has(secret);

/**
 * Text one of the certain patterns below, or one of secretlint's recommended
 * rules, needs before it can match: a text without any holds no credential
 * either would report, and is not searched further. Every alternative is
 * written to be a superset of what the rules match (secretlint's AWS rule
 * spells `SECRET|secret|Secret` and `ACCESS|access|Access`, its webhook rule
 * ignores case, its connection-string rules allow any user name without a
 * colon, slash or space).
 */
export const CREDENTIAL_HINT = new RegExp(
  [
    "PRIVATE KEY",
    "A(?:3T|KIA|SIA|GPA|IDA|ROA|IPA|NPA|NVA)",
    "(?:ECRET|ecret)_?(?:ACCESS|[Aa]ccess)",
    "(?:WS|ws)_?(?:SECRET|[Ss]ecret)",
    "gh[pousr]_|github_pat_",
    "xox[abposre]-|xapp-|[Hh][Oo][Oo][Kk][Ss]\\.[Ss][Ll][Aa][Cc][Kk]",
    "[sr]k_(?:live|test)_|whsec_|sk-",
    "npm_|_auth|x-oauth-basic",
    ":\\/\\/[^\\s:/]+:[^\\s@/]+@",
    "lin_api_|SG\\.|shp(?:pa|ca|at|ss)_|ops_ey",
  ].join("|"),
);

/** Token formats and assignments secretlint's recommended rules miss or report with a short range. */
const PATTERNS: readonly SecretPattern[] = [
  {
    kind: "AWS access key id",
    regex: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z0-9]{16}\b/g,
    real: notPlaceholder,
  },
  {
    kind: "AWS secret access key",
    regex:
      /(?:(?:aws|AWS|Aws)_?(?:secret|SECRET|Secret)_?(?:access_?|ACCESS_?|Access_?)?|(?:secret|SECRET|Secret)_?(?:access|ACCESS|Access)_?)(?:key|KEY|Key)["']?\s*(?::|=>|=)\s*["']?(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/g,
    real: notPlaceholder,
  },
  {
    kind: "GitHub token",
    regex: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g,
    real: notPlaceholder,
  },
  {
    // Real tokens carry the team's and the user's numeric ids between dashes.
    kind: "Slack token",
    regex: /\b(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,250}/g,
    real: (secret) => /-\d{6,}-/.test(secret) && notPlaceholder(secret),
  },
  {
    kind: "Slack webhook",
    regex:
      /https:\/\/hooks\.slack(?:-gov)?\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{8,}/gi,
    real: notPlaceholder,
  },
  {
    kind: "Stripe key",
    regex: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,247}\b|\bwhsec_[A-Za-z0-9]{24,}\b/g,
    real: notPlaceholder,
  },
  {
    // OpenAI (sk-, sk-proj-, sk-svcacct-, sk-admin-) and Anthropic (sk-ant-) keys: a digit
    // is required so words like "sk-learn-compatible-models" are left alone.
    kind: "OpenAI or Anthropic key",
    regex: /\bsk-(?=[A-Za-z0-9_-]{0,200}\d)[A-Za-z0-9_-]{20,300}/g,
    real: (secret) =>
      secret.length >= 40 && /[a-z]/.test(secret) && /[A-Z]/.test(secret) && notPlaceholder(secret),
  },
  { kind: "npm token", regex: /\bnpm_[A-Za-z0-9]{36}\b/g, real: notPlaceholder },
  {
    // `.npmrc`: `//registry.npmjs.org/:_authToken=…`, `_auth=…` (never `basic_auth = …` in code).
    kind: "npm auth token",
    regex: /(?:^|:)_auth(?:Token)?[ \t]*=[ \t]*["']?(?<secret>[^\s"'$][^\s"']{7,})/gm,
    real: (secret) => secret.length >= 16 && /\d/.test(secret) && notPlaceholder(secret),
  },
  { kind: "Google API key", regex: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  {
    kind: "GCP service-account key",
    regex: /"private_key(?:_id)?"\s*:\s*"(?<secret>[^"]{8,})"/g,
  },
  {
    kind: "password in a database URL",
    regex:
      /\b(?:postgres(?:ql)?|mysql[x2]?|mariadb|mongodb(?:\+srv)?|redis|rediss|amqps?|mssql|sqlserver|oracle|cockroachdb)(?:\+[a-z0-9]+)?:\/\/(?<user>[^\s:/@"'`]{1,100}):(?<secret>[^\s@/"'`]{1,200})@(?<host>[^\s/:?"'`]{0,100})/gi,
    real: (secret, match) =>
      !isTestDatabase(match.groups?.user ?? "", secret, match.groups?.host ?? "") &&
      !/^[$%{]|^:/.test(secret) &&
      notPlaceholder(secret),
  },
  {
    kind: "password in a URL",
    regex: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@"'`]{1,100}:(?<secret>[^\s@/"'`]{3,200})@/gi,
  },
  {
    // PASSWORD=…, DB_SECRET=… at a line's start (environment and ini files).
    kind: "secret assignment",
    regex:
      /^[ \t]*(?:export[ \t]+)?[A-Za-z0-9_.-]*(?:PASSWORD|PASSWD|PWD|SECRET|TOKEN|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?)[A-Za-z0-9_.-]*[ \t]*[:=][ \t]*["']?(?<secret>[^\s"'#]{6,200})/gim,
  },
  {
    // password = "…", apiKey: '…', "client_secret": "…" anywhere.
    kind: "secret assignment",
    regex:
      /(?:passw(?:or)?d|pwd|secret|token|api[_-]?key|access[_-]?key|auth[_-]?key|credentials?)[A-Za-z0-9_-]{0,40}["']?\s*(?::=|=>|[:=])\s*["'`](?<secret>[^"'`\n]{6,200})["'`]/gi,
  },
];

const PEM_BEGIN = /-----BEGIN[ A-Z0-9]{0,40} PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END = /-----END[ A-Z0-9]{0,40} PRIVATE KEY(?: BLOCK)?-----/g;
/** What a key's body is made of, as text or inside a JSON string (`\n` escapes), with headers. */
const PEM_BODY = /[A-Za-z0-9+/=\s\\:,-]/;

/**
 * Secrets that look like placeholders: documentation's example keys, template
 * variables, runs of x or *, sequences typed by hand. Still masked, but they
 * do not make a file a secret file.
 */
const PLACEHOLDER =
  /EXAMPLE|example|sample|dummy|placeholder|your[_-]?|<[^>]*>|\$\{|\{\{|%\(|xxxx|XXXX|\*\*\*|\.\.\.|changeme|redacted|REDACTED|fake|FAKE|0123456|1234567|abcdefg|ABCDEFG/;

export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value) || new Set(value).size <= 4;
}

/**
 * Every range the patterns and the private-key scan find in the text; with
 * `certainOnly`, only the patterns that can tell a real credential (worth
 * running where CREDENTIAL_HINT matches).
 */
export function patternRanges(text: string, certainOnly = false): SecretRange[] {
  const found: SecretRange[] = [];
  for (const { kind, regex, real } of PATTERNS) {
    if (certainOnly && !real) continue;
    for (const match of text.matchAll(regex)) {
      const whole = match[0];
      const value = match.groups?.secret;
      const at = match.index;
      const start = value === undefined ? at : at + whole.lastIndexOf(value);
      const secret = value ?? whole;
      found.push({
        start,
        end: start + secret.length,
        kind,
        certain: real?.(secret, match) ?? false,
      });
    }
  }
  if (text.includes("PRIVATE KEY")) found.push(...privateKeyRanges(text));
  return found;
}

/**
 * Private key blocks (PEM, PKCS#8, OpenSSH, PGP), whole from BEGIN to END, also
 * when the text holds only part of one: from a BEGIN to the text's end, or
 * from its start to an END (a key split across chunks). Scanned by hand: a
 * regular expression for "base64 up to END" backtracks quadratically on a
 * long base64 run with no END.
 */
function privateKeyRanges(text: string): SecretRange[] {
  const found: SecretRange[] = [];
  let covered = 0;
  for (const begin of text.matchAll(PEM_BEGIN)) {
    if (begin.index < covered) continue;
    PEM_END.lastIndex = begin.index;
    const end = PEM_END.exec(text);
    const stop = end ? end.index + end[0].length : text.length;
    const body = text.slice(begin.index + begin[0].length, end ? end.index : text.length);
    found.push({ start: begin.index, end: stop, kind: "private key", certain: isKeyBody(body) });
    covered = stop;
  }
  PEM_END.lastIndex = 0;
  for (const end of text.matchAll(PEM_END)) {
    if (found.some((range) => range.start <= end.index && end.index < range.end)) continue;
    let start = end.index;
    while (start > 0 && PEM_BODY.test(text[start - 1] as string)) start--;
    const body = text.slice(start, end.index);
    found.push({
      start,
      end: end.index + end[0].length,
      kind: "private key",
      certain: isKeyBody(body),
    });
  }
  return found;
}

/**
 * A key body with enough base64 to be a key: not the `...` or `xxxx` of
 * documentation. Random base64 holds about every character, a placeholder few.
 */
function isKeyBody(body: string): boolean {
  if (/\.\.\.|xxxx|XXXX|\*\*\*|<[^>]*>/.test(body)) return false;
  const base64 = body.replace(/[^A-Za-z0-9+/]/g, "");
  return base64.length >= 64 && new Set(base64).size >= 24;
}
