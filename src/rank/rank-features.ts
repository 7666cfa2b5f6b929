import { type FileRoles, fileRoleOf, rolesAskedFor } from "../core/file-roles.js";
import { SYMBOL_KINDS } from "../core/graph.js";
import type { RankFeatures, RankSignals } from "../core/rank-signals.js";
import type { ChunkKind } from "../core/types.js";
import { fileStemOf, fileWordsOf } from "../text/named-files.js";
import { taskTitle } from "../text/task-terms.js";
import { taskStems } from "../text/word-stems.js";
import { namedByTaskWords } from "./name-words.js";

/** What the task says about files, worked out once per query. */
export interface TaskFacts {
  readonly asked: ReadonlySet<string>;
  readonly lowered: string;
  readonly words: ReadonlySet<string>;
  /** How much co-change counts at this budget (all of it up to 2,000 tokens). */
  readonly coChangeScale: number;
  /** The task's words as stems, which a comment's first word is matched against. */
  readonly stems: ReadonlySet<string>;
  /** What each file is for (the project's own marks included). */
  readonly roleOf: FileRoles;
}

/**
 * Past a 2,000-token budget co-change counts less, with the square root of the
 * budget: the few files a small budget shows must be the likely ones, while a
 * large one holds the text search's breadth, which partners only crowd out
 * (chosen over flat and linear falls by leaving each commit-benchmark
 * repository out in turn).
 */
const CO_CHANGE_FULL_BUDGET = 2000;

export function taskFacts(task: string, budget: number, roleOf: FileRoles = fileRoleOf): TaskFacts {
  return {
    asked: rolesAskedFor(taskTitle(task)),
    lowered: task.toLowerCase(),
    words: fileWordsOf(task),
    coChangeScale: Math.sqrt(Math.min(1, CO_CHANGE_FULL_BUDGET / Math.max(1, budget))),
    stems: taskStems(task),
    roleOf,
  };
}

const DEFINITION_KINDS: ReadonlySet<string> = new Set<string>(SYMBOL_KINDS);

/** Where a fragment is: what its features read besides its signals. */
export interface FragmentPlace {
  readonly path: string;
  readonly kind: ChunkKind;
  readonly lines: number;
  /** The symbol it defines or is part of ("" when none). */
  readonly symbol: string;
}

/** A fragment's features: its signals, and what its path, kind and symbol say against the task. */
export function rankFeatures(
  signals: RankSignals,
  where: FragmentPlace,
  facts: TaskFacts,
): RankFeatures {
  const path = pathFeatures(where.path, facts);
  const rank = signals.keywordRank;
  return {
    keyword: signals.keyword ?? 0,
    keywordRank: rank === undefined ? 0 : 1 / (1 + rank),
    graph: signals.graph ?? 0,
    reached: signals.reached ?? 0,
    coChange: (signals.coChange ?? 0) * facts.coChangeScale,
    message: signals.message ?? 0,
    otherRole: path.otherRole,
    askedRole: path.askedRole,
    namedFile: path.namedFile,
    definition: DEFINITION_KINDS.has(where.kind) ? 1 : 0,
    size: Math.log2(1 + Math.max(1, where.lines)) / 10,
    fileKeyword: signals.fileKeyword ?? 0,
    fileHits: Math.log2(1 + (signals.fileHits ?? 0)) / 4,
    pathWords: path.pathWords,
    symbolNamed: symbolNamed(where.symbol, facts.words) ? 1 : 0,
    vector: signals.vector ?? 0,
    located: signals.located ?? 0,
    docLead: signals.docLead ?? 0,
    nameWords: namedByTaskWords(where.symbol, facts.stems) ? 1 : 0,
    focused: signals.focused ?? 0,
    recentChanges: signals.recentChanges ?? 0,
  };
}

/** What a path says against the task: the same for every fragment of one file. */
interface PathFeatures {
  readonly otherRole: number;
  readonly askedRole: number;
  readonly namedFile: number;
  readonly pathWords: number;
}

/**
 * Kept per task (each ranking's facts) and path: a query's hundred hits lie in
 * a few dozen files, and reading a path's role and folders again for each hit
 * cost about 0.2 ms a query.
 */
const pathsRead = new WeakMap<TaskFacts, Map<string, PathFeatures>>();

function pathFeatures(path: string, facts: TaskFacts): PathFeatures {
  let read = pathsRead.get(facts);
  if (!read) {
    read = new Map();
    pathsRead.set(facts, read);
  }
  const known = read.get(path);
  if (known) return known;
  const role = facts.roleOf(path);
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  const nameInTask = facts.lowered.includes(name);
  const features: PathFeatures = {
    otherRole: role !== "source" && !facts.asked.has(role) && !nameInTask ? 1 : 0,
    askedRole: role !== "source" && (facts.asked.has(role) || nameInTask) ? 1 : 0,
    namedFile: facts.words.has(fileStemOf(path)) ? 1 : 0,
    pathWords: Math.min(3, foldersNamed(path, facts.lowered)) / 3,
  };
  read.set(path, features);
  return features;
}

/**
 * Folders on the path the task names (`fix(runtime-core):` and
 * `packages/runtime-core/src/…`); the file's own name is namedFile's.
 */
function foldersNamed(path: string, lowered: string): number {
  const parts = path.toLowerCase().split("/");
  parts.pop();
  let named = 0;
  for (const part of new Set(parts)) if (part.length >= 3 && namesWord(lowered, part)) named++;
  return named;
}

/** `word` occurs in `text` with no letter or digit either side. */
function namesWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = text.charCodeAt(at - 1);
    const after = text.charCodeAt(at + word.length);
    if (!isWordCode(before) && !isWordCode(after)) return true;
  }
  return false;
}

function isWordCode(code: number): boolean {
  // NaN (past either end) is not a word character.
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 122);
}

/** The task names the fragment's symbol (its last part: `Router.add` → `add`) as a word. */
function symbolNamed(symbol: string, words: ReadonlySet<string>): boolean {
  if (symbol.length === 0) return false;
  const last = symbol.slice(symbol.lastIndexOf(".") + 1).toLowerCase();
  return last.length >= 3 && words.has(last);
}
