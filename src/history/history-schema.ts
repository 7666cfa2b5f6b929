/**
 * The feature's config section, checked by config/schema.ts when a config
 * file is read; only that (lazily loaded) module imports this one, so that zod
 * loads only with a config file. The feature's own code imports the type alone.
 */
import { z } from "zod";

/** `[history]` as one config file sets it: which commits of a git checkout the index keeps. */
export const historySectionSchema = z.strictObject({
  /** Read the git history of git checkouts (default true). */
  enabled: z.boolean().optional(),
  /** The newest commits kept (default 10,000). */
  max_commits: z.number().int().min(1).max(1_000_000).optional(),
  /** Only commits after this date: "2024-01-31" or "2 years ago" (default: no limit). */
  since: z
    .string()
    .regex(
      /^(\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?|\d+ (day|week|month|year)s? ago)$/,
      'a date like "2024-01-31" or "2 years ago"',
    )
    .optional(),
  /** Commits that change more files than this say nothing about which files go together (default 30). */
  co_change_max_files: z.number().int().min(2).max(10_000).optional(),
});

export type HistorySection = z.infer<typeof historySectionSchema>;
