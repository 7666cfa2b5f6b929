import type { OutputFormat } from "../assemble/renderers.js";
import {
  type ContextualizeSettings,
  resolveContextualizeSettings,
} from "../contextualize/contextualize-settings.js";
import { DEFAULT_FIELD_WEIGHTS, type FieldWeights } from "../core/text-backend.js";
import { type EmbeddingSettings, resolveEmbeddingSettings } from "../embed/embedding-settings.js";
import { type HistorySettings, resolveHistorySettings } from "../history/history-settings.js";
import { type ChunkLimits, DEFAULT_CHUNK_LIMITS } from "../ingest/chunk/chunk-limits.js";
import { DEFAULT_LIMITS, type HydrationLimits } from "../ingest/hydrate/discover-files.js";
import { type RerankSettings, resolveRerankSettings } from "../rerank/rerank-settings.js";
import {
  type NavigatorSettings,
  resolveNavigatorSettings,
} from "../strategies/builtins/navigator-settings.js";
import type { StrategyConfig } from "../strategies/strategy-settings.js";
import type { TokenCounterName } from "../tokens/create-counter.js";
import type { ConfigFile } from "./schema.js";
import { DEFAULT_SERVE_LIMITS, type ServeLimits } from "./serve-limits.js";
import { resolveStrategyConfig } from "./strategy-config.js";

/** Every setting with its value, after files are merged and defaults applied. */
export interface ResolvedConfig {
  readonly hydration: HydrationLimits;
  readonly chunking: ChunkLimits;
  readonly tokens: { readonly counter: TokenCounterName; readonly safetyMargin: number };
  /** null: pick by core count. */
  readonly workers: number | null;
  /** Extract the code graph with the chunks (`[index] graph`, default true). */
  readonly graph: boolean;
  /** `[history]`: the git history kept of git checkouts. */
  readonly history: HistorySettings;
  /** `[tiers]`: files offered first, and the share of the budget kept for them. */
  readonly tiers: { readonly hot: readonly string[]; readonly hotShare: number };
  /** Relative to the project root unless absolute. */
  readonly storePath: string;
  /** `[store]` on a PostgreSQL server: its URL (null: the index file), schema and project name. */
  readonly storeServer: {
    readonly url: string | null;
    readonly schema: string;
    readonly project: string | null;
  };
  readonly fieldWeights: FieldWeights;
  /** `[search] threads`: null lets the store choose by the machine's cores. */
  readonly searchThreads: number | null;
  readonly query: { readonly budget: number; readonly format: OutputFormat };
  /** `[watch]`: how `ctx serve` and `ctx watch` batch the changes they see. */
  readonly watch: {
    readonly debounceMs: number;
    readonly fullRefreshPaths: number;
    /** Set: poll instead of file events. */
    readonly pollMs: number | undefined;
  };
  /** `[serve]`: sessions and tool calls an MCP server takes on at once. */
  readonly serve: ServeLimits;
  readonly strategies: StrategyConfig;
  readonly contextualize: ContextualizeSettings;
  readonly embeddings: EmbeddingSettings;
  /** Config files with an `[arce]` section, which no longer has an effect (`arce` is the default pipeline). */
  readonly obsoleteArce: readonly string[];
  readonly navigator: NavigatorSettings;
  readonly rerank: RerankSettings;
  /** Config files that were read, lowest priority first. */
  readonly sources: readonly string[];
  /** The project's config file when settings of it were left out because the user does not trust it. */
  readonly untrusted: UntrustedProjectFile | null;
}

/** A project `ctx.toml` the user has not trusted (as it is now), and what of it was ignored. */
export interface UntrustedProjectFile {
  readonly file: string;
  readonly sha256: string;
  /** Settings left out, as `section.key`. */
  readonly ignored: readonly string[];
  /** Why the user's trust list could not be read, when it could not. */
  readonly listProblem: string | null;
}

export const DEFAULT_STORE_PATH = ".ctx/index.db";
/** The schema a PostgreSQL index lives in unless `[store] schema` says otherwise. */
export const DEFAULT_SERVER_SCHEMA = "ctx";
/** Instructions written for agents: what every answer should carry. */
export const DEFAULT_HOT_FILES: readonly string[] = ["AGENTS.md", "CLAUDE.md"];
export const DEFAULT_HOT_SHARE = 0.15;

/** Applies defaults to merged config files (later files win key by key). */
export function resolveConfig(
  files: readonly { path: string; config: ConfigFile }[],
  untrusted: UntrustedProjectFile | null = null,
): ResolvedConfig {
  const merged: ConfigFile = {};
  for (const { config } of files) {
    for (const [section, values] of Object.entries(config)) {
      const key = section as keyof ConfigFile;
      merged[key] = { ...(merged[key] as object), ...(values as object) } as never;
    }
  }
  const weights = merged.search?.weights ?? {};
  return {
    hydration: {
      maxFileBytes: merged.hydration?.max_file_bytes ?? DEFAULT_LIMITS.maxFileBytes,
      maxTotalBytes: merged.hydration?.max_total_bytes ?? DEFAULT_LIMITS.maxTotalBytes,
      skipDirectories: merged.hydration?.skip_directories ?? DEFAULT_LIMITS.skipDirectories,
      includeSecrets: merged.index?.include_secrets ?? DEFAULT_LIMITS.includeSecrets,
    },
    chunking: {
      maxTokens: merged.chunking?.max_tokens ?? DEFAULT_CHUNK_LIMITS.maxTokens,
      minTokens: merged.chunking?.min_tokens ?? DEFAULT_CHUNK_LIMITS.minTokens,
      overlapLines: merged.chunking?.overlap_lines ?? DEFAULT_CHUNK_LIMITS.overlapLines,
    },
    tokens: {
      counter: merged.tokens?.counter ?? "o200k",
      safetyMargin: merged.tokens?.safety_margin ?? 0,
    },
    workers: merged.index?.workers ?? null,
    graph: merged.index?.graph ?? true,
    history: resolveHistorySettings(files),
    tiers: {
      hot: merged.tiers?.hot ?? DEFAULT_HOT_FILES,
      hotShare: merged.tiers?.hot_share ?? DEFAULT_HOT_SHARE,
    },
    storePath: merged.store?.path ?? DEFAULT_STORE_PATH,
    storeServer: {
      url: merged.store?.url ?? null,
      schema: merged.store?.schema ?? DEFAULT_SERVER_SCHEMA,
      project: merged.store?.project ?? null,
    },
    fieldWeights: { ...DEFAULT_FIELD_WEIGHTS, ...weights },
    searchThreads: merged.search?.threads ?? null,
    query: { budget: merged.query?.budget ?? 8000, format: merged.query?.format ?? "markdown" },
    watch: {
      debounceMs: merged.watch?.debounce_ms ?? 100,
      fullRefreshPaths: merged.watch?.full_refresh_paths ?? 1000,
      pollMs: merged.watch?.poll_ms,
    },
    serve: {
      maxSessions: merged.serve?.max_sessions ?? DEFAULT_SERVE_LIMITS.maxSessions,
      sessionIdleMs:
        (merged.serve?.session_idle_s ?? DEFAULT_SERVE_LIMITS.sessionIdleMs / 1000) * 1000,
      maxRunning: merged.serve?.max_running ?? DEFAULT_SERVE_LIMITS.maxRunning,
      maxWaiting: merged.serve?.max_waiting ?? DEFAULT_SERVE_LIMITS.maxWaiting,
    },
    strategies: resolveStrategyConfig(files),
    contextualize: resolveContextualizeSettings(files),
    embeddings: resolveEmbeddingSettings(files),
    obsoleteArce: files.filter((file) => file.config.arce !== undefined).map((file) => file.path),
    navigator: resolveNavigatorSettings(files),
    rerank: resolveRerankSettings(files),
    sources: files.map((file) => file.path),
    untrusted,
  };
}
