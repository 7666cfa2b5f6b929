/**
 * A read-only array of `length` items, each made by `make` the first time it
 * is read and kept: a graph read back from its packed form has hundreds of
 * thousands of nodes, of which a query reads a few thousand. Reads, `length`,
 * `in`, iteration and the array methods work as on a plain array.
 */
export function lazyArray<T>(length: number, make: (index: number) => T): readonly T[] {
  const made = new Array<T | undefined>(length);
  const itemAt = (index: number): T => {
    let item = made[index];
    if (item === undefined) {
      item = make(index);
      made[index] = item;
    }
    return item;
  };
  return new Proxy(made as T[], {
    get(target, key, receiver) {
      const index = indexOf(key);
      if (index < 0) return Reflect.get(target, key, receiver);
      return index < length ? itemAt(index) : undefined;
    },
    has(target, key) {
      const index = indexOf(key);
      return index < 0 ? Reflect.has(target, key) : index < length;
    },
    getOwnPropertyDescriptor(target, key) {
      const index = indexOf(key);
      if (index < 0 || index >= length) return Reflect.getOwnPropertyDescriptor(target, key);
      // As a plain array's own slot: what spreading and Object.keys ask for.
      return { value: itemAt(index), writable: true, enumerable: true, configurable: true };
    },
    ownKeys(target) {
      // Every index, as a plain array of this length has (what deep comparisons walk), then `length`.
      const others = Reflect.ownKeys(target).filter((key) => indexOf(key) < 0);
      return [...Array.from({ length }, (_, index) => String(index)), ...others];
    },
    set() {
      return false;
    },
    deleteProperty() {
      return false;
    },
  });
}

/** The array index a property key names, or -1 (an index comes to a proxy as a string). */
function indexOf(key: string | symbol): number {
  if (typeof key !== "string" || key.length === 0 || key.length > 10) return -1;
  if (key.length > 1 && key.charCodeAt(0) === 48) return -1;
  let index = 0;
  for (let i = 0; i < key.length; i++) {
    const digit = key.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    index = index * 10 + digit;
  }
  return index < 2 ** 32 - 1 ? index : -1;
}
