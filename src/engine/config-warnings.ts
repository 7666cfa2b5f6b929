import { warnObsolete } from "../config/obsolete-warning.js";
import type { ResolvedConfig } from "../config/resolved-config.js";
import { warnUntrusted } from "../config/untrusted-warning.js";
import { warnSecretsServed } from "./secrets-warning.js";

/**
 * What an engine says once about the config it opened with (stderr by
 * default): settings of an untrusted project file left out, sections that no
 * longer do anything, secrets being served.
 */
export function warnAboutConfig(
  config: Pick<ResolvedConfig, "untrusted" | "obsoleteArce" | "hydration">,
  write?: (line: string) => void,
): void {
  warnUntrusted(config, write);
  warnObsolete(config, write);
  if (config.hydration.includeSecrets) warnSecretsServed();
}
