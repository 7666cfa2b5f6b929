import { visibleLine } from "../text/visible-text.js";
import type { ResolvedConfig, UntrustedProjectFile } from "./resolved-config.js";

/** Files already warned about in this process, by path and contents: one line a run, not one per open. */
const warned = new Set<string>();

/** The one line that says which settings of an untrusted project file were ignored, and how to allow them. */
export function untrustedWarning(untrusted: UntrustedProjectFile): string {
  const problem = untrusted.listProblem ? ` (${untrusted.listProblem})` : "";
  return (
    // A custom strategy's name is the file's to choose: it is shown, never obeyed, by the terminal.
    `ctx: ignoring ${visibleLine(untrusted.ignored.join(", "))} in ${visibleLine(untrusted.file)}: a project's config file may not ` +
    `choose code, credentials or destinations until you trust it${problem}; run \`ctx trust\` there if you do\n`
  );
}

/** Writes the untrusted-settings line once per process (stderr by default: stdout carries answers). */
export function warnUntrusted(
  config: Pick<ResolvedConfig, "untrusted">,
  write: (line: string) => void = (line) => process.stderr.write(line),
): void {
  const { untrusted } = config;
  if (!untrusted) return;
  const key = `${untrusted.file}\0${untrusted.sha256}`;
  if (warned.has(key)) return;
  warned.add(key);
  write(untrustedWarning(untrusted));
}
