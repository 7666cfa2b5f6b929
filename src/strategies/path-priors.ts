import { fileRoleOf, rolesAskedFor } from "../core/file-roles.js";
import type { ContextFragment } from "../core/fragment.js";
import { fileStemOf, fileWordsOf } from "../text/named-files.js";

export interface PathPriors {
  /**
   * How much a fragment of a file about the code (a test, the docs, an example,
   * a benchmark, vendored or generated code) counts against one of the code
   * itself when the task does not ask for such files: they share the code's
   * words (a test names what it tests, a README describes it), so by words
   * alone they outrank the code a task needs to read or change.
   */
  readonly otherRole: number;
  /** How much more a fragment counts when the task names its file (`fix(jwt): …` and `jwt.ts`). */
  readonly namedFile: number;
}

export const DEFAULT_PATH_PRIORS: PathPriors = { otherRole: 0.5, namedFile: 1.5 };

/**
 * Candidates rescored by what their paths say against the task (in the order
 * given; the caller ranks them): files of a role the task does not ask for count less (unless the task
 * names them: `conftest.py`), files it names count more. Fragments that are not
 * from files, the hot tier and what the learned ranking scored keep their scores.
 */
export function rescoreByPath(
  candidates: readonly ContextFragment[],
  task: string,
  priors: PathPriors = DEFAULT_PATH_PRIORS,
): ContextFragment[] {
  const asked = rolesAskedFor(task);
  const lowered = task.toLowerCase();
  const words = fileWordsOf(task);
  return candidates.map((fragment) => {
    // The learned ranking weighed the path already.
    if (fragment.source.kind !== "file" || fragment.tier === "hot" || fragment.ranked)
      return fragment;
    const path = fragment.source.path;
    const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
    let factor = 1;
    const reasons: string[] = [];
    const role = fileRoleOf(path);
    if (!asked.has(role) && !lowered.includes(name) && priors.otherRole !== 1) {
      factor *= priors.otherRole;
      reasons.push(`${role} file ×${priors.otherRole} (the task does not ask for ${role} files)`);
    }
    if (priors.namedFile !== 1 && words.has(fileStemOf(path))) {
      factor *= priors.namedFile;
      reasons.push(`file named in the task ×${priors.namedFile}`);
    }
    if (reasons.length === 0) return fragment;
    return {
      ...fragment,
      score: Math.round(fragment.score * factor * 1e6) / 1e6,
      ranking: [...(fragment.ranking ?? []), ...reasons],
    };
  });
}
