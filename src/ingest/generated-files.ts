import type { IndexState } from "../core/store.js";

/**
 * The files of a resource that say at their top that a tool wrote them
 * (`looksGenerated`), kept in the index's metadata: ranking reads them as
 * generated code whatever their name. An index run updates the set for the
 * files it reads and the ones that are gone; the others keep what was found.
 */
export class GeneratedFiles {
  private changed = false;

  private constructor(
    private readonly state: IndexState,
    private readonly key: string,
    private readonly paths: Set<string>,
  ) {}

  static async load(state: IndexState, resourceId: string): Promise<GeneratedFiles> {
    const key = generatedFilesKey(resourceId);
    return new GeneratedFiles(state, key, new Set(parsePaths(await state.getMeta(key))));
  }

  /** What a read of the file found; a file no longer indexed (binary, secret, gone) is not generated. */
  note(path: string, generated: boolean): void {
    if (generated === this.paths.has(path)) return;
    if (generated) this.paths.add(path);
    else this.paths.delete(path);
    this.changed = true;
  }

  async save(): Promise<void> {
    if (!this.changed) return;
    await this.state.setMeta(this.key, JSON.stringify([...this.paths].sort()));
    this.changed = false;
  }
}

/** The generated files of the resources, by relative path. */
export async function generatedPaths(
  state: IndexState,
  resourceIds: readonly string[],
): Promise<Set<string>> {
  const paths = new Set<string>();
  for (const id of resourceIds) {
    const stored = await state.getMeta(generatedFilesKey(id)).catch(() => null);
    for (const path of parsePaths(stored)) paths.add(path);
  }
  return paths;
}

function generatedFilesKey(resourceId: string): string {
  return `generated-files:${resourceId}`;
}

/** The stored list; anything else (an older index, a damaged value) is none. */
function parsePaths(stored: string | null): string[] {
  if (!stored) return [];
  try {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value) ? value.filter((item) => typeof item === "string") : [];
  } catch {
    return [];
  }
}
