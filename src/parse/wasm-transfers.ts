import { endianness } from "node:os";

type GetValue = (pointer: number, type?: string) => number;
type SetValue = (pointer: number, value: number, type?: string) => void;

/**
 * web-tree-sitter passes every node across the WebAssembly boundary as five
 * 32-bit fields of a transfer buffer, written and read with emscripten's
 * generic `setValue`/`getValue`, which test the type's name
 * (`type.endsWith("*")`) and go through a DataView on each call: a node's
 * type, a child by field, each node `descendantsOfType` hands back. The
 * emscripten module is the options object given to `Parser.init`, and the
 * library calls these two through it, so here 32-bit fields are read and
 * written on the module's own Int32Array instead; other types go to the
 * originals. On three.js's JavaScript this took the marshalling around
 * `descendantsOfType` from about 400 to about 250 ms, and the code graph's
 * instructions in a one-thread index run by about 8 %. Little-endian hosts only (the
 * array is in the host's order, the WebAssembly memory little-endian).
 * Returns whether the shortcut is in place: false when the module does not
 * look as expected, and then the library runs as it is.
 */
export function shortcutTransfers(module: Record<string, unknown>): boolean {
  const { getValue, setValue } = module;
  if (
    endianness() !== "LE" ||
    typeof getValue !== "function" ||
    typeof setValue !== "function" ||
    !(module.HEAP32 instanceof Int32Array)
  ) {
    return false;
  }
  const get = getValue as GetValue;
  const set = setValue as SetValue;
  let heap = module.HEAP32;
  // Growing the memory detaches the old view (length 0); the module then holds a new one.
  const view = (): Int32Array => {
    if (heap.length === 0) heap = module.HEAP32 as Int32Array;
    return heap;
  };
  module.getValue = ((pointer: number, type = "i8") =>
    type === "i32" ? (view()[pointer >> 2] as number) : get(pointer, type)) satisfies GetValue;
  module.setValue = ((pointer: number, value: number, type = "i8") => {
    if (type === "i32") view()[pointer >> 2] = value;
    else set(pointer, value, type);
  }) satisfies SetValue;
  return true;
}
