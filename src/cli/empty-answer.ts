import type { ContextEngine } from "../engine/context-engine.js";
import type { QueryOptions, QueryResult } from "../engine/engine-options.js";
import { queryTerms } from "../text/code-tokenizer.js";
import { visibleLine } from "../text/visible-text.js";

/** Why an answer holds no fragment, in one line, and whether that is a failure. */
export interface EmptyAnswerNote {
  readonly line: string;
  /** 1 where nothing could be answered as asked; 0 where nothing matching is the answer. */
  readonly exitCode: 0 | 1;
}

/** Scripts that write words apart from spaces: a run of them is one search term. */
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

/**
 * Says why a query came back empty instead of leaving a bare "no matching
 * fragments": an index with no files, a `--path` that names none of them, a
 * budget too small for what was found, a task with nothing to search for, or
 * (a legitimate answer) no file matching the task's words.
 */
export async function explainEmptyAnswer(
  engine: ContextEngine,
  request: QueryOptions,
  result: QueryResult,
): Promise<EmptyAnswerNote> {
  const { paths } = request;
  const indexed = await indexedPaths(engine);
  if (indexed.length === 0) {
    return {
      line: "the index holds no files: nothing under its roots is a file ctx reads (ctx status counts what was skipped, by reason)",
      exitCode: 1,
    };
  }
  if (paths && paths.length > 0 && !indexed.some((path) => underAny(path, paths))) {
    return {
      line: `--path ${paths.map(visibleLine).join(", ")} matches no indexed file: give a folder or file relative to the project root, as ctx status and answers show paths (e.g. ${visibleLine(firstFolder(indexed))})`,
      exitCode: 1,
    };
  }
  const tooBig = result.trace.filter((candidate) => candidate.outcome === "over-budget");
  if (tooBig.length > 0) {
    const enough = await smallestBudgetThatAnswers(engine, request);
    const advice = enough === null ? "raise --budget" : `--budget ${enough} fits one`;
    return {
      line: `budget ${result.budget} is too small for any of the ${tooBig.length} fragments found: ${advice}`,
      exitCode: 1,
    };
  }
  const terms = queryTerms(result.task);
  if (terms.length === 0) {
    return {
      line: "the task has no words to search for: say what you are looking for in words, identifiers or file names",
      exitCode: 1,
    };
  }
  const unspaced = UNSPACED_SCRIPT.test(result.task)
    ? "; text in Chinese, Japanese, Korean or Thai is matched only as whole runs between spaces or punctuation, so name identifiers, file names or English words"
    : "";
  return {
    line: `no indexed file matches the task's words (${terms.slice(0, 8).map(visibleLine).join(", ")})${unspaced}`,
    exitCode: 0,
  };
}

async function indexedPaths(engine: ContextEngine): Promise<string[]> {
  const resources = await engine.store.documents.listResources();
  const paths: string[] = [];
  for (const resource of resources) {
    for (const document of await engine.store.documents.listDocuments(resource.id))
      paths.push(document.path);
  }
  return paths;
}

/** The same rule as the stores' path filter: the path itself, or anything below it as a folder. */
function underAny(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => {
    const folder = prefix.replace(/\/+$/, "");
    return path === prefix || path === folder || path.startsWith(`${folder}/`);
  });
}

function firstFolder(paths: readonly string[]): string {
  const nested = paths.find((path) => path.includes("/"));
  return nested ? `${nested.slice(0, nested.indexOf("/"))}/` : (paths[0] ?? "");
}

/**
 * The budget, doubling from the one asked, at which the same request gets a
 * fragment: what a fragment needs depends on its heading, the format and the
 * depths the packer may cut it to, so the request is asked again rather than
 * guessed (unrecorded; a few queries, on a path that has already failed).
 */
async function smallestBudgetThatAnswers(
  engine: ContextEngine,
  request: QueryOptions,
): Promise<number | null> {
  for (let budget = request.budget * 2, tries = 0; tries < 8; budget *= 2, tries++) {
    const probe = await engine.query({ ...request, budget, record: false });
    if (probe.fragments.length > 0) return budget;
  }
  return null;
}
