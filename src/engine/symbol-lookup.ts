import { UsageError } from "../core/errors.js";
import {
  type GraphBackend,
  type ReferenceKind,
  SYMBOL_KINDS,
  type SymbolKind,
  type SymbolQuery,
  type SymbolRecord,
} from "../core/graph.js";

/** What `ctx refs` and MCP `find_references` answer. */
export interface SymbolReferences {
  readonly symbol: string;
  readonly definitions: readonly {
    readonly path: string;
    readonly startLine: number;
    readonly endLine: number;
    readonly kind: SymbolKind;
    readonly signature: string;
  }[];
  readonly references: readonly {
    readonly path: string;
    readonly line: number;
    readonly kind: ReferenceKind;
  }[];
}

/** A definition as `ctx symbols --json` and MCP `find_symbol` show it (no resource id). */
export function definitionView({
  name,
  kind,
  path,
  startLine,
  endLine,
  parent,
  signature,
  doc,
}: SymbolRecord) {
  return { name, kind, path, startLine, endLine, parent, signature, doc: doc ?? "" };
}

/**
 * Definitions matching a name (exact, else without case; `name*` for a prefix),
 * else, for `Owner.name` (`Owner::name`, `Owner#name`), those of name inside Owner.
 */
export async function findSymbols(
  graph: GraphBackend,
  name: string,
  options: { kind?: string; path?: string; limit?: number } = {},
): Promise<SymbolRecord[]> {
  if (name.trim() === "") throw new UsageError("name a symbol to look for");
  if (options.kind !== undefined && !(SYMBOL_KINDS as readonly string[]).includes(options.kind)) {
    throw new UsageError(
      `unknown symbol kind "${options.kind}"; use one of: ${SYMBOL_KINDS.join(", ")}`,
    );
  }
  const query: SymbolQuery = {
    name: name.trim(),
    limit: options.limit ?? 100,
    ...(options.kind ? { kind: options.kind as SymbolKind } : {}),
    ...(options.path ? { path: options.path } : {}),
  };
  const direct = await graph.findSymbols(query);
  const { name: own, owner } = qualifiedName(query.name);
  if (direct.length > 0 || owner === undefined) return direct;
  // `Shape.area`, as ctx symbols shows a method: the definitions of `area` inside Shape.
  const found = await graph.findSymbols({ ...query, name: own, limit: 1000 });
  return found.filter((definition) => ownedBy(definition, owner, true)).slice(0, query.limit);
}

/** For `Owner.name` (`Owner::name`, `Owner#name`): `name`; else null. */
export function memberNameOf(symbol: string): string | null {
  const { name, owner } = qualifiedName(symbol.trim());
  return owner === undefined || name === "" ? null : name;
}

/** `Owner.name`, `Owner::name` or `Owner#name`: the last part, and the one before it. */
function qualifiedName(symbol: string): { name: string; owner?: string } {
  const parts = symbol.split(/::|#|\.(?=[^.]+$)/);
  const name = parts[parts.length - 1] ?? symbol;
  const owner = parts.length > 1 ? parts[parts.length - 2] : undefined;
  // `::name` (an empty owner) is C++'s global scope: top-level definitions only.
  return owner === undefined ? { name } : { name, owner };
}

/** Whether a definition's enclosing one is `owner` (or ends with it: `geo.Shape` is Shape's). */
function ownedBy(definition: SymbolRecord, owner: string, ignoreCase = false): boolean {
  const parent = ignoreCase ? definition.parent.toLowerCase() : definition.parent;
  const wanted = ignoreCase ? owner.toLowerCase() : owner;
  // A Rust method's parent is its impl (`Shape for Square`, `Stack<T>`): the trait's and
  // the type's, without their type arguments.
  return parent
    .split(" for ")
    .map((part) => part.replace(/<.*$/, "").trim())
    .some((part) => part === wanted || part.endsWith(`.${wanted}`) || part.endsWith(`::${wanted}`));
}

/**
 * A symbol's definitions and the uses that resolve to them. `Owner.name`
 * (or `Owner::name`, `Owner#name`) keeps the definitions inside Owner. With
 * `path`, the definition in that file and only the uses that resolve to it.
 */
export async function findReferences(
  graph: GraphBackend,
  symbol: string,
  path?: string,
): Promise<SymbolReferences> {
  const trimmed = symbol.trim();
  if (trimmed === "") throw new UsageError("name a symbol to look for");
  const { name, owner } = qualifiedName(trimmed);
  const found = await graph.findSymbols({ name, limit: 1000 });
  const definitions = found.filter(
    (definition) =>
      definition.name === name &&
      (owner === undefined || ownedBy(definition, owner)) &&
      (path === undefined || definition.path === path),
  );
  const references =
    path !== undefined && definitions.length === 0 ? [] : await graph.findReferences(name, path);
  return {
    symbol: trimmed,
    definitions: definitions.map(({ path, startLine, endLine, kind, signature }) => ({
      path,
      startLine,
      endLine,
      kind,
      signature,
    })),
    references,
  };
}
