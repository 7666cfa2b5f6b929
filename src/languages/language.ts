import type { Node } from "web-tree-sitter";
import type { ImportTarget, SymbolKind } from "../core/graph.js";
import type { ChunkKind } from "../core/types.js";
import type { PathAliases } from "./path-aliases.js";

/**
 * Everything ctx knows of one language, in one file under src/languages/ and
 * registered in registry.ts: which files are written in it, the grammar that
 * parses them, where the chunker cuts, what the code graph reads as
 * definitions, references and imports, and where an import points.
 */
export interface LanguageSupport {
  /** The name stored with each file (`ctx languages`, `language` of a fragment). */
  readonly name: string;
  /** Lower-cased file extensions with their dot. */
  readonly extensions: readonly string[];
  /**
   * Languages whose code calls each other's definitions by name share a family
   * (TypeScript and JavaScript; C and C++; Java, Kotlin and Scala); a use in
   * one is never resolved to a definition of another family (a Kotlin `List`
   * is not a C++ `struct List` of the same project). Its own name when absent.
   */
  readonly family?: string;
  /** Whole file names written in it with no extension of its own (Ruby's `Rakefile`). */
  readonly filenames?: readonly string[];
  /**
   * The programs a `#!` line names to run a script of it (`#!/usr/bin/env
   * python3`), for a file with no extension: `bin/deploy`, a git hook.
   * Version digits are dropped before the lookup (`python3.11` is `python`).
   */
  readonly interpreters?: readonly string[];
  /**
   * The names an editor's mode line gives it (Emacs's `-*- shell-script -*-`,
   * `-*- mode: python -*-`, Vim's `vim: ft=sh`), for a file with no extension
   * and no `#!` line: bash-completion's scripts, sourced, not run.
   */
  readonly editorModes?: readonly string[];
  /** The tree-sitter grammar and the chunker's rules; without one, files are cut in line windows. */
  readonly grammar?: GrammarSpec;
  /** The code graph's rules; without them a parsed file has chunks but no graph. */
  readonly graph?: GraphRules;
  /** What an import-like statement imports, or [] when the node is no import. */
  readonly readImports?: (node: Node) => ImportStatement[];
  /** The files an import may name, most likely first. */
  readonly importTargets?: (
    file: string,
    specifier: string,
    names: readonly string[],
    aliases: PathAliases | null,
  ) => ImportTarget[];
  /**
   * A file sees another file's names only through an import that names the
   * file: a use elsewhere is some other thing of the same name.
   */
  readonly importScoped?: boolean;
  /** `#` starts a comment line (in C it starts a directive). */
  readonly hashComments?: boolean;
  /** A string opening a body documents it (Python's docstrings). */
  readonly docstrings?: boolean;
  /** The node type that wraps a definition with its decorators (Python's `decorated_definition`): the definition spans it. */
  readonly decoratedBy?: string;
  /** Names may end in `?` or `!` (Ruby's `empty?`, Elixir's `save!`). */
  readonly nameMarks?: boolean;
  /**
   * What separates an owner from a name in definitions named `Outer::name`,
   * defined outside their owner (C++'s `Shape::area`, Lua's `Circle:area`); a global regex.
   */
  readonly qualifiedNames?: RegExp;
  /** The owner of a method defined outside its type (Go's receiver), or null to use the enclosing definition. */
  readonly ownerOf?: (node: Node, type: string) => string | null;
  /**
   * Another language's code inside a file of this one (a Vue or Svelte
   * component's script): the source to parse, with every other character a
   * space so lines and offsets stay those of the file, and the language that
   * reads it.
   */
  readonly embedded?: (content: string) => { readonly language: string; readonly source: string };
  /** The language a file of this one's extensions is really written in, when its text says so (C++ in a `.h`). */
  readonly refine?: (content: string) => string | null;
}

/** How the code chunker reads one tree-sitter grammar. */
export interface GrammarSpec {
  /** Module path of the WASM grammar in its package (a devDependency; the build copies it to dist/grammars). */
  readonly wasm: string;
  /** Node types that start a chunk, and what kind of chunk. */
  readonly definitions: Readonly<Record<string, ChunkKind>>;
  /** Definitions whose member definitions become chunks of their own (class → method). */
  readonly containers: ReadonlySet<string>;
  /** Nodes that wrap a definition (export, decorators, templates): the chunk spans the wrapper. */
  readonly wrappers: ReadonlySet<string>;
  /**
   * A definition's kind and name where its node type is not enough (Elixir's
   * `def` is a call, Zig's `const Circle = struct {…}` a variable), or null
   * when the node defines nothing; `kind` is the one the type maps to.
   */
  readonly classify?: (node: Node, kind: SymbolKind) => { kind: SymbolKind; name: string } | null;
  /** The node holding a container's members, where it is neither a `body` field nor a known body type. */
  readonly bodyOf?: (node: Node) => Node | null;
  /** The node whose children are a file's top-level entries, where it is not the root (YAML's first mapping). */
  readonly topLevel?: (root: Node) => Node | null;
  /** Node types that hold the body of the definition right before them (Dart's `function_body`). */
  readonly trailingBodies?: ReadonlySet<string>;
}

/** How the graph extractor reads one language's syntax tree. */
export interface GraphRules {
  /** Node types that define a symbol, and of what kind. */
  readonly definitions: Readonly<Record<string, SymbolKind>>;
  /** Leaf node types that name something; `name(` is a call, `.name` a member. */
  readonly identifiers: ReadonlySet<string>;
  /** Leaf node types that name a type. */
  readonly typeIdentifiers: ReadonlySet<string>;
  /** Node types whose names are inherited (extends and implements clauses). */
  readonly inherits: ReadonlySet<string>;
  /** Fields, by parent node type, that hold inherited names (`class A(B)`: superclasses). */
  readonly inheritFields: Readonly<Record<string, string>>;
  /** Node types inside which names are types (annotations). */
  readonly typeContexts: ReadonlySet<string>;
  /** Statement node types that import something. */
  readonly imports: ReadonlySet<string>;
  /** Definitions read from the file's top-level statements rather than searched for (JavaScript's `exports.f = …`). */
  readonly topLevel?: TopLevelRules;
  /**
   * Calls that define methods by name (Ruby's `attr_accessor :status, :headers`):
   * the node types, and the names a node of them defines (none for other calls).
   */
  readonly definingCalls?: {
    readonly types: ReadonlySet<string>;
    readonly names: (node: Node) => readonly string[];
  };
  /**
   * Node types that declare a name without defining it (a C prototype, a C++
   * method declared in its class body and defined elsewhere): the name is
   * neither a definition nor a use.
   */
  readonly declarations: ReadonlySet<string>;
  /**
   * A string in a type context names types (Python's forward reference
   * `def f(s: "Session")`), rather than being a literal type (TypeScript's `"a" | "b"`).
   */
  readonly quotedTypes?: boolean;
}

/** A definition found among a file's top-level statements, with the type its rules know it by. */
export interface TopLevelDefinition {
  readonly node: Node;
  readonly type: string;
}

export interface TopLevelRules {
  /** The types `find` reports: never searched for in the whole tree. */
  readonly types: ReadonlySet<string>;
  readonly find: (root: Node) => TopLevelDefinition[];
  /**
   * What one defines, or null when it defines nothing; undefined for a type the
   * graph reads as it reads any definition (a declarator).
   */
  readonly define?: (
    node: Node,
    type: string,
  ) => { name: string; kind: SymbolKind; parent: string; body: Node | null } | null | undefined;
}

export interface ImportStatement {
  readonly specifier: string;
  readonly names: readonly string[];
  /** `export … from` passes the names on. */
  readonly reexport?: boolean;
  /** Lines below the node's first where it is written: an import inside a doc comment. */
  readonly lineOffset?: number;
  /**
   * The names are used as types where the import is written, with no name node
   * of their own: `@param {import("./types").CardOptions}` in a doc comment.
   */
  readonly typeUse?: boolean;
}

export const typeSet = (...types: string[]): ReadonlySet<string> => new Set(types);

/**
 * A grammar's chunk definitions as graph definitions (the kinds are symbol
 * kinds), with the graph's additions, less the node types the graph reads
 * another way.
 */
export function graphDefinitions(
  grammar: GrammarSpec,
  extra: Readonly<Record<string, SymbolKind>> = {},
  omit: readonly string[] = [],
): Readonly<Record<string, SymbolKind>> {
  const own = { ...(grammar.definitions as Record<string, SymbolKind>), ...extra };
  for (const type of omit) delete own[type];
  return own;
}

/** Where the grammars come from: packages that ship prebuilt `.wasm` files. */
export const VSCODE = "@vscode/tree-sitter-wasm/wasm";
export const REPOMIX = "@repomix/tree-sitter-wasms/out";
/** Grammars kept in this repository (grammars/README.md says why and where from). */
export const VENDORED = "grammars";
