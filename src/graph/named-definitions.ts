import type { LoadedGraph } from "../core/graph.js";
import { MAX_MENTION_DEFINITIONS } from "./compound-names.js";
import { COMPOUND, codeSpans, inSpans } from "./graph-seeds.js";

/** A definition the task names, with the lines it spans now. */
export interface NamedDefinition {
  readonly resourceId: string;
  readonly path: string;
  readonly name: string;
  readonly startLine: number;
  readonly endLine: number;
}

/** More than this and the task is about many things, not one definition's history. */
const MAX_NAMED = 4;
/**
 * A plain word ("flush", "render") names definitions only where the project has at
 * most this many: each one's last change is then shown. Of 2 and 4, 4 answered more
 * why-questions without a file on 12 of the twenty development repositories and
 * fewer on none (bench/why-questions.ts: 72.8 → 75.4 %).
 */
const MAX_PLAIN_WORD_DEFINITIONS = 4;
/** The question's own words, whatever the project defines under them. */
const QUESTION_WORDS = new Set(
  "why when who what which how was were is are did does do has have had the this that changed change changes added removed introduced made written renamed moved replaced reverted dropped history blame commit last since".split(
    " ",
  ),
);
/**
 * What may be a file as a task writes it (`src/jv.c`, `app.py`); it is one when
 * the project has a file of that path or ending so (`Flask.url_for` is not).
 */
const FILE_WORD = /(?:[\w.-]+\/)*[\w-]+(?:\.[\w-]+)*\.[A-Za-z]\w{0,9}\b/g;
/** A name, or one qualified by its owner: `jv_parse`, `Flask.url_for`, `close()`. */
const NAME = /[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?/g;
/** Shorter names (`hc`, `io`) count only where the task names their file too. */
const MIN_NAME = 3;

/**
 * The definitions a question about history names, as in "why was url_for in
 * src/flask/app.py changed": a name with a definition in a file the task names
 * (any name, since the file says which), else a name written as code (compound,
 * called, between backticks) with few definitions in the project, or a plain
 * word that names at most four; an operator (`operator==`) as a name written as
 * code. `Owner.name` keeps the definitions inside `Owner` when there are any.
 */
export function namedDefinitions(graph: LoadedGraph, task: string): NamedDefinition[] {
  const fileSet = projectFiles(
    graph,
    [...task.matchAll(FILE_WORD)].map((match) => match[0]),
  );
  // The file words' own parts (`jv` of `jv.c`) are not names.
  const text = task.replace(FILE_WORD, (word) =>
    fileSet.has(word) ? " ".repeat(word.length) : word,
  );
  const files = [...fileSet];
  const spans = codeSpans(text);
  const found = new Map<number, NamedDefinition>();
  const add = (ids: readonly number[]) => {
    for (const id of ids) {
      const node = graph.nodes[id];
      const file = node ? graph.files[node.file] : undefined;
      if (!node || !file || found.has(id)) continue;
      found.set(id, {
        resourceId: file.resourceId,
        path: file.path,
        name: node.name,
        startLine: node.startLine,
        endLine: node.endLine,
      });
    }
  };
  const inNamedFiles = (ids: readonly number[]) =>
    ids.filter((id) => {
      const path = pathOf(graph, id);
      return files.some((file) => path === file || path.endsWith(`/${file}`));
    });
  for (const nodes of operatorsNamed(graph, text)) {
    const inFiles = inNamedFiles(nodes);
    add(inFiles.length > 0 ? inFiles : nodes.length <= MAX_MENTION_DEFINITIONS ? nodes : []);
  }
  for (const match of text.matchAll(NAME)) {
    if (found.size >= MAX_NAMED) break;
    const parts = match[0].replace(/\(\)$/, "").split(".");
    const name = parts.at(-1) ?? "";
    if (name.length < 2 || QUESTION_WORDS.has(name.toLowerCase())) continue;
    let nodes = graph.definitionsNamed(name).filter((id) => graph.nodes[id]?.kind !== "file");
    const owner = parts.at(-2);
    if (owner) {
      const owned = nodes.filter(
        (id) => graph.nodes[graph.nodes[id]?.parent ?? -1]?.name === owner,
      );
      if (owned.length > 0) nodes = owned;
    }
    const inFiles = inNamedFiles(nodes);
    const writtenAsCode =
      COMPOUND.test(match[0]) ||
      inSpans(spans, match.index, match[0].length) ||
      owner !== undefined;
    const most = writtenAsCode ? MAX_MENTION_DEFINITIONS : MAX_PLAIN_WORD_DEFINITIONS;
    add(
      inFiles.length > 0 ? inFiles : name.length >= MIN_NAME && nodes.length <= most ? nodes : [],
    );
  }
  return [...found.values()].slice(0, MAX_NAMED);
}

/**
 * Operators as a task writes them: C++'s `operator+=`, `operator()`, `operator[]`,
 * and Swift's or Ruby's bare `==`, `<=>`, `[]`, which no word pattern reads.
 */
const OPERATOR =
  /\boperator\s*(?:\(\)|\[\]|[^\w\s()[\]`'"]{1,3})|(?<![\w\])])(?:\[\]=?|[=!<>+\-*%&|^~]{2,3})(?![\w(])/g;

/** The definitions of the operators the task writes, each operator's once. */
function operatorsNamed(graph: LoadedGraph, text: string): (readonly number[])[] {
  const seen = new Set<string>();
  const named: (readonly number[])[] = [];
  for (const match of text.matchAll(OPERATOR)) {
    const name = match[0].replace(/\s+/g, "");
    if (seen.has(name)) continue;
    seen.add(name);
    const nodes = graph.definitionsNamed(name).filter((id) => graph.nodes[id]?.kind !== "file");
    if (nodes.length > 0) named.push(nodes);
  }
  return named;
}

function pathOf(graph: LoadedGraph, node: number): string {
  const file = graph.nodes[node]?.file;
  return file === undefined ? "" : (graph.files[file]?.path ?? "");
}

/** The words that are the project's files: a path, or a path's last parts. */
function projectFiles(graph: LoadedGraph, words: readonly string[]): Set<string> {
  const found = new Set<string>();
  if (words.length === 0) return found;
  for (const file of graph.files) {
    for (const word of words) {
      if (file.path === word || file.path.endsWith(`/${word}`)) found.add(word);
    }
  }
  return found;
}
