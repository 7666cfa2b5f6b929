import type { RankSignals } from "../core/rank-signals.js";
import type { TextHit } from "../core/text-backend.js";
import { opensWithTaskWord } from "./doc-leads.js";

/**
 * What a keyword search says of each of its hits, in hit order: its score
 * over the best one's, its place, and how strongly and how often the search
 * hit its file (a file hit many times is likelier the one a task is about,
 * and a weak hit in it likelier a part of the answer).
 */
export function keywordSignals(
  hits: readonly TextHit[],
  stems: ReadonlySet<string>,
): RankSignals[] {
  const best = Math.max(1e-9, ...hits.map((hit) => hit.score));
  const files = new Map<string, { best: number; hits: number }>();
  const keyOf = (hit: TextHit) => `${hit.chunk.resourceId}\0${hit.chunk.path}`;
  for (const hit of hits) {
    const key = keyOf(hit);
    const seen = files.get(key);
    if (seen) {
      seen.best = Math.max(seen.best, hit.score);
      seen.hits++;
    } else files.set(key, { best: hit.score, hits: 1 });
  }
  return hits.map((hit, rank) => {
    const file = files.get(keyOf(hit));
    return {
      keyword: hit.score / best,
      keywordRank: rank,
      fileKeyword: (file?.best ?? 0) / best,
      fileHits: file?.hits ?? 1,
      ...(leadsWith(hit, stems) ? { docLead: 1 } : {}),
    };
  });
}

/**
 * What each hit's comment says, read once per task: the keyword strategy and
 * the navigator search for the same task and get the same chunks (at 100,000
 * chunks reading them twice added about 1.1 ms to a query, once 0.3–0.8 ms).
 * Kept by chunk and checked against its text, so another index's chunk of
 * the same id is read anew.
 */
const readLeads = new WeakMap<ReadonlySet<string>, Map<string, { text: string; leads: boolean }>>();

const MAX_READ = 10_000;

function leadsWith(hit: TextHit, stems: ReadonlySet<string>): boolean {
  let read = readLeads.get(stems);
  if (!read) {
    read = new Map();
    readLeads.set(stems, read);
  }
  const { chunk } = hit;
  const key = `${chunk.resourceId}\0${chunk.id}`;
  const seen = read.get(key);
  if (seen?.text === chunk.content) return seen.leads;
  const leads = opensWithTaskWord(chunk.content, stems);
  // One task asked again and again (a server) over an index that changes keeps no more.
  if (read.size >= MAX_READ) read.clear();
  read.set(key, { text: chunk.content, leads });
  return leads;
}
