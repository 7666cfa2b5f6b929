/** How many leading bytes decide whether a file is binary. */
const SNIFF_BYTES = 8192;
/** Above this share of undecodable bytes a NUL-free file is still treated as binary. */
const MAX_INVALID_RATIO = 0.1;

export type DecodeResult = { readonly text: string } | { readonly binary: true };

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });
const lenientUtf8 = new TextDecoder("utf-8", { fatal: false });
const latin1 = new TextDecoder("latin1");

/**
 * Decides by content whether a file is text and decodes it. NUL bytes mean
 * binary. Valid UTF-8 (with or without BOM) is text. Otherwise a file with few
 * invalid sequences is legacy 8-bit text, read as Latin-1 so no byte is lost;
 * many invalid sequences mean binary.
 */
export function decodeText(bytes: Uint8Array): DecodeResult {
  const sniff = bytes.subarray(0, SNIFF_BYTES);
  if (sniff.includes(0)) return { binary: true };
  try {
    return { text: stripBom(strictUtf8.decode(bytes)) };
  } catch {
    const decoded = lenientUtf8.decode(sniff);
    let invalid = 0;
    for (let i = 0; i < decoded.length; i++) if (decoded.charCodeAt(i) === 0xfffd) invalid++;
    if (invalid / Math.max(1, decoded.length) > MAX_INVALID_RATIO) return { binary: true };
    if (hasControlNoise(sniff)) return { binary: true };
    return { text: latin1.decode(bytes) };
  }
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Control bytes other than tab, newline, carriage return, form feed and escape are rare in text. */
function hasControlNoise(bytes: Uint8Array): boolean {
  let control = 0;
  for (const byte of bytes) {
    if (byte < 32 && byte !== 9 && byte !== 10 && byte !== 13 && byte !== 12 && byte !== 27)
      control++;
  }
  return control / Math.max(1, bytes.length) > 0.02;
}
