import type { TemporalBackend } from "../core/history.js";
import type { TextHit } from "../core/text-backend.js";

/** Past commits whose messages are read for a task. */
const MATCHED_COMMITS = 30;
/** Subjects kept per file, to say why it moved. */
const SUBJECTS_SHOWN = 2;

export interface MessageSupport {
  /** 0..1: the best-supported file scores 1. */
  readonly support: number;
  /** Subjects of the best-matching commits that changed the file, best first. */
  readonly subjects: readonly string[];
}

/**
 * How much the history says a task touches each file: the past commits whose
 * messages best match the task's terms, each giving the files it changed its
 * match over the square root of their number (a commit of one file says more
 * about that file than one of nine, though not nine times more); a file sums
 * what it gets. Keyed `resourceId\0path`, for the resources of the hits.
 */
export async function messageSupport(
  temporal: TemporalBackend,
  hits: readonly TextHit[],
  terms: readonly string[],
): Promise<Map<string, MessageSupport>> {
  const sums = new Map<string, { sum: number; subjects: string[] }>();
  const resources = new Set(hits.map((hit) => hit.chunk.resourceId));
  for (const resourceId of resources) {
    // Best commit first, so each file's subjects come best first.
    for (const row of await temporal.filesOfMatchingCommits(resourceId, terms, MATCHED_COMMITS)) {
      const key = `${resourceId}\0${row.path}`;
      const entry = sums.get(key) ?? { sum: 0, subjects: [] };
      entry.sum += row.score / Math.sqrt(Math.max(1, row.files));
      if (entry.subjects.length < SUBJECTS_SHOWN) entry.subjects.push(row.subject);
      sums.set(key, entry);
    }
  }
  const strongest = Math.max(0, ...[...sums.values()].map((entry) => entry.sum));
  return new Map(
    [...sums].map(([key, { sum, subjects }]) => [
      key,
      { support: strongest > 0 ? sum / strongest : 0, subjects },
    ]),
  );
}
