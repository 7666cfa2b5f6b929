/**
 * Every error a user can meet carries a stable `code` and a message that names
 * the thing that failed and what to do about it. The CLI prints `message` as one
 * line and exits non-zero; the MCP layer will turn the same errors into results.
 */
export class CtxError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** A path the user gave does not exist or is not what the command needs. */
export class PathNotFoundError extends CtxError {
  constructor(path: string, what = "path") {
    super("path_not_found", `${what} not found: ${path} (check the path and try again)`);
  }
}

/** A flag or argument has a value the command cannot use. */
export class UsageError extends CtxError {
  constructor(message: string) {
    super("usage", message);
  }
}

/** A configuration file is malformed or has a value of the wrong kind. */
export class ConfigError extends CtxError {
  readonly file: string;

  constructor(file: string, message: string, options?: { cause?: unknown }) {
    super("config", `${file}: ${message}`, options);
    this.file = file;
  }
}

/** The index database cannot be opened or used as it is. */
export class StoreError extends CtxError {
  readonly location: string;

  constructor(location: string, message: string, options?: { cause?: unknown }) {
    super("store", `${location}: ${message}`, options);
    this.location = location;
  }
}

/** Another process held the index's write lock for longer than this one would wait. */
export class IndexBusyError extends StoreError {
  constructor(location: string, waitedMs: number, options?: { cause?: unknown }) {
    super(
      location,
      `the index is busy: another process has been writing it for over ${waitedMs / 1000} s; try again when that run (ctx index, a query's refresh, a server) is done`,
      options,
    );
  }
}

/** The index file is damaged (found while reading it, not only when opening it). */
export class IndexCorruptError extends StoreError {
  constructor(location: string, detail: string, options?: { cause?: unknown }) {
    super(
      location,
      `the index is corrupt (${detail}); move it aside and run \`ctx index\` to build it again`,
      options,
    );
  }
}

/**
 * The index cannot be written where it lies: a full disk, a read-only file
 * system, a folder this user cannot write. What was written before is kept,
 * and a query answers from it as it is.
 */
export class IndexNotWritableError extends StoreError {
  /** What is wrong, in a few words ("the disk is full"). */
  readonly reason: string;
  /** What to do about it. */
  readonly remedy: string;

  constructor(location: string, reason: string, remedy: string, options?: { cause?: unknown }) {
    super(
      location,
      `cannot write the index: ${reason}; ${remedy} (what was written before is kept)`,
      options,
    );
    this.reason = reason;
    this.remedy = remedy;
  }
}

/** The index was written by a newer Context Engine than this one. */
export class SchemaTooNewError extends StoreError {
  constructor(location: string, found: number, supported: number) {
    super(
      location,
      `index schema version ${found} is newer than this ctx supports (${supported}); upgrade ctx, or point --db at another file`,
    );
  }
}

/** No index exists where a command needs one. */
export class IndexMissingError extends CtxError {
  constructor(location: string) {
    super("index_missing", `no index at ${location}: run \`ctx index <path>\` first`);
  }
}

/** The user stopped a run (Ctrl-C or SIGTERM); what it wrote before stays. */
export class InterruptedError extends CtxError {
  /** What a shell expects of a process its signal stopped: 128 + the signal's number. */
  readonly exitCode: number;

  constructor(signal: "SIGINT" | "SIGTERM") {
    super(
      "interrupted",
      `interrupted (${signal}): the files indexed before the stop are kept; run the command again to go on from there`,
    );
    this.exitCode = signal === "SIGINT" ? 130 : 143;
  }
}

/** A file that holds secrets was asked for while secrets are not served (`[index] include_secrets`). */
export class SecretFileRefusedError extends CtxError {
  constructor(path: string, found: string) {
    super(
      "secret_file",
      `${path} is not served: it holds secrets (${found}); set [index] include_secrets = true in your own config (~/.config/ctx/config.toml) to serve such files`,
    );
  }
}

/** An evaluation folder is not in the BEIR layout `ctx eval` reads. */
export class EvalDataError extends CtxError {
  constructor(file: string, message: string) {
    super("eval_data", `${file}: ${message}`);
  }
}

/** The MCP server has as many tool calls running and waiting as its `[serve]` limits allow. */
export class ServerBusyError extends CtxError {
  constructor(running: number, waiting: number) {
    super(
      "server_busy",
      `ctx is busy: ${running} tool calls running, ${waiting} waiting ([serve] max_running, max_waiting); try again in a few seconds`,
    );
  }
}

/** An MCP client sent a message over the size ctx reads. */
export class MessageTooLargeError extends CtxError {
  constructor(limitBytes: number) {
    super(
      "message_too_large",
      `the MCP client sent a message over ${limitBytes} bytes, more than ctx reads; the server stops (the client must send smaller requests)`,
    );
  }
}

/** Turns anything thrown into a one-line message fit for a terminal. */
export function describeError(error: unknown): string {
  if (error instanceof CtxError) return error.message;
  if (error instanceof Error) return error.message.split("\n")[0] ?? error.name;
  return String(error);
}
