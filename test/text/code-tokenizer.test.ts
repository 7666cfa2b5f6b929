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
