import type { ChunkDraft, ChunkKind } from "../../core/types.js";
import type { ChunkLimits } from "./chunk-limits.js";
import { DraftBuilder } from "./draft-builder.js";
import { type LineText, newlinesBetween } from "./line-text.js";
import type { TokenMeter } from "./token-meter.js";

/**
 * Chunks SQL at its statements: a statement (with the comments above it) is
 * cut where it ends, named by what it creates or changes (`CREATE TABLE
 * users` → users), and small neighbours are packed together up to half a
 * chunk; a statement too large for one chunk is cut in parts that repeat its
 * first line.
 */
export function chunkSql(text: LineText, limits: ChunkLimits, meter: TokenMeter): ChunkDraft[] {
  const builder = new DraftBuilder(
    text,
    limits,
    meter,
    limits.packStatementsUpTo ?? limits.maxTokens / 2,
  );
  let start = 1;
  for (const end of [...statementEndLines(text), text.count]) {
    if (end < start) continue;
    if (text.isBlank(start, end)) {
      builder.blank(start, end);
    } else {
      const statement = text.slice(start, end);
      const { kind, name } = describe(statement);
      builder.push(start, end, {
        kind,
        symbol: name,
        parent: null,
        continuationHeader: firstCodeLine(statement),
      });
    }
    start = end + 1;
  }
  return builder.finish();
}

/**
 * The lines on which statements end: a `;` (or the delimiter a MySQL
 * `DELIMITER` line sets) outside strings, quoted names, comments and
 * PostgreSQL's `$tag$` bodies, and T-SQL's `GO` or SQL*Plus's `/` alone on a
 * line. Each line once, in order.
 */
function statementEndLines(text: LineText): number[] {
  const source = text.slice(1, text.count);
  const ends: number[] = [];
  let line = 1;
  let delimiter = ";";
  let lineStart = 0;
  const endHere = () => {
    if (ends[ends.length - 1] !== line) ends.push(line);
  };
  for (let at = 0; at < source.length; at++) {
    const char = source[at] as string;
    if (char === "\n") {
      line++;
      lineStart = at + 1;
      continue;
    }
    if (at === lineStart) {
      const lineEnd = source.indexOf("\n", at);
      const whole = source.slice(at, lineEnd < 0 ? source.length : lineEnd);
      const set = DELIMITER_LINE.exec(whole);
      if (set?.[1]) {
        delimiter = set[1];
        endHere();
        at += whole.length - 1;
        continue;
      }
      if (BATCH_END.test(whole)) {
        endHere();
        at += whole.length - 1;
        continue;
      }
    }
    if (char === "-" && source[at + 1] === "-") {
      at = skipTo(source, at, "\n") - 1;
    } else if (char === "/" && source[at + 1] === "*") {
      const close = source.indexOf("*/", at + 2);
      const stop = close < 0 ? source.length : close + 2;
      line += newlinesBetween(source, at, stop);
      at = stop - 1;
    } else if (char === "'" || char === '"' || char === "`") {
      const stop = closingQuote(source, at, char);
      line += newlinesBetween(source, at, stop);
      at = stop - 1;
    } else if (char === "$" && !/[\w$]/.test(source[at - 1] ?? "")) {
      // Not inside a name (Oracle's `V$SESSION`, `a$b$`).
      const tag = DOLLAR_TAG.exec(source.slice(at, at + 64))?.[0];
      if (tag) {
        const close = source.indexOf(tag, at + tag.length);
        const stop = close < 0 ? source.length : close + tag.length;
        line += newlinesBetween(source, at, stop);
        at = stop - 1;
      }
    } else if (source.startsWith(delimiter, at)) {
      endHere();
      at += delimiter.length - 1;
    }
  }
  return ends;
}

const DELIMITER_LINE = /^\s*DELIMITER\s+(\S+)\s*$/i;
const BATCH_END = /^\s*(GO|\/)\s*$/i;
/** `$$` or `$body$` opens a dollar-quoted body; `$1` is a parameter. */
const DOLLAR_TAG = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/;

function skipTo(source: string, from: number, target: string): number {
  const found = source.indexOf(target, from);
  return found < 0 ? source.length : found;
}

/** Where a quoted string or name opened at `at` ends (after its closing quote; doubled quotes escape). */
function closingQuote(source: string, at: number, quote: string): number {
  let index = at + 1;
  while (index < source.length) {
    const close = source.indexOf(quote, index);
    if (close < 0) return source.length;
    if (source[close + 1] === quote) {
      index = close + 2;
      continue;
    }
    return close + 1;
  }
  return source.length;
}

/** `CREATE [OR REPLACE] [TEMP …] TABLE [IF NOT EXISTS] name`, and ALTER and DROP alike. */
const DEFINES =
  /^\s*(?:CREATE|ALTER|DROP)\s+(?:OR\s+REPLACE\s+)?(?:(?:GLOBAL|LOCAL|TEMP|TEMPORARY|UNIQUE|MATERIALIZED|RECURSIVE|UNLOGGED|VIRTUAL|DEFINER\s*=\s*\S+|ALGORITHM\s*=\s*\S+)\s+)*(TABLE|VIEW|INDEX|FUNCTION|PROCEDURE|PROC|TRIGGER|TYPE|DOMAIN|SEQUENCE|SCHEMA|DATABASE|EXTENSION|POLICY|MACRO)\s+(?:CONCURRENTLY\s+)?(?:IF\s+(?:NOT\s+)?EXISTS\s+)?((?:[\w$]+|"[^"\n]+"|`[^`\n]+`|\[[^\]\n]+\])(?:\s*\.\s*(?:[\w$]+|"[^"\n]+"|`[^`\n]+`|\[[^\]\n]+\]))*)/i;

const KIND_OF: Readonly<Record<string, ChunkKind>> = {
  FUNCTION: "function",
  PROCEDURE: "function",
  PROC: "function",
  TRIGGER: "function",
  MACRO: "function",
  TABLE: "type",
  VIEW: "type",
  TYPE: "type",
  DOMAIN: "type",
};

/** What a statement defines: a routine, a table or type, another object, or nothing (a query, an insert). */
function describe(statement: string): { kind: ChunkKind; name: string } {
  const match = DEFINES.exec(withoutLeadingComments(statement));
  if (!match?.[1] || !match[2]) return { kind: "code", name: "" };
  const name = match[2].replace(/["`[\]]/g, "").replace(/\s*\.\s*/g, ".");
  return { kind: KIND_OF[match[1].toUpperCase()] ?? "section", name };
}

function withoutLeadingComments(statement: string): string {
  let rest = statement;
  for (;;) {
    const trimmed = rest.trimStart();
    if (trimmed.startsWith("--")) rest = trimmed.slice(skipTo(trimmed, 0, "\n"));
    else if (trimmed.startsWith("/*")) rest = trimmed.slice(skipTo(trimmed, 2, "*/") + 2);
    else return trimmed;
  }
}

/** The statement's first line that is not a comment: what its continuation parts repeat. */
function firstCodeLine(statement: string): string {
  const rest = withoutLeadingComments(statement);
  const end = rest.indexOf("\n");
  return (end < 0 ? rest : rest.slice(0, end)).trimEnd();
}
