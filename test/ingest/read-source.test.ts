import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeText } from "../../src/ingest/hydrate/decode-text.js";
import { cutPoint, readSource } from "../../src/ingest/read-source.js";
import { tempDir } from "../helpers/temp-dir.js";

const sha1 = (bytes: Buffer) => createHash("sha1").update(bytes).digest("hex");

describe("readSource", () => {
  const dir = tempDir("ctx-read-source-");

  it("reads a file within the bound whole, with its hash", () => {
    const content = Buffer.from("const a = 1;\nconst b = 2;\n");
    writeFileSync(join(dir, "small.ts"), content);
    const read = readSource(join(dir, "small.ts"), 1024);
    expect(read?.bytes.equals(content)).toBe(true);
    expect(read?.size).toBe(content.length);
    expect(read?.hash).toBe(sha1(content));
  });

  it("keeps a larger file's first part up to its last whole line, and hashes all of it", () => {
    const content = Buffer.from(`${"line one\n".repeat(50)}tail past the bound\n`);
    writeFileSync(join(dir, "large.txt"), content);
    const read = readSource(join(dir, "large.txt"), 100);
    // 100 bytes hold 11 whole lines of 9 bytes; the twelfth is cut off, not kept in part.
    expect(read?.bytes.toString()).toBe("line one\n".repeat(11));
    expect(read?.size).toBe(content.length);
    expect(read?.hash).toBe(sha1(content));
    // A change past the cut is still a change.
    writeFileSync(join(dir, "large.txt"), Buffer.concat([content, Buffer.from("more\n")]));
    expect(readSource(join(dir, "large.txt"), 100)?.hash).not.toBe(read?.hash);
  });

  it("cuts one long line of UTF-8 before a character, never inside one", () => {
    // "é" is two bytes, "日" three, "😀" four: every cut point lands in some character.
    for (const char of ["é", "日", "😀"]) {
      const content = Buffer.from(`x${char.repeat(400)}`);
      for (let bound = 50; bound < 60; bound++) {
        const read = readSource(writeAt(dir, "line.txt", content), bound);
        const bytes = read?.bytes ?? Buffer.alloc(0);
        expect(bytes.length).toBeLessThanOrEqual(bound);
        expect(bytes.length).toBeGreaterThan(bound - 4 - char.length);
        const decoded = decodeText(bytes);
        expect(decoded).toEqual({
          text: `x${char.repeat((bytes.length - 1) / Buffer.byteLength(char))}`,
        });
      }
    }
  });

  it("is null for what is not a regular file, without waiting on a FIFO", () => {
    execFileSync("mkfifo", [join(dir, "pipe.ts")]);
    mkdirSync(join(dir, "folder.ts"));
    expect(readSource(join(dir, "pipe.ts"))).toBeNull();
    expect(readSource(join(dir, "folder.ts"))).toBeNull();
    expect(readSource(join(dir, "missing.ts"))).toBeNull();
  });

  it("cuts after the last line break near the end, else at a character's start", () => {
    expect(cutPoint(Buffer.from("ab\ncd\nef"), 8)).toBe(6);
    expect(cutPoint(Buffer.from("abcdef"), 6)).toBe(6);
    const utf8 = Buffer.from("aé");
    expect(cutPoint(utf8, 3)).toBe(1);
    expect(cutPoint(utf8, 2)).toBe(1);
  });
});

function writeAt(dir: string, name: string, content: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}
