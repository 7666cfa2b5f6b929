let warned = false;

/**
 * One line on stderr per process when `[index] include_secrets` is on: files
 * that hold secrets are then indexed and served, which nobody should learn
 * only from an agent's answer.
 */
export function warnSecretsServed(): void {
  if (warned) return;
  warned = true;
  process.stderr.write(
    "ctx: warning: [index] include_secrets = true: files that hold secrets (.env, keys, credentials, tokens found in code) are indexed and served to agents\n",
  );
}
