import { describe, expect, it } from "vitest";
import { StoreError } from "../../src/core/errors.js";
import { vectorLiteral } from "../../src/store/postgres/vector-literal.js";

describe("a vector as pgvector's text input", () => {
  it("writes each number as JSON would, float32 values at full precision", () => {
    expect(vectorLiteral([0.5, -1, 0, 3], "db")).toBe("[0.5,-1,0,3]");
    expect(vectorLiteral(new Float32Array([0.1, -0.25]), "db")).toBe("[0.10000000149011612,-0.25]");
    expect(vectorLiteral([1e-7, 1.5e21, -0], "db")).toBe("[1e-7,1.5e+21,0]");
    expect(vectorLiteral([], "db")).toBe("[]");
    const vector = new Float32Array([0.3, -0.7, 1e-30, 12345.678]);
    expect(vectorLiteral(vector, "db")).toBe(JSON.stringify(Array.from(vector)));
  });

  it("refuses NaN and infinities, naming the position, instead of writing null", () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      const write = () => vectorLiteral(new Float32Array([0.5, bad, 1]), "postgres://db");
      expect(write).toThrow(StoreError);
      expect(write).toThrow(`postgres://db: a vector holds ${bad} at position 1`);
    }
  });
});
