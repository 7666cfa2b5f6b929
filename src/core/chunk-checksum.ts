import * as crypto from "node:crypto";

/**
 * SHA-1 of a text, hex: in one call where Node has it (20.12 and later), five
 * times quicker than a Hash object on a chunk's few hundred bytes.
 */
const sha1Hex: (text: string) => string =
  typeof crypto.hash === "function"
    ? (text) => crypto.hash("sha1", text)
    : (text) => crypto.createHash("sha1").update(text).digest("hex");

/**
 * The checksum a chunk's text is stored with (its `hash`): part of the context
 * cache key, and what the stores check the text they read against.
 */
export function chunkChecksum(text: string): string {
  return sha1Hex(text);
}
