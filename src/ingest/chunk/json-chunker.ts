import type { ChunkDraft } from "../../core/types.js";
import type { ChunkLimits } from "./chunk-limits.js";
import { DraftBuilder } from "./draft-builder.js";
import { type LineText, newlinesBetween } from "./line-text.js";
import type { TokenMeter } from "./token-meter.js";

/** One member of an object (`"key": value`) or element of an array, by the lines it spans. */
interface JsonMember {
  /** The key, unquoted; "" for an array's element. */
  readonly key: string;
  readonly start: number;
  end: number;
  /** The members of its value when that is an object or array. */
  readonly children: JsonMember[];
}

/** Nesting deeper than this is kept inside its parent's chunk (a parse tree dumped as JSON). */
const MAX_DEPTH = 16;

/**
 * Chunks JSON (and JSON with comments) at its keys: a member that fits is one
 * unit, a larger one is cut between its own members, and neighbouring units
 * are packed together up to the chunk limit, so a file is cut about as often
 * as line windows would cut it but never inside a small member. Each chunk is
 * named by the key path its members share (`compilerOptions.paths` alone,
 * `messages` for a run of messages; nothing for a run of top-level keys).
 */
export function chunkJson(text: LineText, limits: ChunkLimits, meter: TokenMeter): ChunkDraft[] {
  const builder = new DraftBuilder(text, limits, meter, limits.maxTokens);
  /** Where each unit starts, with its key path: a packed chunk is named by what its units share. */
  const units: { start: number; path: readonly string[] }[] = [];
  const emitSpan = (
    start: number,
    end: number,
    members: readonly JsonMember[],
    path: readonly string[],
  ) => {
    let cursor = start;
    for (const member of joinSharedLines(members)) {
      if (member.start > cursor) gap(cursor, member.start - 1);
      const own = member.key === "" ? path : [...path, member.key];
      const first = member.children[0];
      if (
        text.estimate(member.start, member.end) > limits.maxTokens &&
        first &&
        first.start > member.start
      ) {
        emitSpan(member.start, member.end, member.children, own);
      } else {
        units.push({ start: member.start, path: own });
        builder.push(member.start, member.end, {
          kind: own.length > 0 ? "section" : "code",
          symbol: own.join("."),
          parent: null,
          continuationHeader: text.lines[member.start - 1]?.trimEnd() ?? "",
        });
      }
      cursor = member.end + 1;
    }
    if (cursor <= end) gap(cursor, end);
  };
  const gap = (start: number, end: number) => {
    // Brackets and commas between members go with a neighbour, as blank lines do.
    if (isPunctuation(text.slice(start, end))) builder.blank(start, end);
    else
      builder.push(start, end, { kind: "code", symbol: "", parent: null, continuationHeader: "" });
  };
  emitSpan(1, text.count, readMembers(text), []);
  // Units and chunks are both in line order.
  let next = 0;
  return builder.finish().map((chunk) => {
    while (next < units.length && (units[next]?.start ?? 0) < chunk.startLine) next++;
    const inside: (typeof units)[number][] = [];
    for (let at = next; at < units.length; at++) {
      const unit = units[at];
      if (!unit || unit.start > chunk.endLine) break;
      inside.push(unit);
    }
    // The later parts of a cut member start no unit: they keep the member's name.
    if (inside.length === 0) return { ...chunk, defines: [] };
    const symbol = sharedPrefix(inside.map((unit) => unit.path)).join(".");
    return { ...chunk, kind: symbol === "" ? "code" : "section", symbol, defines: [] };
  });
}

/** The key path every one of `paths` starts with. */
function sharedPrefix(paths: readonly (readonly string[])[]): readonly string[] {
  const [first, ...rest] = paths;
  if (!first) return [];
  let length = first.length;
  for (const path of rest) {
    let same = 0;
    while (same < length && same < path.length && path[same] === first[same]) same++;
    length = same;
  }
  return first.slice(0, length);
}

function isPunctuation(lines: string): boolean {
  return /^[\s{}[\],]*$/.test(lines);
}

/**
 * Members that share a line (`{"a": 1, "b": 2}` on one line, or a value's end
 * and the next key) cannot be cut apart by lines: they become one unit, named
 * by their parent.
 */
function joinSharedLines(members: readonly JsonMember[]): JsonMember[] {
  const joined: JsonMember[] = [];
  for (const member of members) {
    const last = joined[joined.length - 1];
    if (last && member.start <= last.end) {
      joined[joined.length - 1] = {
        key: "",
        start: last.start,
        end: Math.max(last.end, member.end),
        children: [],
      };
    } else {
      joined.push(member);
    }
  }
  return joined;
}

/**
 * The document's top-level values (one, or several in a concatenated file)
 * with their members, read by a scanner that knows strings, escapes and
 * comments and forgives what a parser would reject (trailing commas, a file
 * cut short): a broken file still gets lines for every member it opened.
 */
function readMembers(text: LineText): JsonMember[] {
  const source = text.slice(1, text.count);
  const root: JsonMember = { key: "", start: 1, end: text.count, children: [] };
  /** Open containers: the member whose value each is, and whether it is an object. */
  const stack: {
    owner: JsonMember;
    object: boolean;
    expectKey: boolean;
    current: JsonMember | null;
  }[] = [{ owner: root, object: false, expectKey: false, current: null }];
  let line = 1;
  let lastLine = 1;
  /** The last top-level value is closed: what comes next is another value. */
  let topLevelDone = false;
  const top = () => stack[stack.length - 1] as (typeof stack)[number];
  /** A value (or a key in an object) begins at this line. */
  const begin = (key: string) => {
    if (stack.length === 1 && topLevelDone) endMember();
    topLevelDone = false;
    const frame = top();
    if (frame.current === null) {
      frame.current = { key, start: line, end: line, children: [] };
      if (stack.length <= MAX_DEPTH) frame.owner.children.push(frame.current);
    }
  };
  const endMember = () => {
    const frame = top();
    if (frame.current) frame.current.end = Math.max(frame.current.start, lastLine);
    frame.current = null;
    frame.expectKey = frame.object;
  };
  for (let at = 0; at < source.length; at++) {
    const char = source[at] as string;
    if (char === "\n") {
      line++;
      continue;
    }
    if (char === " " || char === "\t" || char === "\r") continue;
    if (char === "/" && source[at + 1] === "/") {
      const stop = source.indexOf("\n", at);
      at = (stop < 0 ? source.length : stop) - 1;
      continue;
    }
    if (char === "/" && source[at + 1] === "*") {
      const close = source.indexOf("*/", at + 2);
      const stop = close < 0 ? source.length : close + 2;
      line += newlinesBetween(source, at, stop);
      at = stop - 1;
      continue;
    }
    const frame = top();
    if (char === '"') {
      const stop = closingQuote(source, at);
      if (frame.object && frame.expectKey) {
        begin(unquote(source.slice(at, stop)));
        frame.expectKey = false;
      } else {
        begin("");
      }
      line += newlinesBetween(source, at, stop);
      at = stop - 1;
    } else if (char === "{" || char === "[") {
      begin("");
      const owner = frame.current as JsonMember;
      stack.push({ owner, object: char === "{", expectKey: char === "{", current: null });
    } else if (char === "}" || char === "]") {
      if (stack.length > 1) {
        endMember();
        stack.pop();
        topLevelDone = stack.length === 1;
      }
    } else if (char === ",") {
      endMember();
      continue;
    } else if (char !== ":") {
      begin("");
    }
    lastLine = line;
  }
  while (stack.length > 1) {
    endMember();
    stack.pop();
  }
  endMember();
  return root.children;
}

/** A key as written, escapes read (`"a\\"b"` → `a"b`); as it stands when it is no valid string. */
function unquote(quoted: string): string {
  try {
    const value: unknown = JSON.parse(quoted);
    if (typeof value === "string") return value;
  } catch {
    // A key cut short or holding a raw control character.
  }
  return quoted.replace(/^"|"$/g, "");
}

/** Where a string opened at `at` ends (after its closing quote). */
function closingQuote(source: string, at: number): number {
  for (let index = at + 1; index < source.length; index++) {
    const char = source[index];
    if (char === "\\") index++;
    else if (char === '"') return index + 1;
    else if (char === "\n") return index;
  }
  return source.length;
}
