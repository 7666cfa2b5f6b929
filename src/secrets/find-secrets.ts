import {
  CREDENTIAL_HINT,
  isPlaceholder,
  isTestDatabase,
  patternRanges,
  type SecretRange,
} from "./secret-patterns.js";

/** Ends a secretlint range grown to the end of its token (see `secretlintRanges`). */
const TOKEN_END = /[\s"'`]/;

/**
 * Every secret in the text (its path decides which rules apply: `.npmrc`,
 * `package.json`, a service-account `.json`): secretlint's recommended rules
 * and the patterns of secret-patterns.ts. Ranges may overlap.
 */
export async function findSecrets(text: string, path = "document.txt"): Promise<SecretRange[]> {
  const found = patternRanges(text);
  if (!needsSecretlint(text, path)) return found;
  // A secretlint finding around one of the patterns' is the same secret
  // reported less precisely (with its key's name, the whole URL, the whole
  // service-account file): the pattern's range is masked, the rest kept.
  const own = [...found];
  for (const range of await secretlintRanges(text, path)) {
    if (!own.some((inner) => inner.start >= range.start && inner.end <= range.end))
      found.push(range);
  }
  return found;
}

/**
 * The first secret that marks the text as holding a real credential, or
 * null: what keeps a file out of the index. Most texts hold no hint of a
 * credential (CREDENTIAL_HINT) and cost one search.
 */
export async function findCertainSecret(
  text: string,
  path = "document.txt",
): Promise<SecretRange | null> {
  if (!needsSecretlint(text, path)) return null;
  const own = patternRanges(text, true).find((range) => range.certain);
  if (own) return own;
  return (await secretlintRanges(text, path)).find((range) => range.certain) ?? null;
}

/**
 * Without secretlint, for callers that cannot wait (serving a file): the
 * patterns alone, which cover the credential formats secretlint knows.
 */
export function findCertainSecretNow(text: string): SecretRange | null {
  if (!CREDENTIAL_HINT.test(text)) return null;
  return patternRanges(text, true).find((range) => range.certain) ?? null;
}

/** Whether secretlint could report anything in the text (see CREDENTIAL_HINT). */
export function needsSecretlint(text: string, path: string): boolean {
  // JSON may spell any character as \uXXXX; the service-account rule reads the parsed value.
  if (path.endsWith(".json") && text.includes("\\u")) return true;
  return CREDENTIAL_HINT.test(text);
}

type Secretlint = Pick<typeof import("@secretlint/core"), "lintSource"> & {
  readonly recommended: typeof import("@secretlint/secretlint-rule-preset-recommend").creator;
};

let secretlint: Promise<Secretlint> | null = null;

/**
 * secretlint, loaded on first use (most texts hold none of the hints) with
 * its profiler silenced: it marks the performance timeline at every rule of
 * every text and keeps each mark, so a long run (a server, a large index)
 * grew slower and bigger with every lint (secretlint issue 1633; version 13
 * turns it off with `setEnabled(false)`, but needs Node 22).
 */
function loadSecretlint(): Promise<Secretlint> {
  secretlint ??= Promise.all([
    import("@secretlint/core"),
    import("@secretlint/secretlint-rule-preset-recommend"),
    import("@secretlint/profiler"),
  ]).then(([core, preset, { secretLintProfiler }]) => {
    secretLintProfiler.mark = () => undefined;
    return { lintSource: core.lintSource, recommended: preset.creator };
  });
  return secretlint;
}

/** secretlint's recommended rules on the text, whatever the prefilter says. */
export async function secretlintRanges(text: string, path: string): Promise<SecretRange[]> {
  const { lintSource, recommended } = await loadSecretlint();
  // The service-account rule reads a `.p12` from disk by its path: never let it.
  const filePath = path.endsWith(".p12") ? `${path}.txt` : path;
  const result = await lintSource({
    source: { filePath, content: text, ext: extensionOf(filePath), contentType: "text" },
    options: {
      config: {
        rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: recommended }],
      },
    },
  });
  return result.messages.map((message) => {
    // Some rules report a range as long as the secret but starting at its key
    // (`aws_secret_access_key = …`, `_authToken=…`): grown to the end of the
    // token, it covers the secret whatever the rule's offset.
    const start = message.range[0];
    let end = message.range[1];
    while (end < text.length && !TOKEN_END.test(text[end] as string)) end++;
    const found = text.slice(start, end);
    return {
      start,
      end,
      kind: `secretlint ${message.messageId ?? message.ruleId}`,
      certain: !isPlaceholder(found) && !isLocalDatabaseUrl(found),
    };
  });
}

/** A connection string (or basic-auth URL) of a test setup: see isTestDatabase. */
function isLocalDatabaseUrl(found: string): boolean {
  const url = /:\/\/([^:/\s]+):([^@/\s]+)@([^\s/:?"'`]*)/.exec(found);
  if (!url) return false;
  const [, user, password, host] = url as unknown as [string, string, string, string];
  return isTestDatabase(user, password, host);
}

function extensionOf(path: string): string {
  const dot = path.lastIndexOf(".");
  return dot > path.lastIndexOf("/") ? path.slice(dot) : "";
}
