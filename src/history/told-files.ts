import { withinPaths } from "../core/request-paths.js";
import type { TextBackend, TextHit } from "../core/text-backend.js";
import type { StoredChunk } from "../core/types.js";
import type { MessageSupport } from "./message-support.js";

/**
 * Files past commits worded like the task changed that no hit is in: at most
 * this many join (on the commit benchmark the figures stop changing from 10 on:
 * 30 matched commits change few more files).
 */
const TOLD_FILES = 10;

/**
 * The files the history's messages support most that no keyword hit is in,
 * each as its chunk holding most of the task's terms (its first on a tie), as
 * hits ranked after the last: the learned ranking then weighs their message
 * support like any hit's, and shows the commits as their reasons. Text search
 * cannot find a file whose words are not the task's; the commits that changed
 * it may have been worded like it.
 */
export async function toldFiles(
  text: TextBackend,
  hits: readonly TextHit[],
  messages: ReadonlyMap<string, MessageSupport>,
  terms: readonly string[],
  paths: readonly string[] | undefined,
): Promise<TextHit[]> {
  const hitFiles = new Set(hits.map(({ chunk }) => `${chunk.resourceId}\0${chunk.path}`));
  // A request limited to some paths gets files under them only, as its hits are.
  const chosen = [...messages]
    .filter(
      ([key, { support }]) =>
        support > 0 && !hitFiles.has(key) && withinPaths(key.slice(key.indexOf("\0") + 1), paths),
    )
    .sort((a, b) => b[1].support - a[1].support || (a[0] < b[0] ? -1 : 1))
    .slice(0, TOLD_FILES);
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
