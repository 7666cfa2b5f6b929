import type Database from "better-sqlite3";
import { phraseStatistics } from "./phrase-hits.js";
import type { RankedRow } from "./search-range.js";
import { cachedStatement } from "./statement-cache.js";

/**
 * What FTS5's bm25() can give one phrase at most, over the phrase's IDF: its
 * term is `idf · f · (k1 + 1) / (f + k1 · (1 − b + b · |d| / avgdl))`, which
 * stays under `idf · (k1 + 1)` however often the phrase occurs (FTS5's k1 is
 * 1.2, b 0.75). `f` sums the weights of the fields the phrase occurs in, so
 * the bound holds for weights of 0 and more.
 */
const MAX_TERM_FACTOR = 1.2 + 1;

/**
 * How much score the most common phrases may share and be left out of the
 * candidates, on a first try: the median of the `limit`-th best scores of the
 * connection's last searches of that limit, or this until there are a few.
 * Half of such guesses are too bold, but the second try, bounded by the first
 * try's `limit`-th score, then leaves out nearly as much: over code-dev's
 * questions at 96,000 chunks a search took 6.8–7.0 ms at p50 so, against
 * 9.3 ms with 7 for every question and 11.8 ms with 5. A wrong guess costs
 * time, never hits.
 */
const FIRST_GUESS = 7;
const RECENT_SEARCHES = 51;
const FEWEST_TO_GUESS_FROM = 8;

/** The `limit`-th best scores of recent searches, by connection and limit. */
const recentFloors = new WeakMap<Database.Database, Map<number, number[]>>();

/** Room for the last bits of rounding between this bound and SQLite's own sums. */
const ROUNDING = 1 + 1e-9;

/**
 * The best `limit` chunks by BM25 (the rows, ranks and order of ranking every
 * chunk that matches, see below), scoring only the chunks that hold at least
 * one of the task's rarer terms. A chunk holding none of them scores under the
 * sum of the other terms' largest possible shares (MaxScore: Turtle and Flood,
 * 1995); once the `limit`-th best candidate scores above that sum, no chunk
 * left out can reach the hits. The common words of a question ("function",
 * "value") each match a quarter of a code index, and FTS5 otherwise scores all
 * of those chunks to keep a hundred. Null when nothing can be left out (one
 * term, only rare terms, a negative weight) or the check fails twice: the
 * caller then ranks every match.
 *
 * A phrase left out that no chunk holds, or that more than half the chunks
 * hold, is also left out of the candidates' scores: the first adds nothing,
 * and FTS5 gives the second an IDF of 1e-6 (a share under 2.2e-6), yet walks
 * its whole list to find it — at 600,000 chunks, a phrase in nearly all of
 * them took three quarters of the search. So a rank may differ from FTS5's by
 * those shares, and chunks whose scores are that close may change places.
 */
export function prunedSearch(
  db: Database.Database,
  weights: readonly number[],
  phrases: readonly string[],
  limit: number,
): RankedRow[] | null {
  if (phrases.length < 2 || limit <= 0 || weights.some((weight) => !(weight >= 0))) return null;
  // One read of the index throughout: the counts and bounds must be those the ranking uses.
  return db.transaction(() => searchPruned(db, weights, phrases, limit))();
}

function searchPruned(
  db: Database.Database,
  weights: readonly number[],
  phrases: readonly string[],
  limit: number,
): RankedRow[] | null {
  const statistics = phraseStatistics(db);
  const rows = statistics.rows;
  if (rows === null) return null;
  const hits = phrases.map((phrase) => statistics.hits(phrase));
  // A phrase no chunk holds adds nothing to any score.
  const bounds = hits.map((count) => (count === 0 ? 0 : MAX_TERM_FACTOR * idf(rows, count)));
  // Most common first: they have the smallest bounds and the longest lists of chunks.
  const byCommonness = phrases
    .map((_, index) => index)
    .sort((a, b) => (bounds[a] as number) - (bounds[b] as number));
  let leftOut = leftOutUnder(byCommonness, bounds, firstGuess(db, limit));
  // Fewer than `limit` chunks hold the phrases kept: leave out less, or nothing can be checked.
  // (A chunk counts once per kept phrase it holds: the sum is at least how many chunks hold one.)
  while (leftOut > 0 && sumOver(byCommonness, hits, leftOut, phrases.length) < limit) leftOut--;
  for (let attempt = 0; attempt < 2 && leftOut > 0; attempt++) {
    const unscored = new Set(
      byCommonness.slice(0, leftOut).filter((index) => addsNothing(rows, hits[index] as number)),
    );
    const scoring = phrases.filter((_, index) => !unscored.has(index));
    const ranked = rankedCandidates(db, weights, scoring, byCommonness, phrases, leftOut, limit);
    const least = ranked.length === limit ? -(ranked[limit - 1] as RankedRow).rank : null;
    if (least === null) return null;
    if (sumOver(byCommonness, bounds, 0, leftOut) * ROUNDING < least) {
      remember(db, limit, least);
      return ranked;
    }
    // The limit-th candidate's score is a floor for the limit-th hit's: leave out less, for sure.
    leftOut = leftOutUnder(byCommonness, bounds, least);
  }
  return null;
}

function firstGuess(db: Database.Database, limit: number): number {
  const floors = recentFloors.get(db)?.get(limit);
  if (!floors || floors.length < FEWEST_TO_GUESS_FROM) return FIRST_GUESS;
  return [...floors].sort((a, b) => a - b)[floors.length >> 1] as number;
}

function remember(db: Database.Database, limit: number, floor: number): void {
  let byLimit = recentFloors.get(db);
  if (!byLimit) {
    byLimit = new Map();
    recentFloors.set(db, byLimit);
  }
  // A caller asking many limits (each request its own) keeps a few limits' scores, not all.
  if (!byLimit.has(limit) && byLimit.size >= 16) byLimit.clear();
  const floors = byLimit.get(limit) ?? [];
  floors.push(floor);
  if (floors.length > RECENT_SEARCHES) floors.shift();
  byLimit.set(limit, floors);
}

/** How many of the most common phrases can be left out together with bounds summing under `score`. */
function leftOutUnder(byCommonness: readonly number[], bounds: readonly number[], score: number) {
  let sum = 0;
  let count = 0;
  // At least one phrase stays: the candidates are the chunks holding one.
  while (count < byCommonness.length - 1) {
    const next = sum + (bounds[byCommonness[count] as number] as number);
    if (next * ROUNDING >= score) break;
    sum = next;
    count++;
  }
  return count;
}

/** The sum of `values` over the phrases from `from` to `to` in `order`. */
function sumOver(order: readonly number[], values: readonly number[], from: number, to: number) {
  let sum = 0;
  for (let i = from; i < to; i++) sum += values[order[i] as number] as number;
  return sum;
}

/**
 * The best `limit` chunks holding one of the phrases not left out, ranked by
 * the `scoring` phrases. The `+` keeps the id list a filter on one pass over
 * the match: as a constraint FTS5 would run the whole match again for each id.
 */
function rankedCandidates(
  db: Database.Database,
  weights: readonly number[],
  scoring: readonly string[],
  byCommonness: readonly number[],
  phrases: readonly string[],
  leftOut: number,
  limit: number,
): RankedRow[] {
  const kept = byCommonness.slice(leftOut).map((index) => phrases[index] as string);
  if (scoring.length === kept.length) {
    // Every phrase scored is a candidate's: the match itself is the filter.
    return cachedStatement(
      db,
      `SELECT rowid AS id, bm25(chunks_fts, ?, ?, ?, ?) AS rank FROM chunks_fts
       WHERE chunks_fts MATCH ? ORDER BY rank, rowid LIMIT ?`,
    ).all(...weights, kept.join(" OR "), limit) as RankedRow[];
  }
  const match = scoring.join(" OR ");
  return cachedStatement(
    db,
    `SELECT rowid AS id, bm25(chunks_fts, ?, ?, ?, ?) AS rank FROM chunks_fts
     WHERE chunks_fts MATCH ?
       AND +rowid IN (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?)
     ORDER BY rank, rowid LIMIT ?`,
  ).all(...weights, match, kept.join(" OR "), limit) as RankedRow[];
}

/** Whether a phrase held by `hits` chunks adds no more than FTS5's floor of 1e-6 IDF to a score. */
function addsNothing(rows: number, hits: number): boolean {
  return hits === 0 || Math.log((rows - hits + 0.5) / (hits + 0.5)) <= 0;
}

/** FTS5's IDF: log((N − n + 0.5) / (n + 0.5)), and 1e-6 where that is not above 0. */
function idf(rows: number, hits: number): number {
  const value = Math.log((rows - hits + 0.5) / (hits + 0.5));
  return value > 0 ? value : 1e-6;
}
