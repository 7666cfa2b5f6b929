import { describe, expect, it } from "vitest";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

describe("an index run that stops part way", () => {
  it("keeps what it wrote, and the next run reads only the rest", async () => {
    const root = tempDir();
    const files: Record<string, string> = {};
    for (let n = 0; n < 200; n++) {
      files[`src/part${n}.py`] = `def handler${n}(request):\n    return ${n}\n`;
    }
    writeFiles(root, files);
    const engine = await ContextEngine.open({
      start: root,
      cwd: root,
      env: { XDG_CONFIG_HOME: root },
    });
    try {
      // A first run on a new index that fails once 130 files are done (a crash, Ctrl-C).
      const stopped = engine.index([root], {
        onProgress: (progress) => {
          if (progress.phase === "index" && (progress.done ?? 0) >= 130) throw new Error("stopped");
        },
      });
      await expect(stopped).rejects.toThrow("stopped");
      const kept = (await engine.status()).store.documents;
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThan(200);

      const next = await engine.index([root]);
      expect(next.changed).toBe(0);
      expect(next.unchanged).toBe(kept);
      expect(next.added).toBe(200 - kept);
    } finally {
      await engine.close();
    }
  });

  it("stops between files when its signal is aborted, writing what it prepared", async () => {
    const root = tempDir();
    const files: Record<string, string> = {};
    for (let n = 0; n < 200; n++) files[`src/part${n}.py`] = `def step${n}():\n    return ${n}\n`;
    writeFiles(root, files);
    const engine = await ContextEngine.open({
      start: root,
      cwd: root,
      env: { XDG_CONFIG_HOME: root },
    });
    try {
      const controller = new AbortController();
      const stopped = engine.index([root], {
        signal: controller.signal,
        onProgress: (progress) => {
          if (progress.phase === "index" && (progress.done ?? 0) >= 64)
            controller.abort(new Error("user stop"));
        },
      });
      await expect(stopped).rejects.toThrow("user stop");
      const kept = (await engine.status()).store.documents;
      expect(kept).toBeGreaterThanOrEqual(64);
      expect(kept).toBeLessThan(200);
      const next = await engine.index([root]);
      expect([next.unchanged, next.added, next.changed]).toEqual([kept, 200 - kept, 0]);
    } finally {
      await engine.close();
    }
  });
});
