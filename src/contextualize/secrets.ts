/** Files that hold secrets by their nature: never sent to a model, whatever they contain. */
const SECRET_FILES = [
  /(^|\/)\.env($|\.)/,
  /(^|\/)\.envrc$/,
  /\.(pem|key|p12|pfx|jks|keystore|asc|gpg|kdbx|ovpn)$/i,
  /(^|\/)id_(rsa|dsa|ecdsa|ed25519)(\.pub)?$/,
  /(^|\/)\.(npmrc|pypirc|netrc|pgpass|htpasswd|git-credentials)$/,
  /(^|\/)(credentials|secrets?)(\.[\w-]+)?\.(json|ya?ml|toml|ini|txt)$/i,
  /(^|\/)\.aws\/credentials$/,
  /(^|\/)\.docker\/config\.json$/,
];

/** Patterns secretlint's recommended rules do not cover, checked as well. */
const EXTRA_PATTERNS = [
  /\b(AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\b(?:api[_-]?key|secret|token|passw(?:or)?d)\b["']?\s*[:=]\s*["']([^"'\s]{8,})["']/gi,
];

export const MASK = "[REDACTED]";

export function isSecretFile(path: string): boolean {
  return SECRET_FILES.some((pattern) => pattern.test(path));
}

/**
 * The text with every secret the detectors find replaced by `[REDACTED]`:
 * secretlint's recommended rules (cloud keys, tokens, private keys, passwords in
 * URLs, …) plus a few common key formats they miss.
 */
export async function maskSecrets(
  text: string,
  path = "document.txt",
): Promise<{ text: string; masked: number }> {
  const ranges: [number, number][] = [];
  // Loaded on first use: only runs that send text to a model need it.
  const [{ lintSource }, { creator: recommended }] = await Promise.all([
    import("@secretlint/core"),
    import("@secretlint/secretlint-rule-preset-recommend"),
  ]);
  const result = await lintSource({
    source: { filePath: path, content: text, ext: extensionOf(path), contentType: "text" },
    options: {
      config: {
        rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: recommended }],
      },
    },
  });
  for (const message of result.messages) ranges.push([message.range[0], message.range[1]]);
  for (const pattern of EXTRA_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index ?? 0;
      const value = match[1];
      // For "key = 'value'" only the value is masked.
      const offset = value ? match[0].lastIndexOf(value) : 0;
      ranges.push([start + offset, start + offset + (value ?? match[0]).length]);
    }
  }
  if (ranges.length === 0) return { text, masked: 0 };
  ranges.sort((a, b) => a[0] - b[0]);
  let masked = "";
  let cursor = 0;
  let count = 0;
  for (const [start, end] of ranges) {
    if (end <= cursor) continue;
    masked += text.slice(cursor, Math.max(cursor, start)) + MASK;
    cursor = end;
    count++;
  }
  return { text: masked + text.slice(cursor), masked: count };
}

function extensionOf(path: string): string {
  const dot = path.lastIndexOf(".");
  return dot > path.lastIndexOf("/") ? path.slice(dot) : "";
}
