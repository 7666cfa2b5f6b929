import { ulid } from "ulid";

/** Keeps the last few requests' records, by id, for "explain the last (or that) request". */
export class RecentRequests<T> {
  private readonly entries = new Map<string, T>();
  private lastId: string | null = null;

  constructor(private readonly capacity = 50) {}

  add(record: T): string {
    const id = ulid();
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
