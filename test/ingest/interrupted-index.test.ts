import { describe, expect, it } from "vitest";
import { ContextEngine, type IndexOptions } from "../../src/engine/context-engine.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

const FILES = 200;

/**
 * Indexes a new project of 200 small files with `stopping` (whose run must fail),
 * then again in full; returns what the first run kept and the second's report.
 */
async function stopThenResume(stopping: (engine: ContextEngine, root: string) => Promise<unknown>) {
  const root = tempDir();
  const files: Record<string, string> = {};
  for (let n = 0; n < FILES; n++) files[`src/part${n}.py`] = `def step${n}():\n    return ${n}\n`;
  writeFiles(root, files);
  const engine = await ContextEngine.open({
    start: root,
    cwd: root,
    env: { XDG_CONFIG_HOME: root },
  });
  try {
    await expect(stopping(engine, root)).rejects.toThrow("stopped");
    const kept = (await engine.status()).store.documents;
    return { kept, next: await engine.index([root]) };
  } finally {
    await engine.close();
  }
}

/** Progress that calls `stop` once the run has done `files` files. */
function stopAfter(files: number, stop: () => void): Pick<IndexOptions, "onProgress"> {
  return {
    onProgress: (progress) => {
      if (progress.phase === "index" && (progress.done ?? 0) >= files) stop();
    },
  };
}

describe("an index run that stops part way", () => {
  it("keeps what it wrote, and the next run reads only the rest", async () => {
    // A first run on a new index that fails part way (a crash).
    const { kept, next } = await stopThenResume((engine, root) =>
      engine.index(
        [root],
        stopAfter(130, () => {
          throw new Error("stopped");
        }),
      ),
    );
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(FILES);
    expect([next.unchanged, next.added, next.changed]).toEqual([kept, FILES - kept, 0]);
  });

  it("stops between files when its signal is aborted, writing what it prepared", async () => {
    const controller = new AbortController();
    const { kept, next } = await stopThenResume((engine, root) =>
      engine.index([root], {
        signal: controller.signal,
        ...stopAfter(64, () => controller.abort(new Error("stopped"))),
      }),
    );
    expect(kept).toBeGreaterThanOrEqual(64);
    expect(kept).toBeLessThan(FILES);
    expect([next.unchanged, next.added, next.changed]).toEqual([kept, FILES - kept, 0]);
  });
});
