import { Option } from "commander";
import type { ContextEngine, OpenOptions } from "../engine/context-engine.js";

/**
 * Opens the project's engine for one command and always closes it; store failures name the index.
 * The engine (stores, parsers, models) is loaded here, when a command needs it, so that
 * `ctx --version`, `ctx --help` and commands that never open an index start fast.
 */
export async function withEngine<T>(
  options: OpenOptions,
  action: (engine: ContextEngine) => Promise<T>,
): Promise<T> {
  const engine = await openEngine(options);
  try {
    return await action(engine);
  } catch (error) {
    throw engine.store.explainFailure(error);
  } finally {
    await engine.close();
  }
}

/** The `--db` flag as open options. */
/** The `--db` flag every command that opens an index takes. */
export function dbFlag(): Option {
  return new Option(
    "--db <file>",
    "index file, or a postgres:// URL (default: .ctx/index.db in the project)",
  );
}

export function dbOption(flags: { readonly db?: string | undefined }): { db?: string } {
  return flags.db ? { db: flags.db } : {};
}

/** The engine module is imported on first use: its import graph is most of the CLI's start-up time. */
export async function openEngine(options: OpenOptions): Promise<ContextEngine> {
  const { ContextEngine } = await import("../engine/context-engine.js");
  return ContextEngine.open(options);
}
