import { UsageError } from "../core/errors.js";
import type { FileRoles } from "../core/file-roles.js";
import type { LoadedGraph } from "../core/graph.js";
import type { TokenCounter } from "../core/token-counter.js";
import { type RepoMap, repoMap } from "../graph/repo-map.js";
import { assertBudget } from "./pack-answer.js";

/**
 * The project's repo map (`ctx map`, MCP `repo_map`) within a budget; a clear
 * error when the code graph is off, rather than an empty map.
 */
export async function projectMap(
  graphOn: boolean,
  loadGraph: () => Promise<LoadedGraph>,
  counter: TokenCounter,
  options: { budget: number; focus?: readonly string[]; roleOf?: FileRoles },
): Promise<RepoMap> {
  assertBudget(options.budget);
  if (!graphOn) {
    throw new UsageError(
      "the code graph is off ([index] graph = false in ctx.toml): turn it on and re-index to get a repo map",
    );
  }
  return repoMap(await loadGraph(), { ...options, counter });
}
