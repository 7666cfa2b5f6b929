import { withinPaths } from "../core/request-paths.js";
import type { TextBackend, TextHit } from "../core/text-backend.js";
import type { StoredChunk } from "../core/types.js";
import type { CoChangeSupport } from "./co-change-support.js";
import type { MessageSupport } from "./message-support.js";

/**
 * Files past commits worded like the task changed that no hit is in: at most
 * this many join (on the commit benchmark the figures stop changing from 10 on:
 * 30 matched commits change few more files).
 */
const TOLD_FILES = 10;

/**
 * Files that change together with the best hits' files that no hit is in: at
 * most this many join. Of 5, 10 and 20 on the commit benchmark (with history),
 * 20 had the best or a level mean of the six figures on every repository; the
 * three other than poetry were level at each count.
 */
const PARTNER_FILES = 20;

/**
 * The files the history's messages support most that no keyword hit is in,
 * each as its chunk holding most of the task's terms (its first on a tie), as
 * hits ranked after the last: the learned ranking then weighs their message
 * support like any hit's, and shows the commits as their reasons. Text search
 * cannot find a file whose words are not the task's; the commits that changed
 * it may have been worded like it.
 */
export function toldFiles(
  text: TextBackend,
  hits: readonly TextHit[],
  messages: ReadonlyMap<string, MessageSupport>,
  terms: readonly string[],
  paths: readonly string[] | undefined,
): Promise<TextHit[]> {
  const support = new Map([...messages].map(([key, { support }]) => [key, support]));
  return filesNoHitHolds(text, hits, support, terms, paths, TOLD_FILES);
}

/**
 * The same for the files that most often change together with the best hits'
 * files: their co-change support weighs them as the messages' does the told
 * files. A commit's other files often share none of its words.
 */
export function partnerFiles(
  text: TextBackend,
  hits: readonly TextHit[],
  partners: CoChangeSupport,
  terms: readonly string[],
  paths: readonly string[] | undefined,
): Promise<TextHit[]> {
  // Only partners seen together more than once: one commit is no pattern.
  const support = new Map([...partners.support].filter(([key]) => partners.repeated.has(key)));
  return filesNoHitHolds(text, hits, support, terms, paths, PARTNER_FILES);
}

/** The `count` best-supported files no hit is in, each as its chunk holding most of the task's terms. */
async function filesNoHitHolds(
  text: TextBackend,
  hits: readonly TextHit[],
  supportOf: ReadonlyMap<string, number>,
  terms: readonly string[],
  paths: readonly string[] | undefined,
  count: number,
): Promise<TextHit[]> {
  const hitFiles = new Set(hits.map(({ chunk }) => `${chunk.resourceId}\0${chunk.path}`));
  // A request limited to some paths gets files under them only, as its hits are.
  const chosen = [...supportOf]
    .filter(
      ([key, support]) =>
        support > 0 && !hitFiles.has(key) && withinPaths(key.slice(key.indexOf("\0") + 1), paths),
    )
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, count);
  const told: TextHit[] = [];
  for (const [key] of chosen) {
    const [resourceId = "", path = ""] = key.split("\0");
    const chunks = await text.getDocumentChunks(resourceId, path);
    let best: StoredChunk | null = null;
    let bestCount = -1;
    for (const chunk of chunks) {
      const lowered = chunk.content.toLowerCase();
      const count = terms.filter((term) => lowered.includes(term)).length;
      if (count > bestCount) {
        best = chunk;
        bestCount = count;
      }
    }
    if (best) told.push({ chunk: best, score: 0 });
  }
  return told;
}
