import { ContextEngine, type OpenOptions } from "../engine/context-engine.js";

/** Opens the project's engine for one command and always closes it; store failures name the index. */
export async function withEngine<T>(
  options: OpenOptions,
  action: (engine: ContextEngine) => Promise<T>,
): Promise<T> {
  const engine = await ContextEngine.open(options);
  try {
    return await action(engine);
  } catch (error) {
    throw engine.store.explainFailure(error);
  } finally {
    await engine.close();
  }
}

/** The `--db` flag as open options. */
export function dbOption(flags: { readonly db?: string | undefined }): { db?: string } {
  return flags.db ? { db: flags.db } : {};
}
