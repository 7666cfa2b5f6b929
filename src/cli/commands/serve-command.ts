import { dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import { UsageError } from "../../core/errors.js";
import type { ContextEngine } from "../../engine/context-engine.js";
import { writeErr } from "../output.js";
import { isLoopbackUrl, removeServerFile, writeServerFile } from "../server-file.js";
import { startWatching, untilSignal } from "../watching.js";
import { dbFlag, dbOption, withEngine } from "../with-engine.js";

interface ServeFlags {
  http?: string;
  db?: string;
  refresh: boolean;
  watch: boolean;
  verbose?: boolean;
}

/** How long the process may take to end once it stops serving (its client gone, a signal). */
const EXIT_GRACE_MS = 5000;

/** `host:port`, `[v6]:port` or a port alone (on 127.0.0.1). */
export function parseListen(value: string): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(value.trim());
  const port = Number(match?.[2]);
  if (!match || port > 65535)
    throw new UsageError(`--http expects host:port (e.g. 127.0.0.1:7077), got "${value}"`);
  const host = (match[1] ?? "127.0.0.1").replace(/^\[(.*)\]$/, "$1");
  return { host, port };
}

export function registerServeCommand(
  program: Command,
  run: (action: () => Promise<number>) => Promise<void>,
): void {
  program
    .command("serve")
    .description(
      "serve this project to agents over MCP: stdio by default, or Streamable HTTP with --http",
    )
    .option(
      "--http <host:port>",
      "serve MCP over Streamable HTTP (loopback unless CTX_MCP_TOKEN is set)",
    )
    .option("--no-refresh", "do not refresh the index when the server starts")
    .option("--no-watch", "do not watch the project's files (refresh on request only)")
    .option("--verbose", "say on stderr what the watcher indexed")
    .addOption(dbFlag())
    .action((flags: ServeFlags) =>
      run(() =>
        withEngine(dbOption(flags), async (engine) => {
          const listen = flags.http ? parseListen(flags.http) : null;
          // Stops the refreshes the server runs (at start, refresh_index) when it stops serving.
          const stopping = new AbortController();
          // An index that cannot be written (a full disk, a read-only file system) is served as it is.
          const { readOnly } = engine.store;
          if (readOnly !== null) {
            writeErr(
              `ctx: ${engine.indexPath}: serving the index as it is, not refreshed or watched: opened read-only: ${readOnly}\n`,
            );
          }
          if (flags.refresh && readOnly === null) {
            // Agents get answers at once from what is indexed; the refresh commits file by file.
            engine.refresh({ signal: stopping.signal }).catch((error: unknown) => {
              if (!stopping.signal.aborted)
                writeErr(`ctx: refreshing the index failed: ${(error as Error).message}\n`);
            });
          }
          // Saved files are indexed as they change; the server answers meanwhile.
          const watching =
            flags.watch && readOnly === null ? startWatching(engine, flags.verbose ?? false) : null;
          const signal = untilSignal();
          let failed = false;
          try {
            if (!listen) {
              const { serveStdio } = await import("../../mcp/serve-stdio.js");
              await serveStdio(engine, { until: signal.stopped, stopping: stopping.signal });
              return 0;
            }
            const { serveHttp } = await import("../../mcp/serve-http.js");
            const server = await serveHttp(engine, {
              ...listen,
              token: process.env.CTX_MCP_TOKEN || undefined,
              stopping: stopping.signal,
            });
            // Announced before the line that says it serves: whoever waits for the line finds the file.
            const announced = announceServer(engine, server.url, flags.db !== undefined);
            writeErr(`ctx: serving ${engine.root} over MCP at ${server.url}\n`);
            try {
              await signal.stopped;
            } finally {
              if (announced) removeServerFile(engine.root);
            }
            await server.close();
            return 0;
          } catch (error) {
            failed = true;
            throw error;
          } finally {
            // Whatever still runs once serving ends (a refresh finishing a file, a
            // watcher's batch, a git child) may not keep the process: it goes anyway.
            const exit = () => process.exit(process.exitCode ?? (failed ? 1 : 0));
            setTimeout(exit, EXIT_GRACE_MS).unref();
            stopping.abort();
            signal.dispose();
            await (await watching)?.close();
            while (engine.refreshing) await engine.refresh().catch(() => undefined);
          }
        }),
      ),
    );
}

/**
 * Leaves `.ctx/server.json` for the prompt hook (see server-file.ts) when this
 * server answers for the project's own index on a loopback address: a server
 * of another index (`--db`) or reachable off this machine is not announced.
 */
function announceServer(engine: ContextEngine, url: string, otherIndex: boolean): boolean {
  if (otherIndex || !isLoopbackUrl(url)) return false;
  // Beside an index that cannot be written (said above), nothing can be.
  if (engine.store.readOnly !== null) return false;
  if (resolve(dirname(engine.indexPath)) !== join(resolve(engine.root), ".ctx")) return false;
  try {
    writeServerFile({
      url,
      token: process.env.CTX_MCP_TOKEN || null,
      pid: process.pid,
      root: engine.root,
    });
    return true;
  } catch (error) {
    writeErr(
      `ctx: the prompt hook will not find this server: writing .ctx/server.json failed: ${(error as Error).message}\n`,
    );
    return false;
  }
}
