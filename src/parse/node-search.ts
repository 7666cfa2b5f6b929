import { endianness } from "node:os";
import { type Language, Node, type Tree } from "web-tree-sitter";

/** What a node search needs of web-tree-sitter's emscripten module. */
interface SearchModule {
  readonly HEAP32: Int32Array;
  _ts_init(): number;
  _malloc(bytes: number): number;
  _ts_node_descendants_of_type_wasm(
    tree: number,
    symbols: number,
    count: number,
    startRow: number,
    startColumn: number,
    endRow: number,
    endColumn: number,
  ): void;
  _ts_node_symbol_wasm(tree: number): number;
  _free(pointer: number): void;
}

/** A node crosses the boundary as five 32-bit fields: id, start index, start row, start column, alias. */
const FIELDS = 5;

let wasm: { readonly module: SearchModule; readonly transfer: number } | null = null;

/**
 * Lets `searchNodes` read the search's results itself, on web-tree-sitter's
 * module (the options object given to `Parser.init`); false, and the library's
 * own `descendantsOfType` is used, when the module does not look as expected.
 */
export function enableNodeSearch(module: Record<string, unknown>): boolean {
  const functions = [
    "_ts_init",
    "_malloc",
    "_free",
    "_ts_node_descendants_of_type_wasm",
    "_ts_node_symbol_wasm",
  ];
  if (
    endianness() !== "LE" ||
    !(module.HEAP32 instanceof Int32Array) ||
    functions.some((name) => typeof module[name] !== "function")
  ) {
    return false;
  }
  const searchModule = module as unknown as SearchModule;
  // The library's own start-up call: it hands back the transfer buffer's address again.
  wasm = { module: searchModule, transfer: searchModule._ts_init() };
  return true;
}

/** The node types to search for, as a grammar numbers them. */
export class SearchedTypes {
  /**
   * Ascending, as the library passes them: given in another order, the search
   * missed some of the types. A name can have several ids (aliases).
   */
  readonly ids: Int32Array;
  private symbols = 0;

  constructor(
    private readonly language: Language,
    readonly names: readonly string[],
  ) {
    const wanted = new Set(names);
    const ids: number[] = [];
    language.types.forEach((type, id) => {
      if (wanted.has(type)) ids.push(id);
    });
    this.ids = Int32Array.from(ids);
  }

  typeName(id: number): string {
    return this.language.types[id] ?? "ERROR";
  }

  /** The ids in the module's memory, written once (they live as long as the grammar). */
  address(module: SearchModule): number {
    if (this.symbols === 0 && this.ids.length > 0) {
      this.symbols = module._malloc(4 * this.ids.length);
      module.HEAP32.set(this.ids, this.symbols >> 2);
    }
    return this.symbols;
  }
}

/**
 * The nodes a search found, in document order: each one's type, start and
 * start row without a `Node` object per match, and a `Node` on request.
 * Searching a file for its names this way makes no object per name (three.js:
 * 170,000 names), where the library's search makes three.
 */
export interface FoundNodes {
  readonly count: number;
  typeId(index: number): number;
  /** UTF-16 index of the node's start in the source. */
  startIndex(index: number): number;
  /** 0-based row of the node's start. */
  row(index: number): number;
  node(index: number): Node;
}

/** Every node under `root` of one of `types`, in document order. */
export function searchNodes(root: Node, types: SearchedTypes): FoundNodes {
  if (!wasm || types.ids.length === 0) return searchNodesWithLibrary(root, types);
  const { module, transfer } = wasm;
  const slot = transfer >> 2;
  writeNode(module.HEAP32, slot, root.id, root.startIndex, root.startPosition, aliasOf(root));
  const tree = (root.tree as unknown as Record<number, number>)[0] ?? 0;
  module._ts_node_descendants_of_type_wasm(
    tree,
    types.address(module),
    types.ids.length,
    0,
    0,
    0,
    0,
  );
  // The search may grow the memory, which replaces the module's views.
  let heap = module.HEAP32;
  const count = heap[slot] as number;
  const address = heap[slot + 1] as number;
  const fields = heap.slice(address >> 2, (address >> 2) + count * FIELDS);
  module._free(address);
  heap = module.HEAP32;
  const typeIds = new Uint16Array(count);
  for (let index = 0, at = 0; index < count; index++, at += FIELDS) {
    heap[slot] = fields[at] as number;
    heap[slot + 1] = fields[at + 1] as number;
    heap[slot + 2] = fields[at + 2] as number;
    heap[slot + 3] = fields[at + 3] as number;
    heap[slot + 4] = fields[at + 4] as number;
    typeIds[index] = module._ts_node_symbol_wasm(tree);
  }
  return new RawFound(fields, typeIds, root.tree);
}

/** The node's alias field (the library keeps it at index 0, outside its typings). */
function aliasOf(node: Node): number {
  return (node as unknown as Record<number, number>)[0] ?? 0;
}

/** Whether searches read their results themselves (see enableNodeSearch). */
export function nodeSearchEnabled(): boolean {
  return wasm !== null;
}

function writeNode(
  heap: Int32Array,
  slot: number,
  id: number,
  startIndex: number,
  start: { row: number; column: number },
  alias: number,
): void {
  heap[slot] = id;
  heap[slot + 1] = startIndex;
  heap[slot + 2] = start.row;
  heap[slot + 3] = start.column;
  heap[slot + 4] = alias;
}

class RawFound implements FoundNodes {
  constructor(
    private readonly fields: Int32Array,
    private readonly typeIds: Uint16Array,
    private readonly tree: Tree,
  ) {}

  get count(): number {
    return this.typeIds.length;
  }

  typeId(index: number): number {
    return this.typeIds[index] as number;
  }

  startIndex(index: number): number {
    return this.fields[index * FIELDS + 1] as number;
  }

  row(index: number): number {
    return this.fields[index * FIELDS + 2] as number;
  }

  node(index: number): Node {
    const at = index * FIELDS;
    // The fields the library's own nodes have, set as its constructor sets them (which
    // takes a token only the library holds): its methods send these back across.
    const node = Object.create(Node.prototype) as Record<string | number, unknown>;
    node[0] = this.fields[at + 4];
    node._children = undefined;
    node._namedChildren = undefined;
    node.id = this.fields[at];
    node.startIndex = this.fields[at + 1];
    node.startPosition = { row: this.fields[at + 2], column: this.fields[at + 3] };
    node.tree = this.tree;
    return node as unknown as Node;
  }
}

/** The same search through the library's `descendantsOfType`: where the module is not as expected. */
export function searchNodesWithLibrary(root: Node, types: SearchedTypes): FoundNodes {
  const nodes = types.ids.length === 0 ? [] : root.descendantsOfType([...types.names]);
  return {
    count: nodes.length,
    typeId: (index) => (nodes[index] as Node).typeId,
    startIndex: (index) => (nodes[index] as Node).startIndex,
    row: (index) => (nodes[index] as Node).startPosition.row,
    node: (index) => nodes[index] as Node,
  };
}
