import { existsSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { GeneratorChoice } from "../contextualize/resolve-generator.js";
import type { Embedder } from "../core/embedder.js";
import type { HistorySpan } from "../core/history.js";
import { makePrivateFolder } from "../core/private-files.js";
import type { Store, StoreStats } from "../core/store.js";
import type { Resource } from "../core/types.js";
import type { EmbedderChoice } from "../embed/resolve-embedder.js";
import type { OptionalFeatureStatus } from "../optional-packages.js";

export interface StatusReport {
  /** What each tier holds: hot files present, indexed files, commits and closed plans. */
  readonly tiers: {
    readonly hot: readonly string[];
    readonly warm: number;
    readonly cold: { readonly commits: number; readonly closedPlans: number };
  };
  readonly root: string;
  readonly project: string;
  readonly indexPath: string;
  readonly indexBytes: number;
  readonly store: StoreStats;
  /**
   * The roots, each with whether its folder is gone (files kept as last indexed)
   * and, for git checkouts, what its stored history covers.
   */
  readonly resources: readonly (Resource & {
    readonly missing: boolean;
    readonly history: HistorySpan | null;
  })[];
  readonly tokenCounter: string;
  readonly configFiles: readonly string[];
  /** Settings of the project's `ctx.toml` ignored because the user has not trusted it (empty when none). */
  readonly untrustedSettings: readonly string[];
  readonly enabledStrategies: readonly string[];
  readonly embeddings: {
    readonly embedder: string;
    readonly reason: string;
    /** Chunks with a vector from the active embedder, of all chunks; null without an embedder. */
    readonly coverage: { readonly embedded: number; readonly total: number } | null;
  };
  readonly contextGenerator: {
    readonly name: string;
    readonly model: string;
    readonly reason: string;
    readonly fallback: boolean;
  };
  /** Heavy features shipped as optional packages, and the command that adds each one missing. */
  readonly optionalFeatures: readonly OptionalFeatureStatus[];
}

/** The active generator for status; a misconfiguration is shown, not thrown. */
export function describeChoice(choose: () => GeneratorChoice): StatusReport["contextGenerator"] {
  try {
    const { name, model, reason, fallback } = choose();
    return { name, model, reason, fallback };
  } catch (error) {
    return { name: "unavailable", model: "", reason: (error as Error).message, fallback: false };
  }
}

/** The active embedder for status and how much of the index it covered; a failure is shown, not thrown. */
export async function describeEmbeddings(
  choice: EmbedderChoice,
  make: (choice: EmbedderChoice) => Promise<Embedder | null>,
  store: Store,
): Promise<StatusReport["embeddings"]> {
  let embedder: Embedder | null = null;
  try {
    embedder = await make(choice);
  } catch (error) {
    return { embedder: choice.name, reason: (error as Error).message, coverage: null };
  }
  const coverage = embedder ? await store.vectors.embeddingCoverage(embedder.id) : null;
  return { embedder: embedder?.id ?? choice.name, reason: choice.reason, coverage };
}

/** A new `.ctx` folder ignores itself, so git (and `git ls-files`) never list the index. */
export function ignoreIndexFolder(indexPath: string): void {
  const folder = dirname(indexPath);
  if (!folder.endsWith(".ctx")) return;
  const ignoreFile = join(folder, ".gitignore");
  if (existsSync(ignoreFile)) return;
  makePrivateFolder(folder);
  writeFileSync(ignoreFile, "*\n");
}

export function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
