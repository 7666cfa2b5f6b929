/**
 * The feature's config section, checked by config/schema.ts when a config
 * file is read; only that (lazily loaded) module imports this one, so that zod
 * loads only with a config file. The feature's own code imports the type alone.
 */
import { z } from "zod";

/**
 * `[arce]` as configs written for the old fusion strategy set it. `arce` is now
 * the default pipeline, so these keys have no effect: the section is still
 * read (a config that has it keeps loading) and a warning says to remove it.
 */
export const arceSectionSchema = z.strictObject({
  /** How keyword and semantic rankings are combined: weighted scores (default) or reciprocal-rank fusion. */
  fusion: z.enum(["weighted", "rrf"]).optional(),
  keyword_weight: z.number().min(0).optional(),
  /** Default: the embedder's quality. */
  semantic_weight: z.number().min(0).optional(),
  rrf_k: z.number().min(1).optional(),
  /** Candidates taken from each signal (default 100). */
  candidates: z.number().int().min(1).max(2000).optional(),
  /** Add neighbouring chunks of the best hits when budget is left (default true). */
  expand: z.boolean().optional(),
});

export type ArceSection = z.infer<typeof arceSectionSchema>;
