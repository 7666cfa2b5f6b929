import type { LoadedGraph } from "../core/graph.js";

/** A line of a file the task points at: a stack frame, a compiler error, `path:line`. */
export interface TaskLocation {
  /** As written in the task: absolute, relative to another root, or the project's own. */
  readonly path: string;
  readonly line: number;
}

/** What a located definition puts on the walk, as much as a focused one. */
const LOCATION_WEIGHT = 2;
/** A long trace names the same few places again and again: the first ones are enough. */
const MAX_LOCATIONS = 20;
/** Python: `File "/srv/app/src/cli/main.py", line 12, in run`. */
const PYTHON_FRAME = /File "([^"\n]+)", line (\d+)/g;
/**
 * Everything else: `src/a.ts:12`, `src/a.ts:12:5`, `at f (/srv/app/src/a.js:12:5)`,
 * `--> src/main.rs:10:5`, `(Bar.java:42)`, `a.go:7:2:`. A file name needs an
 * extension, so `localhost:8080` and times of day are not locations.
 */
const PATH_LINE = /((?:[A-Za-z]:)?[\w.@+~\-/\\]*[\w-]\.[A-Za-z][A-Za-z0-9]{0,5}):(\d+)(?::\d+)?/g;
/**
 * A link to a line on a forge, as issue reports quote code:
 * `https://github.com/o/r/blob/<ref>/src/index.js#L254` (and `#L254-L260`;
 * GitLab's `/-/blob/` too). The path is what follows the ref: a ref with a
 * slash leaves a longer path, which still ends with the file's.
 */
const LINKED_LINE = /\/blob\/[^/\s]+\/([^\s#?)\]"'<>]+)#L(\d+)/g;

/** The places the task points at, in the order it names them, each once. */
export function taskLocations(task: string): TaskLocation[] {
  const found: { at: number; location: TaskLocation }[] = [];
  for (const pattern of [PYTHON_FRAME, LINKED_LINE, PATH_LINE]) {
    for (const match of task.matchAll(pattern)) {
      const line = Number(match[2]);
      if (!match[1] || !Number.isSafeInteger(line) || line < 1) continue;
      const path = pattern === LINKED_LINE ? urlDecoded(match[1]) : match[1];
      found.push({ at: match.index, location: { path, line } });
    }
  }
  found.sort((a, b) => a.at - b.at);
  const seen = new Set<string>();
  const locations: TaskLocation[] = [];
  for (const { location } of found) {
    const key = `${location.path}:${location.line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    locations.push(location);
    if (locations.length >= MAX_LOCATIONS) break;
  }
  return locations;
}

/** `Parsable%20Types/Flag.swift` as the tree spells it; a malformed escape is left as written. */
function urlDecoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** A line the task points at, in an indexed file, with the innermost definition holding it. */
export interface LocatedLine {
  readonly resourceId: string;
  readonly path: string;
  readonly line: number;
  /** The definition, or -1 when no definition holds the line (module-level code). */
  readonly node: number;
}

/**
 * The task's locations in the index. A path matches an indexed file it ends
 * with (a trace from another machine, or from an installed copy, has its own
 * prefix); the longest such match wins, in every root that has it.
 */
export function locateLines(graph: LoadedGraph, locations: readonly TaskLocation[]): LocatedLine[] {
  return locations.flatMap((location) =>
    filesEndingIn(graph, location.path).map((at) => {
      const file = graph.files[at] as LoadedGraph["files"][number];
      const node = graph.nodeAtLine(at, location.line);
      return {
        resourceId: file.resourceId,
        path: file.path,
        line: location.line,
        node: node >= 0 && graph.nodes[node]?.kind !== "file" ? node : -1,
      };
    }),
  );
}

/** The located definitions as seeds as strong as a focus: a trace's frames are what the task is about. */
export function locationSeeds(located: readonly LocatedLine[]): Map<number, number> {
  const seeds = new Map<number, number>();
  for (const { node } of located) {
    if (node >= 0) seeds.set(node, (seeds.get(node) ?? 0) + LOCATION_WEIGHT);
  }
  return seeds;
}

const byBaseName = new WeakMap<LoadedGraph, Map<string, number[]>>();

/** A bare file name that several files have says nothing about which one. */
const MAX_SAME_NAMED = 3;

/**
 * Indexes of the files sharing the most trailing path segments with the
 * written path (`site-packages/click/core.py` is `src/click/core.py`).
 */
function filesEndingIn(graph: LoadedGraph, written: string): number[] {
  const segments = written.replaceAll("\\", "/").split("/").filter(Boolean);
  let index = byBaseName.get(graph);
  if (!index) {
    index = new Map();
    graph.files.forEach((file, at) => {
      const base = baseName(file.path);
      const list = index?.get(base);
      if (list) list.push(at);
      else index?.set(base, [at]);
    });
    byBaseName.set(graph, index);
  }
  let longest = 0;
  let matches: number[] = [];
  for (const at of index.get(segments.at(-1) ?? "") ?? []) {
    const own = (graph.files[at]?.path ?? "").split("/");
    let shared = 0;
    while (
      shared < own.length &&
      shared < segments.length &&
      own[own.length - 1 - shared] === segments[segments.length - 1 - shared]
    )
      shared++;
    if (shared > longest) {
      longest = shared;
      matches = [at];
    } else if (shared === longest) matches.push(at);
  }
  return matches.length <= MAX_SAME_NAMED ? matches : [];
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
