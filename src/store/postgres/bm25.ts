import { fts5Tokens } from "./fts5-tokens.js";

/** FTS5's bm25() constants. */
const K1 = 1.2;
const B = 0.75;

/** How often each token occurs in each field of one row, and the row's length in tokens. */
export interface FieldCounts {
  /** token → occurrences per field, in the fields' order. */
  readonly terms: Map<string, number[]>;
  /** Tokens in all fields: BM25's document length (FTS5 counts every column, unweighted). */
  readonly length: number;
}

/** Tokenizes each field as FTS5 would and counts tokens per field. */
export function countFields(fields: readonly string[]): FieldCounts {
  const terms = new Map<string, number[]>();
  let length = 0;
  fields.forEach((text, field) => {
    for (const token of fts5Tokens(text)) {
      length++;
      let counts = terms.get(token);
      if (!counts) {
        counts = fields.map(() => 0);
        terms.set(token, counts);
      }
      counts[field] = (counts[field] as number) + 1;
    }
  });
  return { terms, length };
}

/**
 * FTS5 turns each query term into a phrase of its tokens; terms come from the
 * code tokenizer as single words, so a term of several tokens (rare: marks
 * between letters) is searched as its first, FTS5 would ask for all in a row.
 */
export function queryTokens(terms: readonly string[]): string[] {
  return terms.flatMap((term) => fts5Tokens(term).slice(0, 1));
}

/** FTS5's IDF: never zero or below, so a token in most rows still counts a little. */
export function idf(rows: number, hits: number): number {
  const value = Math.log((rows - hits + 0.5) / (hits + 0.5));
  return value <= 0 ? 1e-6 : value;
}

export interface Bm25Table {
  /** The inverted index: (project_id, term, <id column>, tf columns..., <length column>). */
  readonly table: string;
  readonly id: string;
  readonly tf: readonly string[];
  readonly length: string;
}

/**
 * SQL scoring every row holding any of the query's tokens by BM25 as FTS5's
 * bm25() does, each query token a phrase of its own (repeats count again),
 * best first, ties by id. Parameters: $1 project, $2 tokens, $3 their IDFs,
 * $4 average length, then one weight per field, then `extra` (numbered by the
 * caller from $5 + fields).
 */
export function bm25Sql(table: Bm25Table, filter = ""): string {
  const first = 5;
  const frequency = table.tf.map((column, i) => `$${first + i}::float8 * p.${column}`).join(" + ");
  return `SELECT p.${table.id} AS id,
      sum(q.idf * (f.freq * ${K1 + 1}) / (f.freq + ${K1} * (${1 - B} + ${B} * p.${table.length} / $4::float8))) AS score
    FROM unnest($2::text[], $3::float8[]) AS q(term, idf)
    JOIN ${table.table} p ON p.project_id = $1 AND p.term = q.term
    CROSS JOIN LATERAL (SELECT ${frequency} AS freq) f
    ${filter}
    GROUP BY p.${table.id}`;
}
