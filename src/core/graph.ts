/** The code graph: what each file defines, refers to and imports, and queries over it. */

/** Kinds of definition, in the order `ctx symbols --kind` lists them. */
export const SYMBOL_KINDS = [
  "function",
  "method",
  "class",
  "interface",
  "type",
  "enum",
  "constant",
  "module",
  "namespace",
  "impl",
] as const;

export type SymbolKind = (typeof SYMBOL_KINDS)[number];

export type ReferenceKind = "call" | "import" | "type" | "inherit" | "use";

export interface GraphDefinition {
  readonly name: string;
  readonly kind: SymbolKind;
  readonly startLine: number;
  readonly endLine: number;
  /** Name of the enclosing definition ("" at top level). */
  readonly parent: string;
  /** The declaration's first line(s), up to its body. */
  readonly signature: string;
  /**
   * Its doc, cut at `MAX_DOC_CHARS`. Extraction sets a Python docstring when
   * there is one; a look-up (`ctx symbols`, `find_symbol`) puts the comment
   * above the definition, read from the stored lines, in its place. Indexes
   * written before kept that comment here too. Loaded graphs leave it out.
   */
  readonly doc?: string;
}

/** Every use of one name in a file, of one kind. */
export interface GraphReference {
  readonly name: string;
  readonly kind: ReferenceKind;
  /** Lines of the uses, ascending, each once. */
  readonly lines: readonly number[];
  /**
   * A call made on something (`obj.name(…)`, `this.name(…)`, `Type::name(…)`):
   * it may reach a method that no import names, where a bare call cannot.
   */
  readonly member?: boolean;
}

/**
 * Where an import may lead: a file path (`exact`), a path a file ends with
 * (`suffix`, for imports named from a source root the index cannot know), a
 * folder whose files are the package (`folder`, Go), or a JavaScript or
 * TypeScript module path (`module`: the files its extensions and index files
 * make of it, in the order a bundler tries them).
 */
export interface ImportTarget {
  readonly path: string;
  readonly match: "exact" | "suffix" | "folder" | "module";
}

export interface GraphImport {
  /** The module as written: `./util`, `os.path`, `"stdio.h"`. */
  readonly specifier: string;
  readonly line: number;
  /** Names brought in, where the statement lists them. */
  readonly names: readonly string[];
  /** Candidate files, most likely first; empty for packages outside the project. */
  readonly targets: readonly ImportTarget[];
  /** `export … from`: the names are passed on to this file's importers. */
  readonly reexport: boolean;
}

export interface FileGraph {
  readonly definitions: readonly GraphDefinition[];
  readonly references: readonly GraphReference[];
  readonly imports: readonly GraphImport[];
}

/** A definition as stored, with its file. */
export interface SymbolRecord extends GraphDefinition {
  readonly resourceId: string;
  readonly path: string;
}

export interface ReferenceRecord {
  readonly path: string;
  readonly line: number;
  readonly kind: ReferenceKind;
}

export interface SymbolQuery {
  /** Exact name, or a prefix ending in `*`; matched without case when no definition has the exact case. */
  readonly name: string;
  readonly kind?: SymbolKind;
  /** Keep definitions whose file path equals or starts with this. */
  readonly path?: string;
  readonly limit: number;
}

/** Which file: its resource and path. */
export interface GraphFileKey {
  readonly resourceId: string;
  readonly path: string;
}

/** One file's graph rows as stored, for building the whole graph in memory. */
export interface GraphFileRecord extends FileGraph, GraphFileKey {
  readonly language: string;
}

/**
 * Graph rows the caller already holds (a run that just wrote them), by
 * `graphFileKey`: the store gives these back instead of reading them where the
 * stored file still has this content hash.
 */
export type KnownGraphFiles = ReadonlyMap<
  string,
  { readonly hash: string; readonly record: GraphFileRecord }
>;

export function graphFileKey(file: GraphFileKey): string {
  return `${file.resourceId}\0${file.path}`;
}

/**
 * Uses in path and line order, each (path, line, kind) once: a line that calls a
 * name both bare and on something (`run(); job.run();`) is one call.
 */
export function orderedReferences(records: ReferenceRecord[]): ReferenceRecord[] {
  records.sort((a, b) =>
    a.path < b.path
      ? -1
      : a.path > b.path
        ? 1
        : a.line - b.line || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0),
  );
  return records.filter((record, index) => {
    const before = records[index - 1];
    return (
      !before ||
      before.path !== record.path ||
      before.line !== record.line ||
      before.kind !== record.kind
    );
  });
}

/** Graph queries the symbol tools and graph-aware strategies use. */
export interface GraphBackend {
  findSymbols(query: SymbolQuery): Promise<SymbolRecord[]>;
  /**
   * Uses of a name. With `definitionPath`, only those that resolve to the
   * definition in that file: in the file itself, in files that import it, or
   * anywhere when it is the only definition of the name.
   */
  findReferences(name: string, definitionPath?: string): Promise<ReferenceRecord[]>;
  /**
   * Changes whenever any file's graph rows change (written, replaced or
   * removed): what an in-memory graph and its cached rank are keyed by.
   */
  graphGeneration(): Promise<string>;
  /**
   * Every file's graph rows, in path order, with the generation they are of
   * (read together); references to names no file defines may be left out.
   * Files in `known` whose stored hash matches are not read but given back as
   * known (definitions and imports in line order).
   */
  loadGraph(known?: KnownGraphFiles): Promise<{ generation: string; files: GraphFileRecord[] }>;
  /**
   * What changed after generation `since`: every file's key, in `loadGraph`'s
   * order, and the rows of the files written since (read together); `written`
   * is null when more than `limit` files were (rebuilding is then as quick).
   */
  loadGraphSince(
    since: string,
    limit: number,
  ): Promise<{ generation: string; files: GraphFileKey[]; written: GraphFileRecord[] | null }>;
  /** The rows of every file with a reference to one of `names`, as `loadGraph` gives them. */
  loadGraphReferencing(names: readonly string[]): Promise<GraphFileRecord[]>;
}

/** A file, or a definition in it: the nodes of the graph held in memory. */
export interface GraphNode {
  readonly id: number;
  /** Index into the graph's `files`. */
  readonly file: number;
  /** The definition's name; the path for a file node. */
  readonly name: string;
  readonly kind: SymbolKind | "file";
  readonly startLine: number;
  readonly endLine: number;
  readonly signature: string;
  /** The enclosing definition's node, or the file's node (-1 for a file node). */
  readonly parent: number;
}

export interface GraphFile {
  readonly resourceId: string;
  readonly path: string;
  readonly language: string;
  /** The file's own node. */
  readonly node: number;
  /** Its definitions' nodes, in line order. */
  readonly definitions: readonly number[];
}

/** Edges in compressed rows: the targets of node n are `targets[offsets[n]..offsets[n+1]]`. */
export interface EdgeRows {
  readonly offsets: Int32Array;
  readonly targets: Int32Array;
  readonly weights: Float64Array;
}

/** The whole code graph in memory, as graph-aware strategies and the repo map read it. */
export interface LoadedGraph {
  readonly nodes: readonly GraphNode[];
  readonly files: readonly GraphFile[];
  /** From user to used (calls, type uses, imports, inheritance, containment both ways). */
  readonly uses: EdgeRows;
  /** The reverse of `uses`. */
  readonly usedBy: EdgeRows;
  /** Whole-graph PageRank by node (computed once per graph). */
  readonly centrality: Float64Array;
  definitionsNamed(name: string): readonly number[];
  /** Files of that path (one per root holding it). */
  filesAt(path: string): readonly GraphFile[];
  /** Files whose path is this or lies under this folder. */
  filesUnder(prefix: string): readonly GraphFile[];
  /** The innermost definition of a file containing a line, else the file's node. */
  nodeAtLine(file: number, line: number): number;
  /** Every definition name with its nodes, in the order of each name's first node. */
  names(): IterableIterator<[string, readonly number[]]>;
  /**
   * The compound names specific enough to seed a walk whose first word is
   * `first` and whose second is one of `seconds`, in `names()` order: the
   * names a task's words may spell out.
   */
  compoundNamesFirst(first: string, seconds: ReadonlySet<string>): readonly CompoundName[];
}

/** A compound definition name (`parseArgs`, `get_value`) by the words it is made of. */
export interface CompoundName {
  /** Its words (the first, which leads to it, included), as the index splits them. */
  readonly parts: readonly string[];
  readonly nodes: readonly number[];
}

/** Gives the current graph, rebuilt only when the index's graph changed. */
export interface GraphSource {
  load(): Promise<LoadedGraph>;
}

/**
 * The file of the project's one method of a name (a definition with an owner),
 * or null when there is none or several: a call made on something
 * (`current_app.url_for(…)`) resolves to it whatever the receiver, since no
 * other class has such a method, and not to a function of that name.
 */
export function soleMethodPath(
  definitions: readonly { readonly path: string; readonly parent: string }[],
): string | null {
  const methods = definitions.filter((definition) => definition.parent !== "");
  return methods.length === 1 ? (methods[0]?.path ?? null) : null;
}
