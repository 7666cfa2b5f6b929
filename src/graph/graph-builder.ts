import { posix } from "node:path";
import { isMinified } from "../core/file-roles.js";
import type {
  EdgeRows,
  GraphFile,
  GraphFileRecord,
  GraphImport,
  GraphNode,
  ImportTarget,
  ReferenceKind,
} from "../core/graph.js";
import { targetMatches } from "../languages/import-paths.js";
import { IMPORT_SCOPED_LANGUAGES, languageFamily } from "../languages/registry.js";
import { EdgeRowsBuilder } from "./edge-rows.js";
import { FamilyNames, fileFamilies } from "./family-names.js";
import { moduleTargetFiles } from "./module-target-files.js";

/**
 * How much one use says that the user depends on the definition; an import
 * names a file, an inheritance ties two types closely, a bare use least.
 */
const KIND_WEIGHT: Readonly<Record<ReferenceKind, number>> = {
  call: 1,
  inherit: 2,
  type: 0.7,
  import: 1,
  use: 0.5,
};
/** A name resolved only by being unique (no import names its file) counts this much. */
const UNIQUE_NAME_FACTOR = 0.5;
/** Names defined in more files than this are too common to say where a use leads. */
const MAX_AMBIGUITY = 3;
const CONTAINS_WEIGHT = 0.3;
const IMPORT_WEIGHT = 1;
/** Uses inside one file say less about a definition's weight in the project than uses from others. */
const LOCAL_FACTOR = 0.25;
/** One-letter names (minified code, loop variables) say nothing about where a use leads. */
const MIN_NAME_LENGTH = 2;
/** Re-export chains followed from an imported file (barrel files of barrel files). */
const MAX_REEXPORT_DEPTH = 4;

/** What a built graph is made of: its nodes, files and out-edges. */
export interface GraphParts {
  readonly nodes: readonly GraphNode[];
  readonly files: readonly GraphFile[];
  readonly uses: EdgeRows;
  /** Each file's `export … from` statements: an update resolves other files' imports through them. */
  readonly reexports: readonly (readonly GraphImport[])[];
}

/**
 * The graph's nodes and weighted edges from each file's rows: edges from a
 * user to what it uses (references resolved through the file's imports first,
 * then by a name only a few files define), from a file to the files it
 * imports, and between a definition and its enclosing one.
 */
export function buildGraphParts(records: readonly GraphFileRecord[]): GraphParts {
  const builder = new GraphBuilder(records.map(reexportsOf));
  records.forEach((record, file) => {
    builder.addFile(record, file);
  });
  const edges = new EdgeRowsBuilder(builder.nodes.length);
  records.forEach((record, file) => {
    builder.addFileEdges(record, file, edges.add);
  });
  return builder.parts(edges);
}

export class GraphBuilder {
  readonly nodes: GraphNode[] = [];
  readonly files: GraphFile[] = [];
  private readonly byName = new Map<string, number[]>();
  /** Each file's definitions by name. */
  private readonly localNames: Map<string, number[]>[] = [];
  private readonly byFamily = new Map<string, FamilyNames>();
  private readonly familyOfFile = fileFamilies(this.files);
  private readonly byPath = new Map<string, number[]>();
  private readonly byBaseName = new Map<string, number[]>();
  private readonly byDirectory = new Map<string, number[]>();

  /** `reexports`: each file's `export … from` statements, by which references are resolved. */
  constructor(private readonly reexports: readonly (readonly GraphImport[])[]) {}

  parts(edges: EdgeRowsBuilder): GraphParts {
    return { nodes: this.nodes, files: this.files, uses: edges.build(), reexports: this.reexports };
  }

  /** A file of `previous` as it was, its nodes renumbered (old id → new id into `newId`). */
  copyFile(previous: GraphParts, file: number, newId: Int32Array): void {
    const old = previous.files[file] as GraphFile;
    const local = new Map<string, number[]>();
    this.localNames.push(local);
    const definitions: number[] = [];
    for (const oldId of [old.node, ...old.definitions]) {
      const node = previous.nodes[oldId] as GraphNode;
      // A parent comes before its children (definitions are in line order), so it is renumbered already.
      const id = this.pushNode({
        ...node,
        file,
        parent: node.parent < 0 ? -1 : (newId[node.parent] ?? -1),
      });
      newId[oldId] = id;
      if (oldId === old.node) continue;
      definitions.push(id);
      pushTo(local, node.name, id);
      pushTo(this.byName, node.name, id);
    }
    this.addFileEntry({ ...old, node: newId[old.node] ?? -1, definitions });
  }

  addFile(record: GraphFileRecord, file: number): void {
    const fileNode = this.pushNode({
      file,
      name: record.path,
      kind: "file",
      startLine: 1,
      endLine: record.definitions.reduce((end, d) => Math.max(end, d.endLine), 1),
      signature: "",
      parent: -1,
    });
    const definitions: number[] = [];
    const open: number[] = [];
    const local = new Map<string, number[]>();
    this.localNames.push(local);
    // Minified bundles are one line of thousands of names: noise for every ranking.
    const sorted = (isMinified(record.path) ? [] : [...record.definitions]).sort(
      (a, b) => a.startLine - b.startLine || b.endLine - a.endLine,
    );
    for (const definition of sorted) {
      // The enclosing definition is the innermost still open that has the recorded parent's name.
      while (open.length > 0) {
        const top = this.nodes[open[open.length - 1] as number] as GraphNode;
        const contains = top.endLine >= definition.endLine && top.startLine <= definition.startLine;
        // Declarations on the same lines (`let a, b;`) are siblings unless one names the other as parent.
        const same = top.startLine === definition.startLine && top.endLine === definition.endLine;
        if (contains && (!same || top.name === definition.parent)) break;
        open.pop();
      }
      const named = definition.parent
        ? open.findLast((id) => this.nodes[id]?.name === definition.parent)
        : undefined;
      const id = this.pushNode({
        file,
        name: definition.name,
        kind: definition.kind,
        startLine: definition.startLine,
        endLine: definition.endLine,
        signature: definition.signature,
        parent: named ?? open[open.length - 1] ?? fileNode,
      });
      definitions.push(id);
      open.push(id);
      pushTo(local, definition.name, id);
      pushTo(this.byName, definition.name, id);
    }
    this.addFileEntry({
      resourceId: record.resourceId,
      path: record.path,
      language: record.language,
      node: fileNode,
      definitions,
    });
  }

  private addFileEntry(entry: GraphFile): void {
    const file = this.files.length;
    this.files.push(entry);
    pushTo(this.byPath, entry.path, file);
    pushTo(this.byBaseName, posix.basename(entry.path), file);
    pushTo(this.byDirectory, posix.dirname(entry.path), file);
  }

  private pushNode(node: Omit<GraphNode, "id">): number {
    const id = this.nodes.length;
    // One literal in one key order, as a graph read back from its cache has: queries walk
    // these nodes by the thousand, and nodes of mixed shapes (spread from different
    // sources) made every property read there several times slower.
    this.nodes.push({
      id,
      file: node.file,
      name: node.name,
      kind: node.kind,
      startLine: node.startLine,
      endLine: node.endLine,
      signature: node.signature,
      parent: node.parent,
    });
    return id;
  }

  addFileEdges(
    record: GraphFileRecord,
    file: number,
    add: (from: number, to: number, weight: number) => void,
  ): void {
    const graphFile = this.files[file] as GraphFile;
    for (const id of graphFile.definitions) {
      const node = this.nodes[id] as GraphNode;
      add(node.parent, id, CONTAINS_WEIGHT);
      add(id, node.parent, CONTAINS_WEIGHT);
    }
    const imported = new Set<number>();
    for (const statement of record.imports) {
      for (const target of this.resolveImport(statement)) {
        if (target === file) continue;
        add(graphFile.node, (this.files[target] as GraphFile).node, IMPORT_WEIGHT);
        imported.add(target);
      }
    }
    const visible = this.withReexports(imported);
    const lineNodes = this.innermostByLine(file);
    const importScoped = IMPORT_SCOPED_LANGUAGES.has(record.language);
    const names = this.familyNames(languageFamily(record.language));
    const local = this.localNames[file];
    // A first index builds the graph at the end of its run, before this code is hot:
    // this loop runs once per reference, so it allocates nothing per reference.
    for (const reference of record.references) {
      const { name, kind, lines, member } = reference;
      if (name.length < MIN_NAME_LENGTH) continue;
      const candidates = names.of(name);
      if (!candidates) continue;
      let targets: readonly number[] = local?.get(name) ?? NONE;
      let factor = targets.length > 0 ? LOCAL_FACTOR : 1;
      if (targets.length === 0) targets = visible.definitionsOf(candidates);
      if (targets.length === 0) {
        // Where names come only through imports, an unimported bare name is a local or a
        // global (`resolve()`: a promise's callback, not a method some file defines); a call
        // made on something may still be a method of an object from elsewhere, a type an
        // ambient one.
        if (importScoped && (kind === "use" || kind === "import" || (kind === "call" && !member)))
          continue;
        const definingFiles = names.definingFileCount(name, candidates);
        if (definingFiles > MAX_AMBIGUITY || names.onlyExtended(name, candidates)) continue;
        targets = candidates;
        factor = UNIQUE_NAME_FACTOR / definingFiles;
      }
      const weight = (KIND_WEIGHT[kind] * factor) / targets.length;
      // Lines ascend: count runs of one source (a nested definition splits its parent's run).
      let source = -1;
      let uses = 0;
      for (let i = 0; i < lines.length; i++) {
        const at = lineNodes[lines[i] as number] ?? graphFile.node;
        if (at !== source) {
          if (uses > 0) addToEach(add, source, targets, weight * Math.sqrt(uses));
          source = at;
          uses = 0;
        }
        uses++;
      }
      if (uses > 0) addToEach(add, source, targets, weight * Math.sqrt(uses));
    }
  }

  /** For each line of a file, its innermost definition's node (inner ones are painted last). */
  private innermostByLine(file: number): Int32Array {
    const graphFile = this.files[file] as GraphFile;
    const fileNode = this.nodes[graphFile.node] as GraphNode;
    const lines = new Int32Array(fileNode.endLine + 2).fill(graphFile.node);
    for (const id of graphFile.definitions) {
      const node = this.nodes[id] as GraphNode;
      lines.fill(id, node.startLine, node.endLine + 1);
    }
    return lines;
  }

  /** What the resolution of names learns of one language family's definitions, as it is asked. */
  private familyNames(family: string): FamilyNames {
    let names = this.byFamily.get(family);
    if (!names) {
      names = new FamilyNames(family, this.byName, this.nodes, this.familyOfFile);
      this.byFamily.set(family, names);
    }
    return names;
  }

  /** The files an import statement names: those of its first target that matches any. */
  private resolveImport(statement: GraphImport): number[] {
    for (const target of statement.targets) {
      const found = this.filesMatching(target);
      if (found.length > 0) return found;
    }
    return [];
  }

  private filesMatching(target: ImportTarget): number[] {
    if (target.match === "module") return moduleTargetFiles(target.path, this.byPath);
    const candidates =
      target.match === "exact"
        ? this.byPath.get(target.path)
        : target.match === "suffix"
          ? this.byBaseName.get(posix.basename(target.path))
          : [...this.byDirectory.entries()]
              .filter(([dir]) => dir === target.path || dir.endsWith(`/${target.path}`))
              .flatMap(([, files]) => files);
    return (candidates ?? []).filter((file) =>
      targetMatches(target, (this.files[file] as GraphFile).path),
    );
  }

  /** Imported files plus the files they pass names on from (`export … from`), transitively. */
  private withReexports(imported: ReadonlySet<number>): VisibleFiles {
    const visible = new Set(imported);
    let frontier = [...imported];
    for (let depth = 0; depth < MAX_REEXPORT_DEPTH && frontier.length > 0; depth++) {
      const next: number[] = [];
      for (const file of frontier) {
        for (const statement of this.reexports[file] ?? []) {
          for (const target of this.resolveImport(statement)) {
            if (!visible.has(target)) {
              visible.add(target);
              next.push(target);
            }
          }
        }
      }
      frontier = next;
    }
    return new VisibleFiles(visible, this.nodes);
  }
}

/**
 * The files a file sees through its imports, in the order they were reached.
 * A name's definitions are looked up among the few that bear it, not in each
 * visible file: a barrel file makes hundreds visible.
 */
class VisibleFiles {
  private readonly order = new Map<number, number>();

  constructor(
    files: Iterable<number>,
    private readonly nodes: readonly GraphNode[],
  ) {
    for (const file of files) this.order.set(file, this.order.size);
  }

  /** Those of `candidates` (definitions of one name) in visible files: by file in visible order, then as given. */
  definitionsOf(candidates: readonly number[]): number[] {
    const rank = (id: number) => this.order.get((this.nodes[id] as GraphNode).file) ?? -1;
    const found = candidates.filter((id) => rank(id) >= 0);
    if (found.length > 1) found.sort((a, b) => rank(a) - rank(b));
    return found;
  }
}

const NONE: readonly number[] = [];

/** Many uses from one place say a little more than one, not many times more: `weight` is already scaled for them. */
function addToEach(
  add: (from: number, to: number, weight: number) => void,
  source: number,
  targets: readonly number[],
  weight: number,
): void {
  for (let i = 0; i < targets.length; i++) add(source, targets[i] as number, weight);
}

export function pushTo(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * A file's `export … from` statements; every import of a Python package's
 * `__init__.py`, whose names are the package's (`from .sessions import
 * Session` there is what `from requests import Session` reaches).
 */
export function reexportsOf(record: GraphFileRecord): GraphImport[] {
  if (record.language === "python" && PACKAGE_INIT.test(record.path)) return [...record.imports];
  return record.imports.filter((statement) => statement.reexport);
}

const PACKAGE_INIT = /(^|\/)__init__\.pyi?$/;
