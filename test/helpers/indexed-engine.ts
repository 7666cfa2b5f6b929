import { afterEach } from "vitest";
import { ContextEngine } from "../../src/engine/context-engine.js";

const opened: ContextEngine[] = [];

afterEach(async () => {
  for (const engine of opened.splice(0)) await engine.close();
});

/**
 * An engine for the project at the first root, with the roots indexed; closed
 * after the test. The user config is read from the root, not the machine's.
 */
export async function indexedEngine(...roots: string[]): Promise<ContextEngine> {
  const first = roots[0] as string;
  const engine = await ContextEngine.open({
    start: first,
    cwd: first,
    env: { XDG_CONFIG_HOME: first },
  });
  opened.push(engine);
  await engine.index(roots);
  return engine;
}
