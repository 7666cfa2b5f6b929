import { streamGit } from "./git-log.js";

/**
 * Commits whose diffs are read for the identifiers they touched: the newest
 * ones, since the words-to-code associations read only the newest
 * `VOCABULARY_WINDOW` commits (reading 2,000 diffs of vuejs/core takes about 2 s).
 */
export const MINED_COMMITS = 2000;
/** A commit touching more identifiers than this is a sweep (a rename, a reformat): it says nothing of what its words mean. */
export const MAX_COMMIT_IDENTIFIERS = 200;
const MIN_LENGTH = 4;
const MAX_LENGTH = 48;
const WORD = /[A-Za-z_][A-Za-z0-9_]*/g;
/** camelCase, snake_case, PascalCase of two words: names a project made, not words of the language. */
const COMPOUND = /[a-z][A-Z]|[A-Za-z]_[A-Za-z]|^[A-Z][a-z]+[A-Z]/;

/**
 * The project's identifiers in a commit's `git log -p -U0` output: the names
 * written on its added and removed lines and in its hunk headers (git's
 * enclosing function), in order of first appearance; null (a sweep) when
 * there are more than `MAX_COMMIT_IDENTIFIERS`.
 */
export function identifiersOfPatch(patch: string): string[] | null {
  const reader = new PatchIdentifiers();
  for (const line of patch.split("\n")) reader.line(line);
  return reader.result();
}

/** Collects a patch's identifiers a line at a time, so a huge patch is never held whole. */
class PatchIdentifiers {
  private readonly found = new Set<string>();

  line(line: string): void {
    // A sweep already: the rest cannot make it anything else.
    if (this.found.size > MAX_COMMIT_IDENTIFIERS) return;
    let text: string | null = null;
    const first = line.charCodeAt(0);
    if (first === 0x40 /* @ */ && line.startsWith("@@")) {
      const close = line.indexOf("@@", 2);
      text = close > 0 ? line.slice(close + 2) : null;
    } else if ((first === 0x2b /* + */ || first === 0x2d) /* - */ && !isFileLine(line)) {
      text = line.slice(1);
    }
    if (text === null) return;
    for (const match of text.matchAll(WORD)) {
      const name = match[0];
      if (name.length >= MIN_LENGTH && name.length <= MAX_LENGTH && COMPOUND.test(name))
        this.found.add(name);
    }
  }

  result(): string[] | null {
    return this.found.size > MAX_COMMIT_IDENTIFIERS ? null : [...this.found];
  }
}

function isFileLine(line: string): boolean {
  return line.startsWith("+++ ") || line.startsWith("--- ");
}

/**
 * Reads the diffs of `shas` (one `git log -p -U0 --no-walk` over them,
 * streaming) and gives each commit's identifiers. `args` come before the
 * pathspec: what limits the history to the root and leaves lock files out.
 */
export async function readDiffIdentifiers(
  root: string,
  shas: readonly string[],
  args: readonly string[],
  signal?: AbortSignal,
): Promise<Map<string, string[] | null>> {
  const found = new Map<string, string[] | null>();
  if (shas.length === 0) return found;
  // Read as it streams, a line at a time: an initial import or a reformat is
  // one record of tens of megabytes, which joining chunks would copy over and over.
  let sha: string | null = null;
  let reader = new PatchIdentifiers();
  let partial = "";
  const finish = () => {
    if (sha !== null && sha.length > 0) found.set(sha, reader.result());
  };
  const line = (text: string) => {
    if (text.charCodeAt(0) === 0x1e) {
      finish();
      sha = text.slice(1).trim();
      reader = new PatchIdentifiers();
    } else if (sha !== null) {
      reader.line(text);
    }
  };
  await streamGit(
    root,
    [
      "-c",
      "core.quotepath=off",
      "log",
      "-p",
      "-U0",
      "--no-color",
      "--no-ext-diff",
      "--no-textconv",
      "-M",
      "--format=%x1e%H",
      "--no-walk=unsorted",
      "--stdin",
      ...args,
    ],
    { stdin: `${shas.join("\n")}\n`, ...(signal ? { signal } : {}) },
    (text) => {
      let start = 0;
      for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
        line(partial + text.slice(start, end));
        partial = "";
        start = end + 1;
      }
      partial += text.slice(start);
    },
  );
  if (partial.length > 0) line(partial);
  finish();
  return found;
}
