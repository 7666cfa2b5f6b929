import { type FileRoles, fileRoleOf, rolesAskedFor } from "../core/file-roles.js";
import type { RankRule } from "../core/rank-signals.js";
import { fileStemOf, fileWordsOf } from "../text/named-files.js";
import { taskTitle } from "../text/task-terms.js";

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
 * The fixed path rules for a task, for fragments the learned model cannot score
 * (they carry no signals; the model has features for both rules): a file of a
 * role the task does not ask for counts less (unless the task names it:
 * `conftest.py`), a file the task names counts more. Each rule that applies
 * comes with its reason in words.
 */
export function pathRulesFor(
  task: string,
  priors: PathPriors = DEFAULT_PATH_PRIORS,
  roleOf: FileRoles = fileRoleOf,
): (path: string) => { rules: RankRule[]; reasons: string[] } {
  const asked = rolesAskedFor(taskTitle(task));
  const lowered = task.toLowerCase();
  const words = fileWordsOf(task);
  return (path) => {
    const rules: RankRule[] = [];
    const reasons: string[] = [];
    const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
    const role = roleOf(path);
    if (!asked.has(role) && !lowered.includes(name) && priors.otherRole !== 1) {
      rules.push({ rule: "other-role", factor: priors.otherRole });
      reasons.push(`${role} file ×${priors.otherRole} (the task does not ask for ${role} files)`);
    }
    if (priors.namedFile !== 1 && words.has(fileStemOf(path))) {
      rules.push({ rule: "named-file", factor: priors.namedFile });
      reasons.push(`file named in the task ×${priors.namedFile}`);
    }
    return { rules, reasons };
  };
}
