/**
 * A file of named sections: a short JSON header, then typed arrays and string
 * tables laid out as bytes, each section at a multiple of 8 bytes. Read back,
 * arrays are views of the file's bytes (nothing is parsed or copied) and a
 * string is decoded when it is asked for.
 */

const MAGIC = "ctxpack\n";
const ALIGN = 8;

type Section = readonly [offset: number, bytes: number];

/** Collects sections, then lays them out after the header. */
export class SectionWriter {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;
  private readonly sections: Record<string, Section> = {};

  int32(name: string, values: Int32Array | readonly number[]): void {
    const array = values instanceof Int32Array ? values : Int32Array.from(values);
    this.add(name, new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  }

  float64(name: string, values: Float64Array): void {
    this.add(name, new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  }

  uint8(name: string, values: Uint8Array): void {
    this.add(name, values);
  }

  /** Strings as UTF-8 (`NAME.bytes`) with where each starts (`NAME.at`, one more than there are). */
  strings(name: string, values: readonly string[]): void {
    const at = new Int32Array(values.length + 1);
    let total = 0;
    for (let i = 0; i < values.length; i++) {
      total += Buffer.byteLength(values[i] as string, "utf8");
      at[i + 1] = total;
    }
    const bytes = Buffer.allocUnsafe(total);
    for (let i = 0; i < values.length; i++)
      bytes.write(values[i] as string, at[i] as number, "utf8");
    this.int32(`${name}.at`, at);
    this.add(`${name}.bytes`, bytes);
  }

  /** The file: magic, header length, header (with the sections' places), then the sections. */
  finish(header: Record<string, unknown>): Buffer {
    const head = Buffer.from(JSON.stringify({ ...header, sections: this.sections }), "utf8");
    const start = align(MAGIC.length + 4 + head.length);
    const file = Buffer.alloc(start + this.size);
    file.write(MAGIC, 0, "latin1");
    file.writeUInt32LE(head.length, MAGIC.length);
    head.copy(file, MAGIC.length + 4);
    let at = start;
    for (const chunk of this.chunks) {
      at = start + align(at - start);
      file.set(chunk, at);
      at += chunk.length;
    }
    return file;
  }

  private add(name: string, bytes: Uint8Array): void {
    if (Object.hasOwn(this.sections, name))
      throw new Error(`packed file: two sections named ${name}`);
    this.size = align(this.size);
    this.sections[name] = [this.size, bytes.length];
    this.chunks.push(bytes);
    this.size += bytes.length;
  }
}

/** Strings of a table, decoded one at a time. */
export interface StringTable {
  readonly count: number;
  get(index: number): string;
}

/** The sections of a file SectionWriter wrote; every read is checked against the file's bounds. */
export class SectionReader {
  private constructor(
    private readonly data: Buffer,
    private readonly sections: Readonly<Record<string, Section>>,
    readonly header: Readonly<Record<string, unknown>>,
  ) {}

  /** Null when the bytes are not such a file, or its header is damaged. */
  static open(file: Buffer): SectionReader | null {
    if (file.length < MAGIC.length + 4 || file.toString("latin1", 0, MAGIC.length) !== MAGIC)
      return null;
    const length = file.readUInt32LE(MAGIC.length);
    const start = align(MAGIC.length + 4 + length);
    if (start > file.length) return null;
    let header: Record<string, unknown>;
    try {
      header = JSON.parse(file.toString("utf8", MAGIC.length + 4, MAGIC.length + 4 + length));
    } catch {
      return null;
    }
    const sections = header.sections;
    if (typeof sections !== "object" || sections === null) return null;
    // Typed views need their element size's alignment: a file read into a shared pool may lack it.
    const data = (file.byteOffset + start) % ALIGN === 0 ? file.subarray(start) : copy(file, start);
    const reader = new SectionReader(data, sections as Record<string, Section>, header);
    // Every section within the file, also those read only later: a file cut short is refused now.
    try {
      for (const name of Object.keys(sections)) reader.place(name, 1);
    } catch {
      return null;
    }
    return reader;
  }

  int32(name: string, count?: number): Int32Array {
    const [offset, bytes] = this.place(name, 4);
    const array = new Int32Array(this.data.buffer, this.data.byteOffset + offset, bytes / 4);
    return checkCount(array, count, name);
  }

  float64(name: string, count?: number): Float64Array {
    const [offset, bytes] = this.place(name, 8);
    const array = new Float64Array(this.data.buffer, this.data.byteOffset + offset, bytes / 8);
    return checkCount(array, count, name);
  }

  uint8(name: string, count?: number): Uint8Array {
    const [offset, bytes] = this.place(name, 1);
    return checkCount(this.data.subarray(offset, offset + bytes), count, name);
  }

  has(name: string): boolean {
    return Object.hasOwn(this.sections, name);
  }

  /** A string table of `count` strings whose starts only go forward within its bytes. */
  strings(name: string, count?: number): StringTable {
    const at = this.int32(`${name}.at`, count === undefined ? undefined : count + 1);
    const [offset, bytes] = this.place(`${name}.bytes`, 1);
    ascending(at, bytes, `${name}.at`);
    const data = this.data;
    return {
      count: at.length - 1,
      get: (index) =>
        index >= 0 && index < at.length - 1
          ? data.toString(
              "utf8",
              offset + (at[index] as number),
              offset + (at[index + 1] as number),
            )
          : "",
    };
  }

  text(name: string): string {
    const [offset, bytes] = this.place(name, 1);
    return this.data.toString("utf8", offset, offset + bytes);
  }

  private place(name: string, size: number): Section {
    const section = this.sections[name];
    if (
      !Array.isArray(section) ||
      !Number.isInteger(section[0]) ||
      !Number.isInteger(section[1]) ||
      section[0] < 0 ||
      section[1] < 0 ||
      section[0] % ALIGN !== 0 ||
      section[1] % size !== 0 ||
      section[0] + section[1] > this.data.length
    ) {
      throw new DamagedSectionError(name);
    }
    return section;
  }
}

/** A section missing, out of the file's bounds, or not what it says it holds: never leaves a read. */
class DamagedSectionError extends Error {
  constructor(section: string) {
    super(`packed file: section ${section} is damaged`);
  }
}

/** Checks that `values` go forward from 0 and end within `limit`. */
export function ascending(values: Int32Array, limit: number, name: string): void {
  // Indexed loops: a graph of 200,000 files has millions of values to check on every read.
  let previous = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i] as number;
    if (value < previous) throw new DamagedSectionError(name);
    previous = value;
  }
  if (values[0] !== 0 || previous > limit) throw new DamagedSectionError(name);
}

/** `values`, checked to lie in [min, max) every one. */
export function within(values: Int32Array, min: number, max: number, name: string): Int32Array {
  for (let i = 0; i < values.length; i++) {
    const value = values[i] as number;
    if (value < min || value >= max) throw new DamagedSectionError(name);
  }
  return values;
}

function checkCount<T extends { readonly length: number }>(
  array: T,
  count: number | undefined,
  name: string,
): T {
  if (count !== undefined && array.length !== count) throw new DamagedSectionError(name);
  return array;
}

function align(value: number): number {
  return Math.ceil(value / ALIGN) * ALIGN;
}

function copy(file: Buffer, start: number): Buffer {
  const data = Buffer.alloc(file.length - start);
  file.copy(data, 0, start);
  return data;
}
