import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describeError } from "../core/errors.js";
import { jsonText } from "../text/visible-text.js";

/**
 * Runs a tool's one core call and turns any error into an `isError` result
 * with a message the agent can act on: the only place errors cross into MCP.
 */
export async function toolResult(call: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await call();
  } catch (error) {
    return { isError: true, content: [{ type: "text", text: describeError(error) }] };
  }
}

/**
 * Runs a tool's call in its turn (see RequestGate) with store failures
 * explained; `extra` (the SDK's, with the request's signal) lets a call that is
 * cancelled, or whose session closes, leave the line and stop.
 */
export type Guarded = (
  call: () => Promise<CallToolResult>,
  extra?: { readonly signal: AbortSignal },
) => Promise<CallToolResult>;

export function text(...parts: string[]): CallToolResult {
  return { content: parts.map((part) => ({ type: "text" as const, text: part })) };
}

export function json(value: unknown): CallToolResult {
  return text(jsonText(value, 2));
}
