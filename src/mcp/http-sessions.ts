import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { ServeLimits } from "../config/serve-limits.js";

/** One client's MCP session over HTTP. */
export interface HttpSession {
  readonly server: McpServer;
  readonly transport: StreamableHTTPServerTransport;
  /** HTTP requests of the session open now: a listening client keeps its event stream open. */
  open: number;
  /** When its last request ended (or it began), in ms since the epoch. */
  lastUsed: number;
}

/**
 * The open sessions of an HTTP server, bounded in number and idle time: an
 * agent that went away without closing its session (most do) would otherwise
 * keep its server, tools and buffers for the life of the process. A session is
 * idle while none of its requests is open; idle ones are closed after
 * `sessionIdleMs`, and the least recently used idle one makes room for a new
 * session when `maxSessions` are open.
 */
export class HttpSessions {
  /** In order of last use, least recent first. */
  private readonly sessions = new Map<string, HttpSession>();
  /** Sessions being initialized: counted against the limit before they have an id. */
  private starting = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly limits: Pick<ServeLimits, "maxSessions" | "sessionIdleMs">,
    private readonly now: () => number = Date.now,
  ) {
    const every = Math.max(50, Math.min(limits.sessionIdleMs / 2, 60_000));
    this.sweeper = setInterval(() => this.closeIdle(), every);
    this.sweeper.unref();
  }

  /** Sessions open and being initialized. */
  get size(): number {
    return this.sessions.size + this.starting;
  }

  /**
   * Room for one more session, held until `add` or `cancel`: under the limit,
   * or once the least recently used idle session is closed. Null when every
   * session is in use.
   */
  reserve(): {
    add(id: string, session: Pick<HttpSession, "server" | "transport">): HttpSession;
    cancel(): void;
  } | null {
    if (this.sessions.size + this.starting >= this.limits.maxSessions && !this.closeLeastRecent())
      return null;
    this.starting++;
    let held = true;
    const release = () => {
      if (held) this.starting--;
      held = false;
    };
    return {
      // The session starts with its first request open.
      add: (id, parts) => {
        release();
        const session: HttpSession = { ...parts, open: 1, lastUsed: this.now() };
        this.sessions.set(id, session);
        return session;
      },
      cancel: release,
    };
  }

  /** The session, counted as in use until the returned `done` is called. */
  use(id: string): { session: HttpSession; done: () => void } | undefined {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    this.sessions.delete(id);
    this.sessions.set(id, session);
    session.open++;
    return { session, done: () => this.done(session) };
  }

  /** Ends one open request of a session. */
  done(session: HttpSession): void {
    session.open = Math.max(0, session.open - 1);
    session.lastUsed = this.now();
  }

  /** Forgets a session (its transport closed). */
  delete(id: string): void {
    this.sessions.delete(id);
  }

  /** Closes the least recently used idle session; false when there is none. */
  private closeLeastRecent(): boolean {
    for (const [id, session] of this.sessions) {
      if (session.open > 0) continue;
      this.close(id, session);
      return true;
    }
    return false;
  }

  /** Closes sessions idle for `sessionIdleMs` or longer. */
  closeIdle(): void {
    const before = this.now() - this.limits.sessionIdleMs;
    for (const [id, session] of this.sessions) {
      if (session.open === 0 && session.lastUsed <= before) this.close(id, session);
    }
  }

  /** Closes every session and stops looking for idle ones. */
  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((session) => session.server.close().catch(() => undefined)));
  }

  private close(id: string, session: HttpSession): void {
    this.sessions.delete(id);
    // Closing aborts the session's calls still running; the client gets "unknown session" next.
    void session.server.close().catch(() => undefined);
  }
}
