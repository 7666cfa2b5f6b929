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
import { type FoundNodes, searchNodes } from "../parse/node-search.js";
import { nameOf } from "../parse/syntax-nodes.js";
import { indexedDoc } from "./definition-docs.js";
import { signatureOf, withoutOverloads } from "./definition-signatures.js";
import { GRAPH_LANGUAGES, type GraphLanguage } from "./graph-languages.js";
import { importTargets } from "./import-targets.js";
import type { PathAliases } from "./path-aliases.js";
import { readImports } from "./read-imports.js";
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
  const spec = GRAPH_LANGUAGES[language];
  if (!spec) return null;
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

  const readImport = (node: Node) => {
    const line = node.startPosition.row + 1;
    const found = readImports(language, node);
    for (const statement of found) {
      imports.push({
        specifier: statement.specifier,
        names: statement.names,
        reexport: statement.reexport ?? false,
        line,
        targets: importTargets(language, path, statement.specifier, statement.names, aliases),
      });
    }
    if (found.length > 0) importSpans.add(node.startIndex, node.endIndex);
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
  const marks = language === "ruby";
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
    const line = found.row(index) + 1;
    const entries = member ? memberCalls : seen[kind];
    const entry = entries.get(name);
    if (!entry) {
      const added = new FoundReference(name, kind, line, member);
      references.push(added);
      entries.set(name, added);
    } else if (entry.lines[entry.lines.length - 1] !== line) entry.lines.push(line);
  };

  const addStructure = (node: Node, type: string) => {
    const start = node.startIndex;
    while (owners.length > 0 && (owners[owners.length - 1]?.end ?? 0) <= start) owners.pop();
    if (spec.definitions[type]) {
      const owner = owners[owners.length - 1];
      const definition = definitionAt(node, type, spec, owner ?? null, source, language);
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
    if (spec.inherits.has(type)) inheritSpans.add(start, node.endIndex);
    if (spec.typeContexts.has(type)) typedSpans.add(start, node.endIndex);
  };

  // One search for every type: each search walks the whole tree.
  const found = searchNodes(root, types.searched);
  const declarators = spec.definitions.variable_declarator ? topLevelDeclarators(root) : [];
  let nextDeclarator = 0;
  for (let index = 0; index < found.count; index++) {
    const typeId = found.typeId(index);
    const flags = types.flags[typeId] ?? 0;
    const isName = (flags & NAME) !== 0;
    // Pre-order: a declarator before the name it declares (they start together).
    while (nextDeclarator < declarators.length) {
      const declarator = declarators[nextDeclarator] as Node;
      const before = declarator.startIndex - found.startIndex(index);
      if (before > 0 || (before === 0 && !isName)) break;
      addStructure(declarator, "variable_declarator");
      nextDeclarator++;
    }
    if (isName) addReference(found, index, flags);
    else addStructure(found.node(index), types.searched.typeName(typeId));
  }
  for (; nextDeclarator < declarators.length; nextDeclarator++) {
    addStructure(declarators[nextDeclarator] as Node, "variable_declarator");
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

/**
 * Module-level `const x = …` declarators. Found from the root's children:
 * asking each of a file's declarators for its parents cost more than all
 * other definitions together.
 */
function topLevelDeclarators(root: Node): Node[] {
  const found: Node[] = [];
  for (const child of root.namedChildren) {
    const declaration =
      child.type === "export_statement" ? child.childForFieldName("declaration") : child;
    if (declaration?.type !== "lexical_declaration" && declaration?.type !== "variable_declaration")
      continue;
    for (const declarator of declaration.namedChildren) {
      if (declarator.type === "variable_declarator") found.push(declarator);
    }
  }
  return found;
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
  spec: GraphLanguage,
  owner: { readonly name: string; readonly kind: SymbolKind } | null,
  source: string,
  language: string,
): GraphDefinition | null {
  const ownerKind = owner?.kind ?? null;
  const parent = owner?.name ?? "";
  let resolved = spec.definitions[type];
  if (!resolved) return null;
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
      signatureOf(node, null, source),
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
  const name = nameOf(node);
  if (!name) return null;
  const body = node.childForFieldName("body");
  const qualified = language === "cpp" ? name.lastIndexOf("::") : -1;
  // `double Shape::area() const { … }`: a method of Shape defined outside its class (and
  // its file), found and used by the name `area`.
  const own = qualified > 0 ? name.slice(qualified + 2) : name;
  const scope = qualified > 0 ? name.slice(0, qualified) : "";
  const outer = scope.lastIndexOf("::");
  const owningClass = outer >= 0 ? scope.slice(outer + 2) : scope;
  return definitionOf(
    node,
    own,
    qualified > 0 && resolved === "function" ? "method" : resolved,
    signatureOf(node, body, source),
    qualified > 0
      ? owningClass
      : language === "go" && type === "method_declaration"
        ? receiverType(node)
        : parent,
    indexedDoc(source, language, body?.startIndex ?? null),
  );
}

/** A Go method's receiver type: `S` of `func (s *S) Run()` and of `func (s S[T]) Run()`. */
function receiverType(node: Node): string {
  const receiver = node.childForFieldName("receiver")?.namedChildren[0];
  let type = receiver?.childForFieldName("type") ?? null;
  for (let depth = 0; type && depth < 3; depth++) {
    if (type.type === "type_identifier") return type.text;
    type =
      type.type === "generic_type"
        ? type.childForFieldName("type")
        : (type.namedChildren[0] ?? null);
  }
  return "";
}

/** `doc` only where there is one, so definitions without stay as small as before. */
function definitionOf(
  node: Node,
  name: string,
  kind: SymbolKind,
  signature: string,
  parent: string,
  doc: string,
): GraphDefinition {
  const startLine = node.startPosition.row + 1;
  const endLine = node.endPosition.row + 1;
  return doc === ""
    ? { name, kind, startLine, endLine, parent, signature }
    : { name, kind, startLine, endLine, parent, signature, doc };
}
