import type { GraphFile, LoadedGraph } from "../core/graph.js";
import type { TextHit } from "../core/text-backend.js";
import type { StoredChunk } from "../core/types.js";
import { indexTerms } from "../text/code-tokenizer.js";
import { MAX_MENTION_DEFINITIONS } from "./compound-names.js";

/** How much each kind of evidence puts on a node before the walk; they add up. */
const KEYWORD_WEIGHT = 1;
const MENTION_WEIGHT = 1;
const SPLIT_NAME_WEIGHT = 0.4;
const FOCUS_WEIGHT = 2;
/** An identifier as written in code: compound (camelCase, snake_case), or called. */
const IDENTIFIER = /[A-Za-z_$][\w$]*(?:\(\))?/g;
export const COMPOUND = /[a-z][A-Z]|[A-Za-z]_[A-Za-z]|\(\)$|^[A-Z][a-z]+[A-Z]/;

/** Keyword hits' definitions, weighted by score and rank. */
export function keywordSeeds(graph: LoadedGraph, hits: readonly TextHit[]): Map<number, number> {
  const seeds = new Map<number, number>();
  const best = Math.max(1e-9, ...hits.map((hit) => hit.score));
  hits.forEach((hit, rank) => {
    const nodes = chunkNodes(graph, hit.chunk);
    const weight = (KEYWORD_WEIGHT * hit.score) / best / (1 + rank / 10);
    for (const node of nodes) add(seeds, node, weight / nodes.length);
  });
  return seeds;
}

/**
 * The nodes a chunk is about: the outermost definitions starting in it, else
 * the innermost one around its first line (or its file); none when the chunk's
 * file is not in the graph.
 */
export function chunkNodes(graph: LoadedGraph, chunk: StoredChunk): number[] {
  const file = graph.filesAt(chunk.path).find((f) => f.resourceId === chunk.resourceId);
  if (!file) return [];
  // Definitions are in line order: those starting in the chunk are found by halving, not
  // by reading every one (a declaration file of thousands, for each of a query's hits).
  const { definitions } = file;
  let low = 0;
  let high = definitions.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const node = graph.nodes[definitions[middle] as number];
    if (node && node.startLine < chunk.startLine) low = middle + 1;
    else high = middle;
  }
  const starting: number[] = [];
  for (let at = low; at < definitions.length; at++) {
    const id = definitions[at] as number;
    const node = graph.nodes[id];
    if (!node) continue;
    if (node.startLine > chunk.endLine) break;
    const parent = graph.nodes[node.parent];
    if (!parent || parent.kind === "file" || parent.startLine < chunk.startLine) starting.push(id);
  }
  if (starting.length > 0) return starting;
  const fileIndex = graph.nodes[file.node]?.file ?? -1;
  return [graph.nodeAtLine(fileIndex, chunk.startLine)];
}

/**
 * Definitions the task names: identifiers written as code (`parseArgs`,
 * `get_value`, `close()`, the names in `c.text`), and compound names all of
 * whose words the task uses ("parse the args" for `parseArgs`).
 */
export function mentionSeeds(graph: LoadedGraph, task: string): Map<number, number> {
  const seeds = new Map<number, number>();
  const code = codeSpans(task);
  for (const match of task.matchAll(IDENTIFIER)) {
    const word = match[0];
    if (!COMPOUND.test(word) && !(word.length > 1 && inSpans(code, match.index, word.length)))
      continue;
    const found = graph.definitionsNamed(word.replace(/\(\)$/, ""));
    if (found.length === 0 || found.length > MAX_MENTION_DEFINITIONS) continue;
    for (const node of found) add(seeds, node, MENTION_WEIGHT / found.length);
  }
  const words = new Set(indexTerms(task));
  for (const word of words) {
    for (const { parts, nodes } of graph.compoundNamesFirst(word, words)) {
      if (!allIn(parts, words)) continue;
      for (const node of nodes) add(seeds, node, SPLIT_NAME_WEIGHT / nodes.length);
    }
  }
  return seeds;
}

/** Every part past the first two (the words that led to the name) is among `words`. */
function allIn(parts: readonly string[], words: ReadonlySet<string>): boolean {
  for (let index = 2; index < parts.length; index++)
    if (!words.has(parts[index] as string)) return false;
  return true;
}

/** The request's focus: files or folders (their definitions), else symbols by name. */
export function focusSeeds(graph: LoadedGraph, focus: readonly string[]): Map<number, number> {
  const seeds = new Map<number, number>();
  for (const entry of focus) {
    const { files, definitions } = focusedBy(graph, entry);
    const nodes =
      files.length > 0
        ? files.flatMap((file) =>
            file.definitions.length > 0 ? topLevel(graph, file.definitions) : [file.node],
          )
        : definitions;
    for (const node of nodes) add(seeds, node, FOCUS_WEIGHT / nodes.length);
  }
  return seeds;
}

/** What the request's focus covers: whole files (file and folder entries) and definitions (symbol entries). */
export interface FocusArea {
  readonly files: readonly GraphFile[];
  readonly definitions: readonly number[];
}

export function focusArea(graph: LoadedGraph, focus: readonly string[]): FocusArea {
  const files: GraphFile[] = [];
  const definitions: number[] = [];
  for (const entry of focus) {
    const found = focusedBy(graph, entry);
    files.push(...found.files);
    definitions.push(...found.definitions);
  }
  return { files, definitions };
}

/**
 * One focus entry: the file at that path or the files under that folder; else
 * the definitions of that name, written plain (`url_for`, `parse()`) or with its
 * owner as a language writes it (`Session.request`, `Client::send`, `Foo#bar`).
 */
function focusedBy(graph: LoadedGraph, entry: string): FocusArea {
  const path = entry.replace(/^\.\//, "").replace(/\/$/, "");
  const files = graph.filesAt(path).length > 0 ? graph.filesAt(path) : graph.filesUnder(path);
  if (files.length > 0) return { files, definitions: [] };
  const name = entry.replace(/\(\)$/, "");
  const plain = graph.definitionsNamed(name);
  if (plain.length > 0) return { files: [], definitions: plain };
  const qualified = /^(.+?)(?:\.|::|#)([^.:#]+)$/.exec(name);
  if (!qualified) return { files: [], definitions: [] };
  const owners = (qualified[1] as string).split(/\.|::|#/);
  const definitions = graph
    .definitionsNamed(qualified[2] as string)
    .filter((node) => ownedBy(graph, node, owners));
  return { files: [], definitions };
}

/** The definition's enclosing definitions, innermost first, are named by `owners`' last parts. */
function ownedBy(graph: LoadedGraph, node: number, owners: readonly string[]): boolean {
  let parent = graph.nodes[graph.nodes[node]?.parent ?? -1];
  for (let at = owners.length - 1; at >= 0; at--) {
    if (!parent || parent.kind === "file") return at < owners.length - 1;
    if (parent.name !== owners[at] && !parent.name.endsWith(`.${owners[at]}`)) return false;
    parent = graph.nodes[parent.parent];
  }
  return true;
}

/** Focus entries that name neither a file, a folder nor a definition. */
export function unknownFocus(graph: LoadedGraph, focus: readonly string[]): string[] {
  return focus.filter((entry) => focusSeeds(graph, [entry]).size === 0);
}

/**
 * A request's focus entries that led nowhere: every one while the graph is off
 * (`graph` null), none when it cannot be read (the answer stands without it).
 */
export async function focusLeftOut(
  focus: readonly string[],
  graph: (() => Promise<LoadedGraph>) | null,
): Promise<string[]> {
  if (focus.length === 0) return [];
  if (!graph) return [...focus];
  return graph().then(
    (loaded) => unknownFocus(loaded, focus),
    () => [],
  );
}

export function mergeSeeds(...parts: readonly Map<number, number>[]): Map<number, number> {
  const merged = new Map<number, number>();
  for (const part of parts) for (const [node, weight] of part) add(merged, node, weight);
  return merged;
}

function topLevel(graph: LoadedGraph, definitions: readonly number[]): number[] {
  return definitions.filter((id) => graph.nodes[graph.nodes[id]?.parent ?? -1]?.kind === "file");
}

/** Where the task writes code between backticks (`c.text`, `parse(args)`): [start, end) pairs. */
export function codeSpans(task: string): [number, number][] {
  return [...task.matchAll(/`([^`\n]+)`/g)].map((match) => [
    match.index + 1,
    match.index + match[0].length - 1,
  ]);
}

export function inSpans(
  spans: readonly [number, number][],
  index: number,
  length: number,
): boolean {
  return spans.some(([start, end]) => index >= start && index + length <= end);
}

function add(seeds: Map<number, number>, node: number, weight: number): void {
  if (node < 0) return;
  seeds.set(node, (seeds.get(node) ?? 0) + weight);
}
