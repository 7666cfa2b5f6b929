import { ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { requestReportHtml } from "../../report/request-report.js";
import { summaryOf } from "../../report/request-summary.js";
import { json, text } from "../tool-result.js";
import type { ToolContext } from "./tool-context.js";

/** Where a request's HTML report is read as an MCP resource. */
export function reportUri(requestId: string): string {
  return `ctx://requests/${requestId}/report.html`;
}

/**
 * `explain`: a request's provenance as JSON with a plain summary (no links), and
 * on request its HTML report as an embedded resource; the report can also be
 * read as the resource `ctx://requests/{request_id}/report.html`.
 */
export function registerExplain({ server, engine, guarded }: ToolContext): void {
  server.registerTool(
    "explain",
    {
      title: "Explain a request",
      description:
        "Why get_context chose what it did: strategies, their confidence, budgets, timings, errors, each fragment with its strategy and score, and every candidate left out with the reason (over budget, duplicate, timed out, below the cut). Defaults to the last request. With html: true, also the whole report as one self-contained HTML page (an embedded resource).",
      inputSchema: {
        request_id: z
          .string()
          .max(100)
          .optional()
          .describe("A request id from get_context (default: the last one)."),
        html: z
          .boolean()
          .optional()
          .describe(
            "Also return the report as an HTML page (text/html resource) to show a person.",
          ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(async () => {
        const found = await engine.explainRequest(args.request_id);
        if (!found)
          return text(
            args.request_id
              ? `no request ${args.request_id} is kept for this index`
              : "no request yet for this index",
          );
        const { record } = found;
        const explained = json({
          requestId: found.id,
          task: record.task,
          budget: record.budget,
          tokensUsed: record.tokensUsed,
          candidates: record.candidates,
          dropped: record.dropped,
          reduced: record.reduced,
          strategies: record.provenance,
          fragments: record.fragments.map((fragment) => ({
            id: fragment.id,
            strategy: fragment.strategy,
            score: fragment.score,
            tokens: fragment.tokens,
            detailDepth: fragment.detailDepth,
            ...(fragment.context ? { context: fragment.context } : {}),
          })),
          leftOut: record.trace
            .filter((row) => row.outcome !== "included")
            .map((row) => ({
              id: row.id,
              strategy: row.strategy,
              score: row.score,
              outcome: row.outcome,
              reason: row.reason,
            })),
          summary: summaryOf(found.id, record),
        });
        if (!args.html) return explained;
        return {
          content: [
            ...explained.content,
            {
              type: "resource" as const,
              resource: {
                uri: reportUri(found.id),
                mimeType: "text/html",
                text: requestReportHtml(found.id, record),
              },
            },
          ],
        };
      }, extra),
  );

  server.registerResource(
    "request-report",
    new ResourceTemplate("ctx://requests/{request_id}/report.html", { list: undefined }),
    {
      title: "Request report",
      description:
        "One request's provenance as a self-contained HTML page: budget by strategy, every candidate and why it is in or out, the rendered context.",
      mimeType: "text/html",
    },
    async (uri, variables) => {
      const requestId = String(variables.request_id ?? "");
      const found = await engine.explainRequest(requestId === "last" ? undefined : requestId);
      if (!found) throw new Error(`no request ${requestId} is kept for this index`);
      return {
        contents: [
          { uri: uri.href, mimeType: "text/html", text: requestReportHtml(found.id, found.record) },
        ],
      };
    },
  );
}
