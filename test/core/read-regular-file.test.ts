import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  checkRegularFile,
  readRegularFile,
  readRegularFileAsync,
  readRegularText,
} from "../../src/core/read-regular-file.js";
import { tempDir } from "../helpers/temp-dir.js";

const root = tempDir("ctx-regular-");
const outside = tempDir("ctx-regular-out-");
writeFileSync(join(root, "plain.txt"), "plain text\n");
writeFileSync(join(outside, "secret.txt"), "outside marker\n");
mkdirSync(join(root, "docs"));
writeFileSync(join(root, "docs", "real.md"), "inside\n");
symlinkSync(join(root, "docs", "real.md"), join(root, "inside-link.md"));
symlinkSync(join(outside, "secret.txt"), join(root, "outside-link.md"));
// A link to a folder that leads out: the file below it is outside too.
symlinkSync(outside, join(root, "out-dir"));
symlinkSync("/dev/zero", join(root, "zero"));
symlinkSync(join(root, "nowhere"), join(root, "dangling"));
execFileSync("mkfifo", [join(root, "fifo")]);

let socketServer: Server | null = null;
afterAll(() => socketServer?.close());

const bounds = { maxBytes: 1024, root };

describe("readRegularFile", () => {
  it("reads a regular file, and one reached by a link that stays inside the root", () => {
    expect(readRegularText(join(root, "plain.txt"), bounds)).toMatchObject({
      ok: true,
      text: "plain text\n",
    });
    const linked = readRegularText(join(root, "inside-link.md"), bounds);
    expect(linked).toMatchObject({ ok: true, text: "inside\n" });
    expect(linked.ok && linked.realPath).toMatch(/docs\/real\.md$/);
  });

  it("refuses a link, or a folder link, that leads out of the root, without its content", () => {
    for (const path of [join(root, "outside-link.md"), join(root, "out-dir", "secret.txt")]) {
      const read = readRegularFile(path, bounds);
      expect(read).toMatchObject({ ok: false, reason: "outside-root" });
      expect(JSON.stringify(read)).not.toContain("outside marker");
    }
    // Without a root the same link is followed: the user's own files may be links.
    expect(readRegularText(join(root, "outside-link.md"), { maxBytes: 1024 }).ok).toBe(true);
  });

  it("refuses a FIFO at once instead of waiting for a writer", () => {
    const started = Date.now();
    expect(readRegularFile(join(root, "fifo"), bounds)).toMatchObject({
      ok: false,
      reason: "not-a-regular-file",
      detail: expect.stringMatching(/FIFO/),
    });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("refuses /dev/zero (through a link and by its own name) without reading it", () => {
    expect(readRegularFile(join(root, "zero"), { maxBytes: 1024 })).toMatchObject({
      ok: false,
      reason: "not-a-regular-file",
      detail: expect.stringMatching(/character device/),
    });
    expect(readRegularFile("/dev/zero", { maxBytes: 1024 }).ok).toBe(false);
  });

  it("refuses a unix socket and a folder", async () => {
    const socketPath = join(root, "sock");
    socketServer = createServer();
    const server = socketServer;
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    expect(readRegularFile(socketPath, bounds)).toMatchObject({
      ok: false,
      reason: "not-a-regular-file",
      detail: expect.stringMatching(/socket/),
    });
    expect(readRegularFile(join(root, "docs"), bounds)).toMatchObject({
      ok: false,
      reason: "not-a-regular-file",
      detail: expect.stringMatching(/folder/),
    });
  });

  it("refuses a file over the bound instead of reading part of it", () => {
    writeFileSync(join(root, "big.txt"), "x".repeat(1025));
    writeFileSync(join(root, "exact.txt"), "x".repeat(1024));
    expect(readRegularFile(join(root, "big.txt"), bounds)).toMatchObject({
      ok: false,
      reason: "too-large",
    });
    const exact = readRegularFile(join(root, "exact.txt"), bounds);
    expect(exact.ok && exact.bytes.length).toBe(1024);
  });

  it("tells a missing file (a dangling link too) from an unreadable one", () => {
    expect(readRegularFile(join(root, "absent.txt"), bounds)).toMatchObject({
      ok: false,
      reason: "missing",
    });
    expect(readRegularFile(join(root, "dangling"), bounds)).toMatchObject({
      ok: false,
      reason: "missing",
    });
    expect(readRegularFile(join(root, "plain.txt", "below"), bounds)).toMatchObject({
      ok: false,
      reason: "missing",
    });
  });

  it("checks without reading: the size and real path of a file it would serve", () => {
    expect(checkRegularFile(join(root, "inside-link.md"), bounds)).toMatchObject({
      ok: true,
      size: 7,
    });
    expect(checkRegularFile(join(root, "outside-link.md"), bounds).ok).toBe(false);
    expect(checkRegularFile(join(root, "fifo"), bounds).ok).toBe(false);
  });
});

describe("readRegularFileAsync", () => {
  it("reads what readRegularFile reads, and refuses what it refuses, for the same reasons", async () => {
    writeFileSync(join(root, "large.bin"), Buffer.alloc(300 * 1024, 7));
    const large = { maxBytes: 1024 * 1024, root };
    const read = await readRegularFileAsync(join(root, "large.bin"), large);
    expect(read.ok && read.bytes.equals(Buffer.alloc(300 * 1024, 7))).toBe(true);
    for (const name of [
      "plain.txt",
      "inside-link.md",
      "outside-link.md",
      "fifo",
      "zero",
      "docs",
      "dangling",
      "big.txt",
    ]) {
      const sync = readRegularFile(join(root, name), bounds);
      const viaPool = await readRegularFileAsync(join(root, name), bounds);
      expect(viaPool, name).toEqual(sync);
    }
  });
});
