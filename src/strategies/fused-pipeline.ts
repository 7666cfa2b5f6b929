import { DEFAULT_ENABLED_STRATEGIES } from "./strategy-settings.js";

/**
 * The seed's "highest quality" strategy is the default pipeline itself: every
 * signal (keyword, vectors, the code graph) in the one ranking stage, the
 * reranker re-scoring its top when one is configured. A separate fusion of its
 * own ranked below that pipeline, so the name now stands for it and can never
 * be worse than it.
 */
export const FUSED_PIPELINE = "arce";

/** What `arce` names, as `ctx strategies` shows it. */
export const FUSED_PIPELINE_STRATEGIES: readonly string[] = DEFAULT_ENABLED_STRATEGIES;

/** The list a pipeline runs: `arce` replaced by the strategies it stands for, each name once. */
export function expandPipelineNames(names: readonly string[]): readonly string[] {
  if (!names.includes(FUSED_PIPELINE)) return names;
  const expanded: string[] = [];
  for (const name of names) {
    for (const member of name === FUSED_PIPELINE ? FUSED_PIPELINE_STRATEGIES : [name]) {
      if (!expanded.includes(member)) expanded.push(member);
    }
  }
  return expanded;
}
