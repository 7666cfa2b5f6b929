import { z } from "zod";
import { MCP_LIMITS } from "../limits.js";

/** Arguments the plan tools share. */
export const planId = z.string().min(1).max(40).describe("The plan's id (create_plan gave it).");
export const words = z.string().min(1).max(MCP_LIMITS.maxTextLength);
