import { IndexNotWritableError, StoreError } from "../../core/errors.js";

/** A connection URL as messages and `ctx status` show it: the password never. */
export function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    // Not a URL the parser takes: hide whatever sits between "://user:" and "@".
    return url.replace(/(\/\/[^:/@]*:)[^@]*@/, "$1***@");
  }
}

/** Whether `--db`, `[store] url` or `CTX_DATABASE_URL` names a PostgreSQL server. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

interface PgLikeError {
  readonly code?: unknown;
  readonly message?: unknown;
}

/** Server error codes (SQLSTATE) and socket codes that mean the server went away or restarted. */
const SERVER_GONE = new Set([
  "57P01",
  "57P02",
  "57P03",
  "08006",
  "08003",
  "08001",
  "ECONNRESET",
  "EPIPE",
]);

/**
 * `error` as a one-line StoreError naming the server (its URL without the
 * password) and what to do; an error that is not the database's, unchanged.
 */
export function explainPgError(location: string, error: unknown): unknown {
  if (error instanceof StoreError) return error;
  const { code, message } = (error ?? {}) as PgLikeError;
  const text = typeof message === "string" ? (message.split("\n")[0] ?? "") : "";
  const fail = (what: string) => new StoreError(location, what, { cause: error });
  if (code === "ECONNREFUSED") {
    return fail(
      "cannot connect to the PostgreSQL server (connection refused): start it, or check the host and port in the URL",
    );
  }
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return fail(
      "cannot connect to the PostgreSQL server: its host name does not resolve; check the URL",
    );
  }
  if (code === "ETIMEDOUT" || /timeout exceeded when trying to connect/i.test(text)) {
    return fail(
      "cannot connect to the PostgreSQL server (timed out): check that it runs and the host is reachable",
    );
  }
  if (code === "28P01" || code === "28000") {
    return fail(
      "the server refused the login (wrong user or password): check the URL's user and password",
    );
  }
  if (code === "3D000") {
    return fail(`${text}: create it (createdb) or point the URL at another database`);
  }
  if (
    (typeof code === "string" && SERVER_GONE.has(code)) ||
    /Connection terminated|connection (is )?closed|terminating connection|not queryable|the database system is (shutting down|starting up)/i.test(
      text,
    )
  ) {
    return fail(
      "the PostgreSQL server closed the connection (it restarted or shut down); what was not committed was rolled back, so run the command again once the server is up and it goes on from there",
    );
  }
  if (code === "53100") {
    // Not writable, yet readable: a query answers from what is stored (see ensureIndex).
    return new IndexNotWritableError(
      location,
      "the server's disk is full",
      "free some space on it and run the command again",
      { cause: error },
    );
  }
  if (code === "42501") {
    return fail(
      `permission denied (${text}): grant the URL's user the rights it needs, or use another user`,
    );
  }
  return error;
}
