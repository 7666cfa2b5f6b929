import { z } from "zod";
import { OUTPUT_FORMATS } from "../assemble/renderers.js";
import { contextualizeSectionSchema } from "../contextualize/contextualize-schema.js";
import { embeddingsSectionSchema } from "../embed/embedding-schema.js";
import { historySectionSchema } from "../history/history-schema.js";
import { rerankSectionSchema } from "../rerank/rerank-schema.js";
import { arceSectionSchema } from "../strategies/builtins/arce-schema.js";
import { navigatorSectionSchema } from "../strategies/builtins/navigator-schema.js";
import { TOKEN_COUNTERS } from "../tokens/create-counter.js";

const positiveInt = z.number().int().positive();

/** Settings of one strategy (`[context.strategies.settings.NAME]`). */
const strategySettingsSchema = z.strictObject({
  /** Seconds a strategy may run before it is aborted (default 30). */
  timeout_seconds: z.number().positive().max(3600).optional(),
  /** Most fragments kept from one run (default 100). */
  max_fragments: positiveInt.optional(),
  /** Runs of this strategy allowed at once, across concurrent requests (default 4). */
  max_workers: positiveInt.max(64).optional(),
  /** Consecutive failures that open its circuit breaker (default 3). */
  circuit_breaker_threshold: positiveInt.optional(),
  /** Seconds an open breaker waits before letting one trial run through (default 30). */
  circuit_breaker_cooldown_seconds: z.number().min(0).optional(),
  /** Largest share of a request's budget it may be allotted, 0..1 (default 1). */
  max_budget_share: z.number().gt(0).max(1).optional(),
  /** false turns the strategy off even when listed in `enabled`. */
  enabled: z.boolean().optional(),
});

/** `module-path:ExportName`, the path relative to the config file that names it. */
const customStrategySchema = z
  .string()
  .regex(
    /^.+:[A-Za-z_$][\w$]*$/,
    'expected "module-path:ExportName", e.g. "./strategies/mine.js:MyStrategy"',
  );

/**
 * One config file (`ctx.toml` or the user's `config.toml`): every key optional,
 * unknown keys refused. Features with settings of their own own their section's
 * schema (`<feature>-schema.ts`); this composes them.
 */
export const configFileSchema = z.strictObject({
  hydration: z
    .strictObject({
      /** Files larger than this many bytes are skipped (default 262144, 256 KB). */
      max_file_bytes: positiveInt.optional(),
      /** Stop taking files once this many bytes are indexed (default 1 GiB). */
      max_total_bytes: positiveInt.optional(),
      /** Folder names to skip in addition to the built-in list. */
      skip_directories: z.array(z.string().min(1)).optional(),
    })
    .optional(),
  chunking: z
    .strictObject({
      /** No chunk is longer than this many tokens (default 800). */
      max_tokens: z.number().int().min(32).optional(),
      /** Neighbouring chunks smaller than this are merged (default 48). */
      min_tokens: z.number().int().min(0).optional(),
      /** Lines repeated between line windows (default 3). */
      overlap_lines: z.number().int().min(0).optional(),
    })
    .optional(),
  tokens: z
    .strictObject({
      /** "o200k" (exact BPE, default) or "estimate" (fast). */
      counter: z.enum(TOKEN_COUNTERS).optional(),
      /** Share of every budget held back, 0 to 0.5, e.g. 0.1 when the reader is Claude. */
      safety_margin: z.number().min(0).max(0.5).optional(),
    })
    .optional(),
  index: z
    .strictObject({
      /** Worker threads for parsing and chunking; 0 keeps everything in one thread. */
      workers: z.number().int().min(0).max(64).optional(),
      /** Extract the code graph (definitions, references, imports) with the chunks. */
      graph: z.boolean().optional(),
      /**
       * Index files that hold secrets (.env, keys, credentials; files where a
       * token or private key is found) and serve them to agents (default false).
       */
      include_secrets: z.boolean().optional(),
    })
    .optional(),
  store: z
    .strictObject({
      /** Index file, relative to the project root (default .ctx/index.db). */
      path: z.string().min(1).optional(),
      /** A PostgreSQL server to keep the index in instead (postgres://user@host/db); CTX_DATABASE_URL wins. */
      url: z
        .string()
        .regex(/^postgres(ql)?:\/\//i, "must be a postgres:// URL")
        .optional(),
      /** The database schema of the index on that server (default ctx). */
      schema: z
        .string()
        .regex(/^[a-z_][a-z0-9_]{0,62}$/, "must be lower-case letters, digits and _")
        .optional(),
      /** The project's name in a shared index (default local/<folder name>). */
      project: z.string().min(1).optional(),
    })
    .optional(),
  search: z
    .strictObject({
      /** Threads a large index file's keyword search is split across (default: cores, at most 4); 1: one. */
      threads: z.number().int().min(1).max(64).optional(),
      /** BM25 weight of each field. */
      weights: z
        .strictObject({
          path: z.number().min(0).optional(),
          symbols: z.number().min(0).optional(),
          context: z.number().min(0).optional(),
          body: z.number().min(0).optional(),
        })
        .optional(),
    })
    .optional(),
  contextualize: contextualizeSectionSchema.optional(),
  embeddings: embeddingsSectionSchema.optional(),
  rerank: rerankSectionSchema.optional(),
  arce: arceSectionSchema.optional(),
  navigator: navigatorSectionSchema.optional(),
  tiers: z
    .strictObject({
      /** Files (relative to each root) offered first in every answer (default ["AGENTS.md", "CLAUDE.md"]). */
      hot: z.array(z.string().min(1).max(1000)).max(50).optional(),
      /** Share of the budget kept for them, given back when they need less (default 0.15). */
      hot_share: z.number().min(0).max(1).optional(),
    })
    .optional(),
  history: historySectionSchema.optional(),
  context: z
    .strictObject({
      strategies: z
        .strictObject({
          /** Strategies that run for a request (default ["simple-keyword", "semantic-embedding", "breadth-depth-navigator"]). */
          enabled: z.array(z.string().min(1)).optional(),
          /** Custom strategies: name = "module-path:ExportName". */
          custom: z.record(z.string().min(1), customStrategySchema).optional(),
          /** Per-strategy settings, by strategy name. */
          settings: z.record(z.string().min(1), strategySettingsSchema).optional(),
        })
        .optional(),
    })
    .optional(),
  query: z
    .strictObject({
      /** Default token budget of `ctx query` (default 8000). */
      budget: positiveInt.optional(),
      /** Default output format of `ctx query`. */
      format: z.enum(OUTPUT_FORMATS).optional(),
    })
    .optional(),
  watch: z
    .strictObject({
      /** Milliseconds of quiet after a change before it is indexed (default 100). */
      debounce_ms: z.number().int().min(0).max(60_000).optional(),
      /** More changed paths than this in one batch re-index every root (default 1000). */
      full_refresh_paths: positiveInt.optional(),
      /**
       * Look for changes every this many milliseconds instead of listening for
       * file events (network and bind-mounted folders that send none). Unset:
       * events, with polling only when the system's limit on watches is reached.
       */
      poll_ms: z.number().int().min(100).max(600_000).optional(),
    })
    .optional(),
  serve: z
    .strictObject({
      /** HTTP sessions open at once; past it the least recently used idle one is closed (default 100). */
      max_sessions: z.number().int().min(1).max(10_000).optional(),
      /** Seconds an HTTP session may go without a request before it is closed (default 1800). */
      session_idle_s: z
        .number()
        .int()
        .min(1)
        .max(7 * 24 * 3600)
        .optional(),
      /** Tool calls worked on at once, over all sessions (default 4). */
      max_running: z.number().int().min(1).max(64).optional(),
      /** Tool calls waiting for a turn; one more is answered "busy" (default 64). */
      max_waiting: z.number().int().min(0).max(10_000).optional(),
    })
    .optional(),
});

export type ConfigFile = z.infer<typeof configFileSchema>;
