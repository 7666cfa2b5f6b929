import type { ContextFragment } from "../core/fragment.js";

/** What a file is for, from its path: the code itself, or something about the code. */
export type FileRole = "source" | "test" | "docs" | "example" | "bench" | "vendor";

/**
 * How much a fragment of a file that is about the code (a test, the docs, an
 * example, a benchmark, vendored code) counts against one of the code itself,
 * when the task does not ask for such files: they share the code's words (a
 * test names what it tests, a README describes it), so by words alone they
 * outrank the code a task needs to read or change. Still shown when they match
 * much better, and ranked as usual when the task asks for them.
 */
export const OTHER_ROLE_FACTOR = 0.5;

const FOLDERS: Readonly<Record<string, FileRole>> = {
  test: "test",
  tests: "test",
  __tests__: "test",
  __mocks__: "test",
  spec: "test",
  specs: "test",
  testing: "test",
  e2e: "test",
  fixtures: "test",
  fixture: "test",
  __fixtures__: "test",
  __snapshots__: "test",
  testdata: "test",
  docs: "docs",
  doc: "docs",
  documentation: "docs",
  example: "example",
  examples: "example",
  demo: "example",
  demos: "example",
  sample: "example",
  samples: "example",
  playground: "example",
  bench: "bench",
  benches: "bench",
  benchmark: "bench",
  benchmarks: "bench",
  vendor: "vendor",
  third_party: "vendor",
  thirdparty: "vendor",
  node_modules: "vendor",
};

const TEST_FILE =
  /(\.|_|-)(test|spec|tests)\.[a-z0-9]+$|^test_[^/]*\.py$|^conftest\.py$|Tests?\.(java|cs|kt|swift)$|_test\.go$/;
const DOCS_FILE =
  /\.(md|mdx|markdown|rst|adoc|txt)$|^(readme|changelog|contributing|license)(\.|$)/i;
const MINIFIED = /[.-]min\.[cm]?js$/;

/** The role of the file at a (forward-slash, relative) path. */
export function fileRoleOf(path: string): FileRole {
  const parts = path.split("/");
  const name = parts[parts.length - 1] ?? "";
  for (const folder of parts.slice(0, -1)) {
    const role = FOLDERS[folder.toLowerCase()];
    if (role) return role;
  }
  if (TEST_FILE.test(name)) return "test";
  if (DOCS_FILE.test(name)) return "docs";
  if (MINIFIED.test(name)) return "vendor";
  return "source";
}

/** Words by which a task asks for files of a role. */
const ASKING: readonly [FileRole, RegExp][] = [
  [
    "test",
    /\b(tests?|testing|tested|specs?|e2e|fixtures?|mocks?|mocking|coverage|snapshots?|pytest|jest|vitest|mocha|conftest)\b/i,
  ],
  ["docs", /\b(docs?|documentation|documented|readme|changelog|guide|tutorial|docstrings?)\b/i],
  ["example", /\b(examples?|demos?|samples?|playground)\b/i],
  ["bench", /\b(bench|benches|benchmarks?|benchmarking)\b/i],
  ["vendor", /\b(vendor|vendored|third[ -]party)\b/i],
];

/** The roles a task asks for by name, besides the code itself. */
export function rolesAskedFor(task: string): Set<FileRole> {
  const asked = new Set<FileRole>(["source"]);
  for (const [role, words] of ASKING) if (words.test(task)) asked.add(role);
  return asked;
}

/**
 * Candidates with the scores of files whose role the task does not ask for
 * lowered, best first again. Files the task names (`conftest.py`) keep their score,
 * as do fragments that are not from files and the hot tier.
 */
export function rankByFileRole(
  candidates: readonly ContextFragment[],
  task: string,
  factor = OTHER_ROLE_FACTOR,
): ContextFragment[] {
  const asked = rolesAskedFor(task);
  const lowered = task.toLowerCase();
  const ranked = candidates.map((fragment) => {
    if (fragment.source.kind !== "file" || fragment.tier === "hot") return fragment;
    const path = fragment.source.path.toLowerCase();
    const name = path.slice(path.lastIndexOf("/") + 1);
    if (asked.has(fileRoleOf(fragment.source.path)) || lowered.includes(name)) return fragment;
    return { ...fragment, score: Math.round(fragment.score * factor * 1e6) / 1e6 };
  });
  return ranked.sort(
    (a, b) => b.score - a.score || (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0),
  );
}
