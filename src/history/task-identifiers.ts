import type { CommitIdentifiers, TaskIdentifier, TemporalBackend } from "../core/history.js";
import { indexTerms, queryTerms } from "../text/code-tokenizer.js";
import { repeatedTitleTerms } from "../text/task-terms.js";

/**
 * Words to code, learned from the project's history: which identifiers the
 * commits whose messages use a word changed, more often than those
 * identifiers change at all. A task saying "session cookie" then also
 * searches for `setSignedCookie` when past commits about cookies kept
 * touching it, though the task never names it.
 */

/** The newest commits read: not merges, of at most `co_change_max_files` files, diffs read and not sweeps. */
export const VOCABULARY_WINDOW = 2000;
/**
 * Identifiers a task is expanded with: each is searched for as one more of its
 * words, where a rare identifier weighs as much as the task's rarest word, so
 * only a few.
 * Of 2, 3 and 5 on the commit benchmark (with history), 2 gave the best mean
 * file@8k and line@8k over the four repositories; leaving each out in turn
 * chose 3 twice and 2 twice.
 */
export const EXPANSION_IDENTIFIERS = 2;
/**
 * Fewer commits than this say too little: in this project's own history (249
 * commits) "incremental indexing" led to `fromEntries` and `resource_id`. The
 * commit benchmark's windows hold 553 to 2,000.
 */
export const MIN_WINDOW = 500;
/** A word and an identifier seen together once say nothing. */
const MIN_TOGETHER = 2;
/** A word in more than this share of the commits ("fix", "add") says nothing either. */
const MAX_WORD_SHARE = 0.1;
const WORD = /^[a-z][a-z0-9]{2,}$/;

/**
 * The commits associations are read from: what each touched, how many touched
 * each identifier, and which use each word of the code tokenizer's (the word
 * itself: a stem match made rare words' associations common ones, and on the
 * commit benchmark file@8k fell on three repositories of four).
 */
export interface VocabularyWindow {
  readonly identifiersOf: ReadonlyMap<number, readonly string[]>;
  readonly touching: ReadonlyMap<string, number>;
  readonly withWord: ReadonlyMap<string, readonly number[]>;
}

/**
 * Built once per engine and history read. The words are indexed here, not
 * looked up in the full-text index per query: its tokenizer splits
 * `runtime-core` where the task's terms keep `runtimecore`, and a lookup that
 * read every matching message cost 10–20 ms a query (vuejs/core).
 */
export function vocabularyWindow(commits: readonly CommitIdentifiers[]): VocabularyWindow {
  const identifiersOf = new Map<number, readonly string[]>();
  const touching = new Map<string, number>();
  const withWord = new Map<string, number[]>();
  for (const { id, identifiers, message } of commits) {
    identifiersOf.set(id, identifiers);
    for (const name of identifiers) touching.set(name, (touching.get(name) ?? 0) + 1);
    for (const word of new Set(indexTerms(message))) {
      const ids = withWord.get(word);
      if (ids) ids.push(id);
      else withWord.set(word, [id]);
    }
  }
  return { identifiersOf, touching, withWord };
}

/**
 * The identifiers the task's words lead to, best first: each word (in at most
 * a tenth of the window's commits) adds, for every identifier its commits
 * touched at least twice, the word's rarity (log N/df) times how much more
 * often the identifier changes with the word than at all (pointwise mutual
 * information, when positive).
 */
export function taskIdentifiers(
  window: VocabularyWindow,
  terms: readonly string[],
  limit: number,
): TaskIdentifier[] {
  const size = window.identifiersOf.size;
  if (size < MIN_WINDOW || limit <= 0) return [];
  const found = new Map<string, { score: number; words: string[] }>();
  for (const word of new Set(terms)) {
    if (!WORD.test(word)) continue;
    const commits = window.withWord.get(word) ?? [];
    const df = commits.length;
    if (df === 0 || df > size * MAX_WORD_SHARE) continue;
    const together = new Map<string, number>();
    for (const id of commits)
      for (const name of window.identifiersOf.get(id) ?? [])
        together.set(name, (together.get(name) ?? 0) + 1);
    const rarity = Math.log(size / df);
    for (const [name, count] of together) {
      if (count < MIN_TOGETHER) continue;
      const mutual = Math.log((count * size) / (df * (window.touching.get(name) ?? count)));
      if (mutual <= 0) continue;
      const entry = found.get(name) ?? { score: 0, words: [] };
      entry.score += rarity * mutual;
      entry.words.push(word);
      found.set(name, entry);
    }
  }
  return [...found]
    .map(([name, { score, words }]) => ({ name, score, words }))
    .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, limit);
}

/**
 * The task's search terms, those of the identifiers its words lead to
 * (lower-cased, as the index holds them; none without history), and its
 * title's terms again (`taskSearchTerms`).
 */
export async function expandedTerms(
  temporal: TemporalBackend | undefined,
  task: string,
): Promise<{ terms: string[]; expansion: TaskIdentifier[] }> {
  const own = queryTerms(task);
  const expansion = temporal ? await temporal.taskIdentifiers(own, EXPANSION_IDENTIFIERS) : [];
  const all = new Set(own);
  for (const { name } of expansion) all.add(name.toLowerCase());
  return { terms: [...all, ...repeatedTitleTerms(task, own)], expansion };
}

/** Why a chunk is there, for `--explain`: the expansion's identifiers it holds. */
export function expansionReasons(
  identifiers: readonly TaskIdentifier[],
  chunk: { readonly content: string },
): string[] {
  return identifiers
    .filter(({ name }) => chunk.content.includes(name))
    .map(
      ({ name, words }) =>
        `holds ${name}, which past commits using the task's words (${words.join(", ")}) changed`,
    );
}
