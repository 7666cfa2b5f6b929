/** The agents whose config formats `ctx init` writes (apart from agent-setup.ts, so the CLI can name them without loading it). */
export const AGENTS = ["claude-code", "cursor", "codex"] as const;
export type AgentName = (typeof AGENTS)[number];
