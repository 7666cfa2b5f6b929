import { createHash } from "node:crypto";
import type { ResolvedConfig } from "../config/resolved-config.js";
import type { Store } from "../core/store.js";
import { readTreeState } from "../ingest/hydrate/tree-state.js";
import { VERSION } from "../version.js";
import type { IndexRunReport } from "./run-index.js";

/** Meta key: the tree state of each root when the index last matched it whole. */
const META_KEY = "tree_states";

/**
 * The state of every root as git sees it (see readTreeState), with what else
 * decides an index's content: this version and the configuration.
 */
export interface TreeStates {
  readonly key: string;
  readonly roots: Readonly<Record<string, string>>;
}

/** The roots' states now; null when any root is not a git checkout git can read. */
export async function currentTreeStates(
  roots: readonly string[],
  config: ResolvedConfig,
): Promise<TreeStates | null> {
  const states = await Promise.all(roots.map((root) => readTreeState(root)));
  const entries: [string, string][] = [];
  for (const [index, root] of roots.entries()) {
    const state = states[index];
    if (state === null || state === undefined) return null;
    entries.push([root, state]);
  }
  const key = createHash("sha256").update(VERSION).update(JSON.stringify(config)).digest("hex");
  return { key, roots: Object.fromEntries(entries) };
}

/**
 * Whether the index was last brought in line with exactly these states, by a
 * whole run that left nothing to retry: then no file changed since, and a
 * refresh has nothing to do.
 */
export async function matchesIndexedStates(store: Store, states: TreeStates): Promise<boolean> {
  const stored = await store.state.getMeta(META_KEY);
  return stored !== null && stored === JSON.stringify(states);
}

/**
 * Runs an index run and keeps the stored states true to it. They are
 * forgotten before any run writes: one cut short, or one that indexes only
 * some paths, leaves an index no state describes. A whole run that ends with
 * nothing left to retry (every root there, its history read, every context
 * made) keeps the states read before it; otherwise the next refresh compares
 * every file, as it would without them.
 */
export async function withTreeStates(
  store: Store,
  config: ResolvedConfig,
  roots: readonly string[],
  run: {
    /** Over every root the index covers, writing. */
    readonly whole: boolean;
    readonly writes: boolean;
    /** The roots' states, when the caller read them just before. */
    readonly known: TreeStates | null | undefined;
  },
  indexRun: () => Promise<IndexRunReport>,
): Promise<IndexRunReport> {
  const states = run.whole ? (run.known ?? (await currentTreeStates(roots, config))) : null;
  if (run.writes && (await store.state.getMeta(META_KEY)) !== "")
    await store.state.setMeta(META_KEY, "");
  const report = await indexRun();
  const contexts = report.contexts.report;
  const complete =
    report.missingRoots.length === 0 &&
    report.history.every((history) => history.error === null) &&
    (contexts === null || (contexts.failed === 0 && !contexts.deferred));
  if (states && complete) await store.state.setMeta(META_KEY, JSON.stringify(states));
  return report;
}
