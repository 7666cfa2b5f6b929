import { readFileSync, statSync } from "node:fs";
import type { ContextFragment } from "../core/fragment.js";
import { fileFragmentId } from "../core/fragment-id.js";
import type { TokenCounter } from "../core/token-counter.js";
import type { Resource } from "../core/types.js";
import { resolveInsideRoots } from "./safe-path.js";

/** The pseudo-strategy hot files are packed under, with their own share of the budget. */
export const HOT_FILES = "hot-files";
/** A hot file past this is not read: it could not be offered whole anyway. */
const MAX_HOT_BYTES = 256 * 1024;

/**
 * The configured hot files present at each root, whole, as hot-tier
 * fragments; under `paths`, only those inside them. A file outside its root
 * (a link out, `..`) is left out.
 */
export function hotFragments(
  resources: readonly Pick<Resource, "id" | "root">[],
  hot: readonly string[],
  counter: TokenCounter,
  paths?: readonly string[],
): ContextFragment[] {
  const found: ContextFragment[] = [];
  for (const resource of resources) {
    for (const name of hot) {
      let relPath: string;
      let absPath: string;
      try {
        ({ relPath, absPath } = resolveInsideRoots([resource.root], name));
      } catch {
        continue;
      }
      if (paths && !paths.some((prefix) => relPath === prefix || relPath.startsWith(prefix)))
        continue;
      let content: string;
      try {
        const stats = statSync(absPath);
        if (!stats.isFile() || stats.size > MAX_HOT_BYTES) continue;
        content = readFileSync(absPath, "utf8").replace(/\r\n/g, "\n").replace(/\n+$/, "");
      } catch {
        continue;
      }
      if (content.trim().length === 0) continue;
      const lines = content.split("\n").length;
      found.push({
        id: fileFragmentId(resource.id, relPath, 1, lines),
        source: {
          kind: "file",
          resourceId: resource.id,
          path: relPath,
          startLine: 1,
          endLine: lines,
          language: relPath.endsWith(".md") ? "markdown" : "text",
        },
        content,
        tokens: counter.count(content),
        score: 1,
        strategy: HOT_FILES,
        tier: "hot",
        nodeId: `${resource.id}:${relPath}#${"0".repeat(8)}`,
        detailDepth: "full",
        symbol: "",
        chunkKind: "section",
        chunkIds: [],
      });
    }
  }
  return found;
}
