import { indexTerms } from "../text/code-tokenizer.js";
import { stemOf } from "../text/word-stems.js";

/** An identifier as a definition is named: a symbol's last part (`Router.add` → `add`). */
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * Whether the task spells out the fragment's compound name in words: "where
 * are routes parsed from paths" names `parseRoutePath`, "split the arg
 * string" `split_arg_string`. A task written in prose rarely writes the
 * identifier, but says what it is made of; a name whose every word the task
 * uses (stemmed, so "parsed" is "pars") is likelier what it is about than one
 * sharing a word or two. Single words are `symbolNamed`'s: matched by stem,
 * they name too much ("routes", `route`).
 */
export function namedByTaskWords(symbol: string, stems: ReadonlySet<string>): boolean {
  if (stems.size < 2 || symbol.length === 0) return false;
  const words = wordStemsOf(symbol);
  if (words === null) return false;
  for (const word of words) if (!stems.has(word)) return false;
  return true;
}

/**
 * Stems of a compound name's words, null for a name of one word or not an
 * identifier; kept, as every query ranks the same few thousand names again.
 */
const nameStems = new Map<string, readonly string[] | null>();
const MAX_NAMES = 20_000;

function wordStemsOf(symbol: string): readonly string[] | null {
  let words = nameStems.get(symbol);
  if (words !== undefined) return words;
  const last = symbol.slice(symbol.lastIndexOf(".") + 1);
  // indexTerms gives the whole name first, then its words when it is compound.
  const terms = IDENTIFIER.test(last) ? indexTerms(last) : [];
  words = terms.length < 3 ? null : terms.slice(1).map(stemOf);
  if (nameStems.size >= MAX_NAMES) nameStems.clear();
  nameStems.set(symbol, words);
  return words;
}
