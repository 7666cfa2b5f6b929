/**
 * The name a task would call a file by: its base name up to the first dot
 * (`vShow.ts`, `common.case.test.ts`), lowercased, or its folder's name for a
 * file that only stands for its folder (`jwt/index.ts`, `__init__.py`).
 */
export function fileStemOf(path: string): string {
  const parts = path.toLowerCase().split("/");
  const base = parts[parts.length - 1] ?? "";
  const dot = base.indexOf(".", 1);
  const stem = dot > 0 ? base.slice(0, dot) : base;
  if (FOLDER_STANDS_IN.has(stem) && parts.length > 1) return parts[parts.length - 2] ?? stem;
  return stem;
}

const FOLDER_STANDS_IN = new Set(["index", "__init__", "mod", "main", "lib", "__main__"]);
/** Shorter words name too many things to name a file. */
const MIN_STEM_LENGTH = 3;

/** The words of a task that could name a file (`fix(jwt):` names jwt, `vShow` vshow). */
export function fileWordsOf(task: string): Set<string> {
  const words = new Set<string>();
  for (const word of task.toLowerCase().split(/[^a-z0-9_$]+/)) {
    if (word.length >= MIN_STEM_LENGTH) words.add(word);
  }
  return words;
}
