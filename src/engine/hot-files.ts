import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { ContextFragment } from "../core/fragment.js";
import { fileFragmentId } from "../core/fragment-id.js";
import type { Plan } from "../core/plans.js";
import { readRegularText } from "../core/read-regular-file.js";
import type { StoreStats } from "../core/store.js";
import type { TokenCounter } from "../core/token-counter.js";
import type { Resource } from "../core/types.js";
import { inSkippedDirectory } from "../ingest/hydrate/skip-rules.js";
import type { StatusReport } from "./engine-files.js";
import { resolveInsideRoots } from "./safe-path.js";
import { refuseSecretFile } from "./secret-guard.js";

/** The pseudo-strategy hot files are packed under, with their own share of the budget. */
export const HOT_FILES = "hot-files";
/** A hot file past this is not read: it could not be offered whole anyway. */
const MAX_HOT_BYTES = 256 * 1024;
const NO_EXTRA_SKIPS: ReadonlySet<string> = new Set();

/**
 * The configured hot files present at each root, whole, as hot-tier
 * fragments; under `paths`, only those inside them. A file outside its root
 * (a link out, `..`), in a folder indexing skips (`.git/`, `node_modules/`),
 * that is not a regular file, or that holds secrets unless `includeSecrets`,
 * is left out.
 */
export function hotFragments(
  resources: readonly Pick<Resource, "id" | "root" | "secretFiles">[],
  hot: readonly string[],
  counter: TokenCounter,
  paths?: readonly string[],
  includeSecrets = false,
): ContextFragment[] {
  const found: ContextFragment[] = [];
  for (const resource of resources) {
    for (const name of hot) {
      // Most roots hold none of the names, and resolving a missing one costs a thrown error.
      if (!existsSync(resolve(resource.root, name))) continue;
      let relPath: string;
      let absPath: string;
      try {
        ({ relPath, absPath } = resolveInsideRoots([resource.root], name));
      } catch {
        continue;
      }
      if (paths && !paths.some((prefix) => relPath === prefix || relPath.startsWith(prefix)))
        continue;
      // Never from folders indexing skips: a hot `.git/config` would hand its tokens out.
      if (inSkippedDirectory(relPath, NO_EXTRA_SKIPS)) continue;
      // A regular file whose real path stays inside the root, checked on the open file.
      const read = readRegularText(absPath, { maxBytes: MAX_HOT_BYTES, root: resource.root });
      if (!read.ok) continue;
      const content = read.text.replace(/\r\n/g, "\n").replace(/\n+$/, "");
      try {
        refuseSecretFile({ root: resource.root, relPath, absPath }, content, includeSecrets, [
          resource,
        ]);
      } catch {
        continue;
      }
      if (content.trim().length === 0) continue;
      const lines = content.split("\n").length;
      found.push({
        id: fileFragmentId(resource.id, relPath, 1, lines),
        source: {
          kind: "file",
          resourceId: resource.id,
          path: relPath,
          startLine: 1,
          endLine: lines,
          language: relPath.endsWith(".md") ? "markdown" : "text",
        },
        content,
        tokens: counter.count(content),
        score: 1,
        strategy: HOT_FILES,
        tier: "hot",
        nodeId: `${resource.id}:${relPath}#${"0".repeat(8)}`,
        detailDepth: "full",
        symbol: "",
        chunkKind: "section",
        chunkIds: [],
      });
    }
  }
  return found;
}

/** What a fragment's heading and fence cost besides its content, about. */
const FRAME_TOKENS = 30;

/** The hot fragments of a request and the budget they are kept. */
export interface HotTier {
  readonly fragments: ContextFragment[];
  /** Tokens the strategies give up for them: their share, or less when they need less. */
  readonly need: number;
  /** The strategies' shares with the hot files' own added. */
  withShare(allocation: ReadonlyMap<string, number>): ReadonlyMap<string, number>;
}

/** The hot files of a request (`[tiers]`), offered first within `hot_share` of `limit`. */
export function hotTier(
  resources: readonly Pick<Resource, "id" | "root" | "secretFiles">[],
  tiers: { readonly hot: readonly string[]; readonly hotShare: number },
  counter: TokenCounter,
  limit: number,
  paths?: readonly string[],
  includeSecrets = false,
): HotTier {
  const fragments = hotFragments(resources, tiers.hot, counter, paths, includeSecrets);
  const share = Math.floor(tiers.hotShare * limit);
  const wanted = fragments.reduce((sum, fragment) => sum + fragment.tokens + FRAME_TOKENS, 0);
  return {
    fragments,
    need: Math.min(share, wanted),
    withShare: (allocation) =>
      fragments.length > 0 ? new Map([...allocation, [HOT_FILES, share]]) : allocation,
  };
}

/** What each tier holds, for `ctx status`. */
export function tierCounts(
  hot: readonly ContextFragment[],
  stats: Pick<StoreStats, "documents" | "history">,
  plans: readonly Pick<Plan, "status">[],
): StatusReport["tiers"] {
  return {
    hot: hot.map((fragment) =>
      fragment.source.kind === "file" ? fragment.source.path : fragment.id,
    ),
    warm: stats.documents,
    cold: {
      commits: stats.history.commits,
      closedPlans: plans.filter((plan) => plan.status === "closed").length,
    },
  };
}
