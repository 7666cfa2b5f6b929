import { visibleLine } from "../text/visible-text.js";
import type { ResolvedConfig } from "./resolved-config.js";

/** Files already warned about in this process: one line a run, not one per open. */
const warned = new Set<string>();

/**
 * One line per config file whose `[arce]` section no longer does anything
 * (stderr by default: stdout carries answers). The config still loads: `arce`
 * names the default pipeline now, whose one ranking the section cannot tune.
 */
export function warnObsolete(
  config: Pick<ResolvedConfig, "obsoleteArce">,
  write: (line: string) => void = (line) => process.stderr.write(line),
): void {
  for (const file of config.obsoleteArce) {
    if (warned.has(file)) continue;
    warned.add(file);
    write(
      `ctx: [arce] in ${visibleLine(file)} has no effect: arce is now the default pipeline (keyword, vectors and the code graph in one ranking, the [rerank] reranker on its top); remove the section\n`,
    );
  }
}
