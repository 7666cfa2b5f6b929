import type { GraphFile, GraphNode } from "../core/graph.js";
import { languageFamily } from "../languages/registry.js";

/**
 * The definitions a use in one language family may resolve to, by name, and
 * what is known of each name there, worked out as each is first asked for.
 * A use is resolved only to definitions in languages that can name each other
 * (see `LanguageSupport.family`): a Kotlin `List` is not a C++ `struct List`.
 */
export class FamilyNames {
  private readonly candidates = new Map<string, readonly number[] | undefined>();
  private readonly fileCounts = new Map<string, number>();
  private readonly extendedOnly = new Map<string, boolean>();

  constructor(
    private readonly family: string,
    private readonly byName: ReadonlyMap<string, readonly number[]>,
    private readonly nodes: readonly GraphNode[],
    private readonly familyOfFile: (file: number) => string,
  ) {}

  /** The definitions of a name in files of the family; undefined when none. */
  of(name: string): readonly number[] | undefined {
    const all = this.byName.get(name);
    if (!all) return undefined;
    if (this.candidates.has(name)) return this.candidates.get(name);
    const ofFamily = all.filter((id) => this.familyOfFile(this.node(id).file) === this.family);
    const found =
      ofFamily.length === 0 ? undefined : ofFamily.length === all.length ? all : ofFamily;
    this.candidates.set(name, found);
    return found;
  }

  /**
   * How many files define the name (`candidates`, from `of`), the parts of a
   * C# `partial` type counting once: `OutcomePredicate<TResult>` written in
   * `OutcomePredicate.cs`, `.TResult.cs`, `.Void.cs` and `.Handler.cs` is one
   * type, and its constructors in those files are its members.
   */
  definingFileCount(name: string, candidates: readonly number[]): number {
    let count = this.fileCounts.get(name);
    if (count === undefined) {
      const partFiles = new Set<number>();
      if (this.family === PARTIAL_TYPES_FAMILY)
        for (const id of candidates)
          if (isPartialType(this.node(id))) partFiles.add(this.node(id).file);
      const files = new Set<number>();
      for (const id of candidates) {
        const { file } = this.node(id);
        if (!partFiles.has(file)) files.add(file);
      }
      count = files.size + (partFiles.size > 0 ? 1 : 0);
      this.fileCounts.set(name, count);
    }
    return count;
  }

  /**
   * Whether the project only extends the name, defining no type of it: Swift's
   * `extension Int`, Rust's `impl Display for String`. A use of `Int`
   * elsewhere is of the standard type, not of those extensions.
   */
  onlyExtended(name: string, candidates: readonly number[]): boolean {
    let only = this.extendedOnly.get(name);
    if (only === undefined) {
      only = candidates.every((id) => this.node(id).kind === "impl");
      this.extendedOnly.set(name, only);
    }
    return only;
  }

  private node(id: number): GraphNode {
    return this.nodes[id] as GraphNode;
  }
}

/** Each file's language family, read once per file. */
export function fileFamilies(files: readonly GraphFile[]): (file: number) => string {
  const known: (string | undefined)[] = [];
  return (file) => {
    let family = known[file];
    if (family === undefined) {
      family = languageFamily((files[file] as GraphFile).language);
      known[file] = family;
    }
    return family;
  };
}

/** The languages whose types may be written in parts (a Python class may be named `partial`). */
const PARTIAL_TYPES_FAMILY = "csharp";
const PARTIAL = /\bpartial\b/;

/** A class, struct, record or interface declared `partial` (C#): one of several parts of one type. */
function isPartialType(node: GraphNode): boolean {
  return (node.kind === "class" || node.kind === "interface") && PARTIAL.test(node.signature);
}
