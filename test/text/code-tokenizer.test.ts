import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { indexTerms, queryTerms } from "../../src/text/code-tokenizer.js";

describe("indexTerms", () => {
  it("keeps identifiers whole and adds their camelCase, PascalCase and digit parts", () => {
    expect(indexTerms("getHTTPResponse2")).toEqual([
      "gethttpresponse2",
      "get",
      "http",
      "response",
      "2",
    ]);
    expect(indexTerms("RetryConfig")).toEqual(["retryconfig", "retry", "config"]);
  });

  it("splits snake_case and kebab-case, and joins them for the whole form", () => {
    expect(indexTerms("max_retry_count")).toEqual(["maxretrycount", "max", "retry", "count"]);
    expect(indexTerms("retry-config")).toEqual(["retryconfig", "retry", "config"]);
  });

  it("lower-cases plain words once and drops surrounding underscores", () => {
    expect(indexTerms("Hello world __init__ _private")).toEqual([
      "hello",
      "world",
      "init",
      "private",
    ]);
  });

  it("handles letters outside ASCII", () => {
    expect(indexTerms("naïveCafé 日本語")).toEqual(["naïvecafé", "naïve", "café", "日本語"]);
  });

  it("skips runs too long to be words (hashes, base64)", () => {
    expect(indexTerms(`id ${"a1".repeat(40)} end`)).toEqual(["id", "end"]);
  });
});

describe("queryTerms", () => {
  it("drops English function words and repeats", () => {
    expect(
      queryTerms("What is the purpose of the DiffExecutor struct and the DiffExecutor?"),
    ).toEqual(["purpose", "diffexecutor", "diff", "executor", "struct"]);
  });

  it("keeps function words when the query has nothing else", () => {
    expect(queryTerms("what is this")).toEqual(["what", "is", "this"]);
  });
});

/** The definition indexTerms implements, as regular expressions: the oracle for the fast scanner. */
function referenceTerms(text: string): string[] {
  const into: string[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}_]+(?:-[\p{L}\p{N}_]+)*/gu)) {
    const word = match[0];
    if (word.length > 48) continue;
    if (/^(?:[a-z]+|[A-Z][a-z]*|[0-9]+)$/.test(word)) {
      into.push(word.toLowerCase());
      continue;
    }
    const whole = word.replace(/[-_]/g, "").toLowerCase();
    if (whole.length === 0) continue;
    into.push(whole);
    const start = into.length;
    for (const part of word.matchAll(
      /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+|[\p{Lo}\p{Lm}\p{Lt}\p{M}]+/gu,
    )) {
      into.push(part[0].toLowerCase());
    }
    if (into.length - start === 1) into.length = start;
  }
  return into;
}

describe("indexTerms against its regular-expression definition", () => {
  const alphabet = [..."aAbZz09_-- .,;:(){}\n\t/'\"é日ßİΣ٣\u0301😀\ud800"];
  const piece = fc.oneof(
    fc.constantFrom(...alphabet),
    fc.constantFrom("HTTP", "Response", "get", "XMLHttpRequest", "v2", "__init__", "a-b", "-"),
  );

  it("gives the same terms for random code-like text, Unicode and surrogates included", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const text = pieces.join("");
        expect(indexTerms(text)).toEqual(referenceTerms(text));
      }),
      { numRuns: 3000 },
    );
  });

  it("gives the same terms for arbitrary strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 80 }), (text) => {
        expect(indexTerms(text)).toEqual(referenceTerms(text));
      }),
      { numRuns: 3000 },
    );
  });

  it("gives the same terms for this repository's source", () => {
    const source = readFileSync(
      new URL("../../src/text/code-tokenizer.ts", import.meta.url),
      "utf8",
    );
    expect(indexTerms(source)).toEqual(referenceTerms(source));
  });
});
