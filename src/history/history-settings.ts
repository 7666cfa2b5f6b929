import type { HistorySection } from "./history-schema.js";
/** `[history]` with defaults applied: which commits of a git checkout the index keeps. */
export interface HistorySettings {
  readonly enabled: boolean;
  readonly maxCommits: number;
  /** A date git understands, or null for no lower bound. */
  readonly since: string | null;
  readonly coChangeMaxFiles: number;
}

export const DEFAULT_HISTORY_SETTINGS: HistorySettings = {
  enabled: true,
  maxCommits: 10_000,
  since: null,
  coChangeMaxFiles: 30,
};

export function resolveHistorySettings(
  files: readonly { config: { readonly history?: HistorySection | undefined } }[],
): HistorySettings {
  let history: HistorySection = {};
  for (const { config } of files) history = { ...history, ...config.history };
  const defaults = DEFAULT_HISTORY_SETTINGS;
  return {
    enabled: history.enabled ?? defaults.enabled,
    maxCommits: history.max_commits ?? defaults.maxCommits,
    since: history.since ?? defaults.since,
    coChangeMaxFiles: history.co_change_max_files ?? defaults.coChangeMaxFiles,
  };
}

const UNIT_SECONDS: Readonly<Record<string, number>> = {
  day: 86_400,
  week: 7 * 86_400,
  month: 30 * 86_400,
  year: 365 * 86_400,
};

/**
 * `since` as seconds since 1970, the way git reads the two forms the config
 * takes ("2024-01-31 10:00" in local time, "2 years ago"), to prune commits
 * that aged past it without asking git.
 */
export function sinceSeconds(since: string, now = Date.now()): number {
  const ago = /^(\d+) (day|week|month|year)s? ago$/.exec(since);
  if (ago) return Math.floor(now / 1000) - Number(ago[1]) * (UNIT_SECONDS[ago[2] as string] ?? 0);
  const [date = "", time = "00:00"] = since.split(/[ T]/);
  const [year, month, day] = date.split("-").map(Number);
  const [hour, minute, second = 0] = time.split(":").map(Number);
  return Math.floor(
    new Date(year ?? 1970, (month ?? 1) - 1, day ?? 1, hour ?? 0, minute ?? 0, second).getTime() /
      1000,
  );
}
