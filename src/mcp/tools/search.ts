import { z } from "zod";
import { fileFragmentId } from "../../core/fragment-id.js";
import { MCP_LIMITS } from "../limits.js";
import { json } from "../tool-result.js";
import { type ToolContext, taskText } from "./tool-context.js";

/** `search`: search the index. */
export function registerSearch({ server, engine, guarded }: ToolContext): void {
  server.registerTool(
    "search",
    {
      title: "Search the index",
      description:
        "Keyword (BM25) search over indexed code and docs, identifiers split the way code is written. Returns ranked fragments: id, path, lines, score, symbol and a one-line snippet.",
      inputSchema: {
        query: taskText.describe("Words or identifiers to look for (e.g. 'RetryConfig backoff')."),
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
}
