import { describe, expect, it } from "vitest";
import { decodeText } from "../../src/ingest/hydrate/decode-text.js";

describe("decodeText", () => {
  it("reads UTF-8 and drops a byte-order mark", () => {
    expect(decodeText(Buffer.from("\uFEFFcafé ☕\n", "utf8"))).toEqual({ text: "café ☕\n" });
  });

  it("treats NUL bytes as binary whatever the extension", () => {
    expect(decodeText(Buffer.from([0x68, 0x69, 0x00, 0x21]))).toEqual({ binary: true });
  });

  it("reads legacy Latin-1 text instead of dropping it", () => {
    const latin1 = Buffer.from("// résumé of the naïve code\nint x = 1;\n", "latin1");
    expect(decodeText(latin1)).toEqual({ text: "// résumé of the naïve code\nint x = 1;\n" });
  });

  it("treats bytes that are mostly invalid UTF-8 as binary", () => {
    const noise = Buffer.from(Array.from({ length: 4096 }, (_, i) => 0x80 + ((i * 37) % 120)));
    expect(decodeText(noise)).toEqual({ binary: true });
  });
});
