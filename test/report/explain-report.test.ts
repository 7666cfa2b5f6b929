import { cpSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { indexedMcpClient } from "../helpers/mcp-client.js";
import { gitRepo } from "../helpers/temp-dir.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/code", import.meta.url));

describe("MCP explain and the request report", () => {
  it("returns a link-free summary with the left-out candidates, and the HTML report as a resource", async () => {
    const root = gitRepo({ "README.md": "# Demo\n\nRetries and caches.\n" });
    cpSync(FIXTURES, join(root, "src"), { recursive: true });
    const { client, close } = await indexedMcpClient(root);
    try {
      const answer = (await client.callTool({
        name: "get_context",
        arguments: { task: "retry policy cache", budget_tokens: 300 },
      })) as CallToolResult;
      const summaryPart = answer.content[1];
      const requestId = /^request (\w+):/.exec(
        summaryPart?.type === "text" ? summaryPart.text : "",
      )?.[1];
      expect(requestId).toBeDefined();

      const explained = (await client.callTool({
        name: "explain",
        arguments: { request_id: requestId, html: true },
      })) as CallToolResult;
      const [first, resource] = explained.content;
      const body = JSON.parse(first?.type === "text" ? first.text : "{}") as {
        summary: string;
        leftOut: { outcome: string; reason: string }[];
      };
      expect(body.summary).toContain(`request ${requestId}`);
      expect(body.summary).not.toMatch(/https?:|\]\(/);
      expect(body.leftOut.length).toBeGreaterThan(0);
      for (const row of body.leftOut) {
        expect(["over-budget", "duplicate", "below-cut", "timed-out"]).toContain(row.outcome);
        expect(row.reason).not.toBe("");
      }
      expect(resource?.type).toBe("resource");
      const html =
        resource?.type === "resource" && "text" in resource.resource ? resource.resource.text : "";
      expect(html).toContain('id="budget-bar"');
      expect(html).toContain("Content-Security-Policy");

      const read = await client.readResource({ uri: `ctx://requests/${requestId}/report.html` });
      const content = read.contents[0];
      expect(content?.mimeType).toBe("text/html");
      expect(content && "text" in content ? content.text : "").toContain("retry policy cache");
    } finally {
      await close();
    }
  }, 30_000);
});
