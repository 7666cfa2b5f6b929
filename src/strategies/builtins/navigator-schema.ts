/**
 * The feature's config section, checked by config/schema.ts when a config
 * file is read; only that (lazily loaded) module imports this one, so that zod
 * loads only with a config file. The feature's own code imports the type alone.
 */
import { z } from "zod";

/** `[navigator]` as one config file sets it: how `breadth-depth-navigator` walks the code graph. */
export const navigatorSectionSchema = z.strictObject({
  /** Edges `breadth-depth-navigator` walks from its seeds (default 2). */
  breadth_hops: z.number().int().min(0).max(6).optional(),
  /** Keyword hits it starts from (default 20). */
  seed_hits: z.number().int().min(1).max(500).optional(),
});

export type NavigatorSection = z.infer<typeof navigatorSectionSchema>;
