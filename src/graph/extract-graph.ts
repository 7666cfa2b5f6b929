import type { Node } from "web-tree-sitter";
import { looksMinified } from "../core/file-roles.js";
import type {
  FileGraph,
  GraphDefinition,
  GraphImport,
  GraphReference,
  ReferenceKind,
  SymbolKind,
} from "../core/graph.js";
import type { GraphRules, LanguageSupport, TopLevelDefinition } from "../languages/language.js";
import type { PathAliases } from "../languages/path-aliases.js";
import { languageSupport } from "../languages/registry.js";
import { type FoundNodes, searchNodes } from "../parse/node-search.js";
import { nameOf } from "../parse/syntax-nodes.js";
import { indexedDoc } from "./definition-docs.js";
import { signatureOf, withoutOverloads } from "./definition-signatures.js";
import { quotedTypeNames } from "./quoted-type-names.js";
import { MEMBER_NAME, NAME, TYPE_NAME, typesOf } from "./searched-types.js";
import { isCalled, isMember, nameEnd } from "./source-names.js";
import { SpanSweep } from "./span-sweep.js";

/** Names that are the language, not the project. */
const IGNORED = new Set([
  "self",
  "cls",
  "this",
  "super",
  "undefined",
  "arguments",
  "nil",
  "null",
  "true",
  "false",
]);
const METHOD_OWNERS: ReadonlySet<SymbolKind | null> = new Set([
  "class",
  "interface",
  "impl",
  "enum",
  "type",
]);
const FUNCTION_VALUES = new Set([
  "arrow_function",
  "function_expression",
  "function",
  "generator_function",
]);

/**
 * Definitions, references and imports of one parsed file, from the tree the
 * chunker parsed (no second parse). Null for languages without a graph reader.
 *
 * One search inside tree-sitter collects the nodes (definitions, imports,
 * clauses and names, in document order); a name's role comes from the spans
 * it lies in and the characters around it (`.name` is a member, `name(` a
 * call). Asking tree-sitter for each name's parent, or walking every node
 * from JavaScript, cost more than the parse itself on three.js; a tree-sitter
 * query cost about as much.
 */
export function extractGraph(
  root: Node,
  language: string,
  path: string,
  source: string,
  aliases: PathAliases | null = null,
): FileGraph | null {
  const support = languageSupport(language);
  const spec = support?.graph;
  if (!support || !spec) return null;
  // Its names are a compiler's (`a`, `b`, `Ma`): edges to them are noise, and a few such
  // files cost as much to read as the rest of a project (three.js: 36 % of its graph time).
  if (looksMinified(source)) return { definitions: [], references: [], imports: [] };
  const types = typesOf(root.tree.language, spec);
  const definitions: GraphDefinition[] = [];
  const imports: GraphImport[] = [];
  const importSpans = new SpanSweep();
  const inheritSpans = new SpanSweep();
  const typedSpans = new SpanSweep();
  const skip = new Set<number>();
  const owners: { end: number; name: string; kind: SymbolKind }[] = [];
  const signatures = new Set<GraphDefinition>();

  // A `require(…)` call is read where its name is seen; a language whose calls are import
  // statements too (Lua) would read it twice.
  const read = new Set<number>();
  const readImport = (node: Node) => {
    if (read.has(node.startIndex)) return;
    read.add(node.startIndex);
    const found = support.readImports?.(node) ?? [];
    if (found.length === 0) return;
    const row = node.startPosition.row + 1;
    for (const statement of found) {
      const line = row + (statement.lineOffset ?? 0);
      imports.push({
        specifier: statement.specifier,
        names: statement.names,
        reexport: statement.reexport ?? false,
        line,
        targets: support.importTargets?.(path, statement.specifier, statement.names, aliases) ?? [],
      });
      if (statement.typeUse)
        for (const name of statement.names) noteReference(name, "type", line, false);
    }
    importSpans.add(node.startIndex, node.endIndex);
  };

  const references: FoundReference[] = [];
  // One map per kind: a `kind + name` key costs a new string (and its hash) per use.
  const seen: Record<ReferenceKind, Map<string, { lines: number[] }>> = {
    call: new Map(),
    import: new Map(),
    type: new Map(),
    inherit: new Map(),
    use: new Map(),
  };
  const memberCalls = new Map<string, { lines: number[] }>();
  const marks = support.nameMarks === true;
  const addReference = (found: FoundNodes, index: number, flags: number) => {
    const at = found.startIndex(index);
    if (skip.has(at)) return;
    const end = nameEnd(source, at, marks);
    if (end === at) return;
    const call = isCalled(source, end);
    if (call && end - at === 7 && source.startsWith("require", at)) {
      const parent = found.node(index).parent;
      if (parent) readImport(parent);
    }
    let kind: ReferenceKind | null;
    let member = false;
    if (importSpans.contains(at)) kind = "import";
    else if (inheritSpans.contains(at)) kind = "inherit";
    else if (call) {
      kind = "call";
      member = isMember(source, at);
    } else if (flags & TYPE_NAME || typedSpans.contains(at)) kind = "type";
    else if (flags & MEMBER_NAME || isMember(source, at)) kind = null;
    else kind = "use";
    if (!kind) return;
    // Sliced only now: most names are members, which need no string of their own.
    const name = source.slice(at, end);
    if (IGNORED.has(name)) return;
    noteReference(name, kind, found.row(index) + 1, member);
  };
  function noteReference(name: string, kind: ReferenceKind, line: number, member: boolean): void {
    const entries = member ? memberCalls : seen[kind];
    const entry = entries.get(name);
    if (!entry) {
      const added = new FoundReference(name, kind, line, member);
      references.push(added);
      entries.set(name, added);
    } else if (entry.lines[entry.lines.length - 1] !== line) entry.lines.push(line);
  }

  const addStructure = (node: Node, type: string) => {
    const start = node.startIndex;
    while (owners.length > 0 && (owners[owners.length - 1]?.end ?? 0) <= start) owners.pop();
    if (spec.definitions[type]) {
      const owner = owners[owners.length - 1];
      const definition = definitionAt(node, type, support, spec, owner ?? null, source);
      if (definition) {
        definitions.push(definition);
        if (type === "function_signature") signatures.add(definition);
        owners.push({ end: node.endIndex, name: definition.name, kind: definition.kind });
        const declared = declaredName(node);
        if (declared) skip.add(declared.startIndex);
      }
      const inheritField = spec.inheritFields[type];
      const inherited = inheritField ? node.childForFieldName(inheritField) : null;
      if (inherited) inheritSpans.add(inherited.startIndex, inherited.endIndex);
    }
    if (spec.declarations.has(type)) {
      const declared = declaredName(node);
      if (declared) skip.add(declared.startIndex);
    }
    if (spec.imports.has(type)) readImport(node);
    const defined = spec.definingCalls?.types.has(type) ? spec.definingCalls.names(node) : [];
    if (defined.length > 0) {
      const owner = owners[owners.length - 1]?.name ?? "";
      const newline = source.indexOf("\n", start);
      const line = source.slice(
        start,
        newline < 0 ? node.endIndex : Math.min(newline, node.endIndex),
      );
      for (const name of defined)
        definitions.push(definitionOf(node, name, "method", line, owner, ""));
    }
    if (spec.inherits.has(type)) inheritSpans.add(start, node.endIndex);
    if (spec.typeContexts.has(type)) {
      typedSpans.add(start, node.endIndex);
      if (spec.quotedTypes)
        for (const { name, line } of quotedTypeNames(node.text, node.startPosition.row + 1))
          noteReference(name, "type", line, false);
    }
  };

  // One search for every type: each search walks the whole tree.
  const found = searchNodes(root, types.searched);
  const declarators = spec.topLevel?.find(root) ?? [];
  let nextDeclarator = 0;
  for (let index = 0; index < found.count; index++) {
    const typeId = found.typeId(index);
    const flags = types.flags[typeId] ?? 0;
    const isName = (flags & NAME) !== 0;
    // Pre-order: a declarator before the name it declares (they start together).
    while (nextDeclarator < declarators.length) {
      const declarator = declarators[nextDeclarator] as TopLevelDefinition;
      const before = declarator.node.startIndex - found.startIndex(index);
      if (before > 0 || (before === 0 && !isName)) break;
      addStructure(declarator.node, declarator.type);
      nextDeclarator++;
    }
    if (isName) addReference(found, index, flags);
    else addStructure(found.node(index), types.searched.typeName(typeId));
  }
  for (; nextDeclarator < declarators.length; nextDeclarator++) {
    const declarator = declarators[nextDeclarator] as TopLevelDefinition;
    addStructure(declarator.node, declarator.type);
  }
  imports.sort((a, b) => a.line - b.line);
  return { definitions: withoutOverloads(definitions, signatures), references, imports };
}

/**
 * A name's uses in one file. Made by a constructor, not an object literal: the
 * entries outlive many collections, and V8 then moved a literal's allocation
 * to the old generation, throwing away the compiled search loop each time
 * (three.js: compiled three times, about 25 ms more of an index run).
 */
class FoundReference implements GraphReference {
  readonly lines: number[];
  declare readonly member?: true;

  constructor(
    readonly name: string,
    readonly kind: ReferenceKind,
    line: number,
    member: boolean,
  ) {
    // `Array.of`, not `[line]`: an array literal is tracked the same way.
    this.lines = Array.of(line);
    if (member) (this as { member?: true }).member = true;
  }
}

/** A class field's name: TypeScript's grammar calls it `name`, JavaScript's `property`. */
function fieldName(node: Node): Node | null {
  return node.childForFieldName("name") ?? node.childForFieldName("property");
}

/** The node naming a definition: its name field, or (C, C++) the name inside its declarators. */
function declaredName(node: Node): Node | null {
  const name = fieldName(node);
  if (name) return name;
  let current = node.childForFieldName("declarator");
  for (let depth = 0; current && depth < 6; depth++) {
    // `Shape::area`: the name is its last part.
    if (current.type === "qualified_identifier") {
      current = current.childForFieldName("name");
      continue;
    }
    if (current.type.endsWith("identifier")) return current;
    current = current.childForFieldName("declarator") ?? current.childForFieldName("name");
  }
  return null;
}

function definitionAt(
  node: Node,
  type: string,
  support: LanguageSupport,
  spec: GraphRules,
  owner: { readonly name: string; readonly kind: SymbolKind } | null,
  source: string,
): GraphDefinition | null {
  const ownerKind = owner?.kind ?? null;
  const parent = owner?.name ?? "";
  let resolved = spec.definitions[type];
  if (!resolved) return null;
  const topLevel = spec.topLevel?.types.has(type) ? spec.topLevel.define?.(node, type) : undefined;
  if (topLevel !== undefined) {
    if (!topLevel) return null;
    const { name, kind, parent: owner, body } = topLevel;
    return definitionOf(node, name, kind, signatureOf(node, body, source), owner, "");
  }
  if (type === "public_field_definition" || type === "field_definition") {
    const value = node.childForFieldName("value");
    if (!value || !FUNCTION_VALUES.has(value.type)) return null;
    // `[key] = …` and `#hidden = …` name nothing another file can use.
    const name = fieldName(node);
    if (name?.type !== "property_identifier") return null;
    return definitionOf(
      node,
      source.slice(name.startIndex, name.endIndex),
      "method",
      signatureOf(node, support.grammar?.bodyOf?.(node) ?? null, source),
      parent,
      "",
    );
  }
  if (type === "variable_declarator") {
    // Only module-level ones reach here; `const { a, b } = …` destructures and names no one symbol.
    if (node.childForFieldName("name")?.type !== "identifier") return null;
    const value = node.childForFieldName("value");
    resolved = value && FUNCTION_VALUES.has(value.type) ? "function" : "constant";
  } else if (
    (type === "struct_specifier" ||
      type === "union_specifier" ||
      type === "enum_specifier" ||
      type === "class_specifier") &&
    !node.childForFieldName("body")
  ) {
    return null; // `struct foo x;` uses the type
  } else if (type === "type_spec" && node.childForFieldName("type")?.type === "interface_type") {
    resolved = "interface";
  } else if (resolved === "function" && METHOD_OWNERS.has(ownerKind)) {
    resolved = "method";
  } else if (
    resolved === "method" &&
    ownerKind === null &&
    (type === "method" || type === "singleton_method")
  ) {
    resolved = "function"; // Ruby: a top-level def
  }
  const grammar = support.grammar;
  let name: string;
  if (grammar?.classify) {
    const classified = grammar.classify(node, resolved);
    if (!classified) return null;
    ({ name, kind: resolved } = classified);
    if (resolved === "function" && METHOD_OWNERS.has(ownerKind)) resolved = "method";
  } else {
    name = nameOf(node);
  }
  if (!name) return null;
  const body = node.childForFieldName("body") ?? grammar?.bodyOf?.(node) ?? null;
  // `double Shape::area() const { … }`, `function Circle:area()`: a method of Shape defined
  // outside its class (and its file), found and used by the name `area`.
  const separator = support.qualifiedNames ? lastMatch(name, support.qualifiedNames) : null;
  const qualified = separator && separator.index > 0 ? separator : null;
  const own = qualified ? name.slice(qualified.index + qualified.length) : name;
  const scope = qualified ? name.slice(0, qualified.index) : "";
  const outer = scope && support.qualifiedNames ? lastMatch(scope, support.qualifiedNames) : null;
  const owningClass = outer ? scope.slice(outer.index + outer.length) : scope;
  const trailing = grammar?.trailingBodies ? trailingBody(node, grammar.trailingBodies) : null;
  // `@app.route("/")` above a `def` is part of its signature and of its lines.
  const wrapper = support.decoratedBy ? node.parent : null;
  const span = wrapper && wrapper.type === support.decoratedBy ? wrapper : node;
  return definitionOf(
    span,
    own,
    qualified && resolved === "function" ? "method" : resolved,
    signatureOf(span, body, source),
    qualified ? owningClass : (support.ownerOf?.(node, type) ?? parent),
    support.docstrings ? indexedDoc(source, body?.startIndex ?? null) : "",
    trailing,
  );
}

/** Where the last match of a separator starts in a name, and its length. */
function lastMatch(name: string, separator: RegExp): { index: number; length: number } | null {
  let last: { index: number; length: number } | null = null;
  for (const match of name.matchAll(separator))
    last = { index: match.index, length: match[0].length };
  return last;
}

/** The body a grammar puts after its definition rather than inside it (Dart's function_body). */
function trailingBody(node: Node, types: ReadonlySet<string>): Node | null {
  const next = node.nextNamedSibling;
  return next && types.has(next.type) ? next : null;
}

/** `doc` only where there is one, so definitions without stay as small as before. */
function definitionOf(
  node: Node,
  name: string,
  kind: SymbolKind,
  signature: string,
  parent: string,
  doc: string,
  trailing: Node | null = null,
): GraphDefinition {
  const startLine = node.startPosition.row + 1;
  const endLine = (trailing ?? node).endPosition.row + 1;
  return doc === ""
    ? { name, kind, startLine, endLine, parent, signature }
    : { name, kind, startLine, endLine, parent, signature, doc };
}
