/** `[navigator]` with defaults applied: how far `breadth-depth-navigator` walks the code graph. */
export interface NavigatorSettings {
  /** Edges walked from the seeds (callers, callees, importers, imports, parents, children). */
  readonly breadthHops: number;
  /** Keyword hits taken as seeds. */
  readonly seedHits: number;
}

export const DEFAULT_NAVIGATOR_SETTINGS: NavigatorSettings = { breadthHops: 2, seedHits: 20 };

/** `[navigator]` as one config file sets it (config/schema.ts checks it). */
export interface NavigatorSection {
  readonly breadth_hops?: number | undefined;
  readonly seed_hits?: number | undefined;
}

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
