import type { CompoundName } from "../core/graph.js";
import { indexTerms } from "../text/code-tokenizer.js";

/** A name with more definitions than this names nothing in particular. */
export const MAX_MENTION_DEFINITIONS = 8;
/** Names shorter than this are not split into the words a task may spell them with. */
const MIN_COMPOUND_LENGTH = 4;

/**
 * The words of a definition name specific enough to seed a walk (at most
 * MAX_MENTION_DEFINITIONS definitions, at least four characters, two words or
 * more); null for any other name.
 */
export function compoundParts(name: string, definitions: number): string[] | null {
  if (definitions > MAX_MENTION_DEFINITIONS || name.length < MIN_COMPOUND_LENGTH) return null;
  // indexTerms gives the whole name first, then its parts when it is compound.
  const parts = indexTerms(name).slice(1);
  return parts.length < 2 ? null : parts;
}

/** Compound names by their first word, then their second, each list in the order `names` gave them. */
export type CompoundIndex = Map<string, Map<string, CompoundName[]>>;

/**
 * The compound names of a graph by their first two words: a task's words
 * then lead to the few names they may spell out, instead of every name being
 * split and checked on every query (a common first word, "get", starts
 * thousands of names; the second word narrows them to a handful).
 */
export function compoundIndex(names: Iterable<[string, readonly number[]]>): CompoundIndex {
  const index: CompoundIndex = new Map();
  for (const [name, nodes] of names) {
    const parts = compoundParts(name, nodes.length);
    if (!parts) continue;
    const [first, second] = parts as [string, string];
    let bySecond = index.get(first);
    if (!bySecond) {
      bySecond = new Map();
      index.set(first, bySecond);
    }
    const entries = bySecond.get(second);
    if (entries) entries.push({ parts, nodes });
    else bySecond.set(second, [{ parts, nodes }]);
  }
  return index;
}

/**
 * The names of several second-word lists merged back into the graph's name
 * order (by each name's first node, as `names()` gives them).
 */
export function inNameOrder(lists: readonly (readonly CompoundName[])[]): CompoundName[] {
  const merged = lists.flat();
  if (lists.length > 1) merged.sort((a, b) => (a.nodes[0] as number) - (b.nodes[0] as number));
  return merged;
}
