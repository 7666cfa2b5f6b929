import { type Readable, Transform, type TransformCallback, type Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { ServeLimits } from "../config/serve-limits.js";
import { MessageTooLargeError } from "../core/errors.js";
import type { ContextEngine } from "../engine/context-engine.js";
import { createMcpServer } from "./create-server.js";
import { MCP_LIMITS } from "./limits.js";
import { RequestGate } from "./request-gate.js";

export interface StdioServeOptions {
  /** Resolves when the server should stop (a signal). */
  readonly until?: Promise<void>;
  /** How many tool calls run and wait at once (default: the project's `[serve]` settings). */
  readonly limits?: ServeLimits;
  /** Aborts the refreshes that tools start, when the server stops. */
  readonly stopping?: AbortSignal;
  /** Where messages come from and go (default: stdin and stdout). */
  readonly input?: Readable;
  readonly output?: Writable;
  /** Longest message read, in bytes (default: the HTTP body limit). */
  readonly maxMessageBytes?: number;
}

/**
 * Serves MCP over stdin/stdout until the client goes or `until` resolves.
 * The client is gone when stdin ends or fails, or when stdout breaks (it
 * stopped reading: EPIPE); closing the server then aborts the calls in flight.
 * A message longer than the limit is answered with a JSON-RPC error and ends
 * the server with a MessageTooLargeError. Nothing else may write to stdout.
 */
export async function serveStdio(
  engine: ContextEngine,
  options: StdioServeOptions = {},
): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const limit = options.maxMessageBytes ?? MCP_LIMITS.maxBodyBytes;
  const server = await createMcpServer(engine, {
    gate: new RequestGate(options.limits ?? engine.config.serve),
    ...(options.stopping ? { stopping: options.stopping } : {}),
  });
  let tooLarge = false;
  let end: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => {
    end = resolve;
  });
  const lines = new LineLimit(limit, () => {
    tooLarge = true;
    end();
  });
  const transport = new StdioServerTransport(lines, output);
  transport.onclose = end;
  // A broken stdout reports every later write too: the listener stays for the life of the process.
  output.on("error", () => end());
  // Each response waiting for a slow reader listens for 'drain' once; the gate bounds how many.
  output.setMaxListeners(0);
  input.once("end", end);
  input.once("close", end);
  input.once("error", end);
  options.until?.then(end);
  input.pipe(lines);
  await server.connect(transport);
  await ended;
  input.unpipe(lines);
  // Read no more: an open stdin would keep the process alive after the server is done.
  input.destroy();
  if (tooLarge) {
    const error = new MessageTooLargeError(limit);
    output.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: error.message } })}\n`,
    );
    await server.close();
    throw error;
  }
  await server.close();
}

/**
 * Passes stdin on to the SDK's line reader until one line (a message) runs
 * past `limit` bytes, then stops passing anything: the reader would otherwise
 * hold the whole line in memory, however long, before it could refuse it.
 */
class LineLimit extends Transform {
  /** Bytes since the last newline. */
  private open = 0;
  private over = false;

  constructor(
    private readonly limit: number,
    private readonly onOver: () => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.over) {
      done();
      return;
    }
    let from = 0;
    for (;;) {
      const newline = chunk.indexOf(10, from);
      const length = (newline === -1 ? chunk.length : newline) - from;
      if (this.open + length > this.limit) {
        this.over = true;
        // The messages before the long one still count.
        if (from > 0) this.push(chunk.subarray(0, from));
        this.onOver();
        done();
        return;
      }
      if (newline === -1) {
        this.open += length;
        break;
      }
      this.open = 0;
      from = newline + 1;
    }
    done(null, chunk);
  }
}
