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
}

/** Every use of one name in a file, of one kind. */
export interface GraphReference {
  readonly name: string;
  readonly kind: ReferenceKind;
  /** Lines of the uses, ascending, each once. */
  readonly lines: readonly number[];
}

/**
 * Where an import may lead: a file path (`exact`), a path a file ends with
 * (`suffix`, for imports named from a source root the index cannot know), or a
 * folder whose files are the package (`folder`, Go).
 */
export interface ImportTarget {
  readonly path: string;
  readonly match: "exact" | "suffix" | "folder";
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

/** Graph queries the symbol tools and graph-aware strategies use. */
export interface GraphBackend {
  findSymbols(query: SymbolQuery): Promise<SymbolRecord[]>;
  /**
   * Uses of a name. With `definitionPath`, only those that resolve to the
   * definition in that file: in the file itself, in files that import it, or
   * anywhere when it is the only definition of the name.
   */
  findReferences(name: string, definitionPath?: string): Promise<ReferenceRecord[]>;
}
