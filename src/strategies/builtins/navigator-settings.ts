import type { NavigatorSection } from "./navigator-schema.js";
/** `[navigator]` with defaults applied: how far `breadth-depth-navigator` walks the code graph. */
export interface NavigatorSettings {
  /** Edges walked from the seeds (callers, callees, importers, imports, parents, children). */
  readonly breadthHops: number;
  /** Keyword hits taken as seeds. */
  readonly seedHits: number;
}

export const DEFAULT_NAVIGATOR_SETTINGS: NavigatorSettings = { breadthHops: 2, seedHits: 20 };

export function resolveNavigatorSettings(
  files: readonly { config: { readonly navigator?: NavigatorSection | undefined } }[],
): NavigatorSettings {
  let navigator: NavigatorSection = {};
  for (const { config } of files) navigator = { ...navigator, ...config.navigator };
  return {
    breadthHops: navigator.breadth_hops ?? DEFAULT_NAVIGATOR_SETTINGS.breadthHops,
    seedHits: navigator.seed_hits ?? DEFAULT_NAVIGATOR_SETTINGS.seedHits,
  };
}
