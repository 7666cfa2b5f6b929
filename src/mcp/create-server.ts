import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { z } from "zod";
import { describeRun } from "../assemble/renderers.js";
import { fileFragmentId } from "../core/fragment-id.js";
import type { ContextEngine } from "../engine/context-engine.js";
import { visibleLine, visibleText } from "../text/visible-text.js";
import { VERSION } from "../version.js";
import { registerExplainTool } from "./explain-tool.js";
import { registerGraphTools } from "./graph-tools.js";
import { MCP_LIMITS } from "./limits.js";
import { registerPlanTools } from "./plan-tools.js";
import type { RequestGate } from "./request-gate.js";
import { type Guarded, json, text, toolResult } from "./tool-result.js";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const task = z.string().min(1).max(MCP_LIMITS.maxTextLength);

export interface McpServerOptions {
  /** Turns shared by every session of a server (default: none, calls run as they come). */
  readonly gate?: RequestGate;
  /** Aborts the refreshes refresh_index starts, when the server stops. */
  readonly stopping?: AbortSignal;
}

/**
 * One validator for every session: each would otherwise build its own (a
 * schema compiler with its formats), a cost paid per client at cold start.
 */
let validator: jsonSchemaValidator | undefined;

/**
 * The MCP face of a project: each tool calls one engine method; errors become
 * `isError` results in toolResult. README / AGENTS.md-style files are resources.
 */
export async function createMcpServer(
  engine: ContextEngine,
  options: McpServerOptions = {},
): Promise<McpServer> {
  const { gate } = options;
  // A tool's store failure (busy, corrupt) comes back as an error naming the index.
  const explained = (call: () => Promise<CallToolResult>) => () =>
    call().catch((error: unknown) => {
      throw engine.store.explainFailure(error);
    });
  const guarded: Guarded = (call, extra) =>
    toolResult(gate ? () => gate.run(explained(call), extra?.signal) : explained(call));
  const ungated: Guarded = (call) => toolResult(explained(call));
  validator ??= new AjvJsonSchemaValidator();
  const server = new McpServer(
    { name: "context-engine", version: VERSION },
    {
      instructions:
        "Use get_context first for any task about this project; it returns the most relevant code and docs within a token budget, with where each piece came from.",
      jsonSchemaValidator: validator,
    },
  );

  server.registerTool(
    "get_context",
    {
      title: "Get context for a task",
      description:
        "Assemble the code and documentation most relevant to a task, within a hard token budget. Returns the fragments (each with its path, line range and score) and a summary of which retrieval strategies produced them. Call this before reading files one by one.",
      inputSchema: {
        task: task.describe(
          "The task or question, in plain words (e.g. 'how are retries configured?').",
        ),
        budget_tokens: z
          .number()
          .int()
          .min(1)
          .max(MCP_LIMITS.maxBudget)
          .optional()
          .describe(
            `Most tokens the returned context may use (default ${engine.config.query.budget}).`,
          ),
        paths: z
          .array(z.string().max(1000))
          .max(50)
          .optional()
          .describe("Only use files under these paths, relative to the project root."),
        focus: z
          .array(z.string().min(1).max(1000))
          .max(50)
          .optional()
          .describe(
            "What you are working on: files or folders (relative to the project root) and/or symbol names; the code graph is walked from them.",
          ),
        strategies: z
          .array(z.string())
          .max(20)
          .optional()
          .describe(
            "Run these retrieval strategies instead of the project's (see list_strategies).",
          ),
        format: z
          .enum(["markdown", "xml", "json"])
          .optional()
          .describe("How the context is rendered (default markdown)."),
        plan_id: z
          .string()
          .max(40)
          .optional()
          .describe(
            "The plan you work in (create_plan): its decisions and its ancestors' join the context.",
          ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(async () => {
        const result = await engine.query({
          signal: extra.signal,
          ...(args.plan_id ? { planId: args.plan_id } : {}),
          task: args.task,
          budget: args.budget_tokens ?? engine.config.query.budget,
          format: args.format ?? "markdown",
          ...(args.paths ? { paths: args.paths } : {}),
          ...(args.focus ? { focus: args.focus } : {}),
          ...(args.strategies ? { strategies: args.strategies } : {}),
        });
        const summary = [
          `request ${result.requestId}: ${result.fragments.length} fragments, ${result.tokensUsed} of ${result.budget} tokens` +
            (result.dropped > 0 ? `, ${result.dropped} candidates left out for budget` : "") +
            (engine.refreshing
              ? " (the index is being refreshed; this answer uses what was committed)"
              : "") +
            (result.unknownFocus.length > 0
              ? `; focus left out (${engine.config.graph ? "no such file, folder or definition" : "the code graph is off"}): ${result.unknownFocus.join(", ")}`
              : ""),
          ...result.provenance.map((run) => `- ${describeRun(run)}`),
          "Call explain with this request id for details, read_fragment for more lines.",
        ];
        return text(result.output, summary.join("\n"));
      }, extra),
  );

  server.registerTool(
    "search",
    {
      title: "Search the index",
      description:
        "Keyword (BM25) search over indexed code and docs, identifiers split the way code is written. Returns ranked fragments: id, path, lines, score, symbol and a one-line snippet.",
      inputSchema: {
        query: task.describe("Words or identifiers to look for (e.g. 'RetryConfig backoff')."),
        limit: z
          .number()
          .int()
          .min(1)
          .max(MCP_LIMITS.maxResults)
          .optional()
          .describe("How many results (default 10)."),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(async () => {
        const hits = await engine.search(args.query, args.limit ?? 10);
        const showId = await engine.fragmentIds();
        return json(
          hits.map(({ chunk, score }) => ({
            id: showId(
              fileFragmentId(chunk.resourceId, chunk.path, chunk.startLine, chunk.endLine),
            ),
            path: chunk.path,
            startLine: chunk.startLine,
            endLine: chunk.endLine,
            score: Math.round(score * 1000) / 1000,
            symbol: chunk.symbol,
            kind: chunk.kind,
            snippet: (chunk.content.split("\n").find((line) => line.trim().length > 0) ?? "")
              .trim()
              .slice(0, 200),
          })),
        );
      }, extra),
  );

  registerGraphTools(server, engine, guarded);
  registerPlanTools(server, engine, guarded);

  server.registerTool(
    "read_fragment",
    {
      title: "Read a fragment or file range",
      description:
        "The current text of a fragment (by the id search or get_context gave) or of a line range of a file inside the project that the index reads (ignored files, .git/, dependencies and binary files are refused). Paths are relative to the project root.",
      inputSchema: {
        id: z
          .string()
          .max(2000)
          .optional()
          .describe("A fragment id like src/app.ts#L10-L40, as search or get_context gave it."),
        path: z
          .string()
          .max(1000)
          .optional()
          .describe("A file path relative to the project root (when no id)."),
        start_line: z.number().int().min(1).optional().describe("First line, 1-based (default 1)."),
        end_line: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe("Last line, inclusive (default: end of file)."),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(async () => {
        const address = args.id
          ? { id: args.id }
          : {
              path: args.path ?? "",
              ...(args.start_line ? { startLine: args.start_line } : {}),
              ...(args.end_line ? { endLine: args.end_line } : {}),
            };
        const fragment = await engine.readFragment(address);
        // As in get_context's answers: a name stays one line, and control characters show as escapes.
        return text(
          `${visibleLine(fragment.path)}:${fragment.startLine}-${fragment.endLine}\n${visibleText(fragment.text)}`,
        );
      }, extra),
  );

  registerExplainTool(server, engine, guarded);

  server.registerTool(
    "index_status",
    {
      title: "Index status",
      description:
        "What the index covers and how fresh it is: files, chunks, skipped files by reason, last indexed, files changed since, the context generator and strategies in use.",
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (_args, extra) =>
      guarded(async () => {
        const [status, stale] = await Promise.all([engine.status(), engine.staleness()]);
        return json({ ...status, staleness: stale, refreshing: engine.refreshing });
      }, extra),
  );

  server.registerTool(
    "refresh_index",
    {
      title: "Refresh the index",
      description:
        "Re-index what changed since the last run (incremental; sends progress notifications). If a refresh is already running, waits for it and returns its report.",
      inputSchema: {},
      annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    },
    // Not in turns: every caller shares the one refresh, which would hold a turn for minutes.
    (_args, extra: Extra) =>
      ungated(async () => {
        const token = extra._meta?.progressToken;
        const report = await engine.refresh({
          ...(options.stopping ? { signal: options.stopping } : {}),
          onProgress: (progress) => {
            if (token === undefined || progress.phase === "discover") return;
            void extra
              .sendNotification({
                method: "notifications/progress",
                params: {
                  progressToken: token,
                  progress: progress.done,
                  total: progress.total,
                  message:
                    progress.phase === "index"
                      ? `indexing ${progress.root}`
                      : progress.phase === "history"
                        ? `reading the git history of ${progress.root}`
                        : "writing contexts",
                },
              })
              .catch(() => undefined);
          },
        });
        return json({
          added: report.added,
          changed: report.changed,
          removed: report.removed,
          unchanged: report.unchanged,
          chunks: report.chunks,
          skipped: report.skipped,
          missingRoots: report.missingRoots,
          elapsedMs: report.elapsedMs,
          contexts: {
            generator: report.contexts.generator,
            reason: report.contexts.reason,
            report: report.contexts.report,
          },
        });
      }),
  );

  server.registerTool(
    "list_strategies",
    {
      title: "List retrieval strategies",
      description:
        "The retrieval strategies this project can use: name, quality, backends, whether enabled, circuit breaker state.",
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (_args, extra) =>
      guarded(async () => {
        const { enabled, source } = await engine.enabledStrategies();
        return json({
          enabledFrom: source,
          strategies: engine.registry.list().map(({ strategy, origin }) => ({
            name: strategy.name,
            quality: strategy.capabilities.qualityScore,
            enabled: enabled.includes(strategy.name),
            breaker: engine.pipeline.breakers.state(strategy.name),
            origin,
            description: strategy.explain(),
          })),
        });
      }, extra),
  );

  for (const pinned of await engine.pinnedFiles()) {
    server.registerResource(
      `${pinned.path}`,
      `ctx://pinned/${pinned.resourceId}/${encodeURIComponent(pinned.path)}`,
      {
        title: pinned.path,
        description: `${pinned.path} at ${pinned.root}`,
        mimeType: "text/markdown",
      },
      async (uri) => ({
        contents: [
          { uri: uri.href, mimeType: "text/markdown", text: engine.readPinnedFile(pinned) },
        ],
      }),
    );
  }
  return server;
}
