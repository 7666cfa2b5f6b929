import { randomFillSync } from "node:crypto";
import { monotonicFactory } from "ulid";

/**
 * Random fractions from a buffer filled 256 bytes at a time: a ulid takes
 * sixteen, and asking the system for each one (ulid's default) cost a query
 * about 0.1 ms.
 */
function bufferedRandom(): () => number {
  const bytes = new Uint8Array(256);
  let next = bytes.length;
  return () => {
    if (next === bytes.length) {
      randomFillSync(bytes);
      next = 0;
    }
    return (bytes[next++] as number) / 256;
  };
}

/** Ids that sort in the order they were made, also within one millisecond (the log lists the newest by sorting). */
const nextId = monotonicFactory(bufferedRandom());

/** Keeps the last few requests' records, by id, for "explain the last (or that) request". */
export class RecentRequests<T> {
  private readonly entries = new Map<string, T>();
  private lastId: string | null = null;

  constructor(private readonly capacity = 50) {}

  add(record: T): string {
    const id = nextId();
    this.entries.set(id, record);
    this.lastId = id;
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return id;
  }

  /** The record of `id`, or of the last request when no id is given. */
  get(id?: string): { id: string; record: T } | null {
    const key = id ?? this.lastId;
    if (key === null) return null;
    const record = this.entries.get(key);
    return record === undefined ? null : { id: key, record };
  }
}
