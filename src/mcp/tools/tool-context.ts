import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { ContextEngine } from "../../engine/context-engine.js";
import { MCP_LIMITS } from "../limits.js";
import type { Guarded } from "../tool-result.js";

/** What a tool's registration gets: the server, the project's engine, and how calls run. */
export interface ToolContext {
  readonly server: McpServer;
  readonly engine: ContextEngine;
  /** Runs a call in its turn (the server's request gate), errors as `isError` results. */
  readonly guarded: Guarded;
  /** The same without a turn: for a call every caller shares (refresh_index). */
  readonly ungated: Guarded;
  /** Aborted when the server stops. */
  readonly stopping?: AbortSignal | undefined;
}

/** Registers one tool (or a tool and the resources it links to) on a server. */
export type RegisterTool = (tools: ToolContext) => void;

/** The SDK's per-request context: signal, progress token, notifications. */
export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A task or query in plain words. */
export const taskText = z.string().min(1).max(MCP_LIMITS.maxTextLength);
