/** Bounds on what one MCP request may ask for, so no client can exhaust the server. */
export const MCP_LIMITS = {
  /** Most tokens a get_context call may ask for. */
  maxBudget: 200_000,
  /** Most results a search call may ask for. */
  maxResults: 100,
  /** Longest task or query text, in characters. */
  maxTextLength: 10_000,
  /** Largest HTTP request body, in bytes. */
  maxBodyBytes: 1024 * 1024,
} as const;
