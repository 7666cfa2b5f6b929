/** How much a server takes on at once (`[serve]` in ctx.toml): many agents share one engine. */
export interface ServeLimits {
  /** HTTP sessions open at once; past it the least recently used idle one is closed. */
  readonly maxSessions: number;
  /** An HTTP session with no request open for this long is closed, in milliseconds. */
  readonly sessionIdleMs: number;
  /** Tool calls worked on at once; the engine's work shares one thread, so few are enough. */
  readonly maxRunning: number;
  /** Tool calls waiting for a turn, in arrival order; the next one is answered "busy". */
  readonly maxWaiting: number;
}

export const DEFAULT_SERVE_LIMITS: ServeLimits = {
  maxSessions: 100,
  sessionIdleMs: 30 * 60 * 1000,
  maxRunning: 4,
  maxWaiting: 64,
};
