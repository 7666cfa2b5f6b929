import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { SAFE_GIT_OPTIONS } from "../git/git-command.js";

const run = promisify(execFile);

/**
 * The parts of a checkout's git folder a watcher needs: whether git is in the
 * middle of rewriting the work tree (it holds `index.lock` through a checkout,
 * merge or rebase step) and which commit HEAD names.
 */
export class GitState {
  private constructor(
    readonly root: string,
    /** The checkout's git folder (`.git`, or a worktree's folder inside it). */
    readonly gitDir: string,
    private head: string | null,
  ) {}

  /** Null when the root is not in a git work tree (or git cannot run). */
  static async of(root: string): Promise<GitState | null> {
    try {
      const { stdout } = await run(
        "git",
        [...SAFE_GIT_OPTIONS, "rev-parse", "--absolute-git-dir"],
        { cwd: root },
      );
      const state = new GitState(root, stdout.trim(), null);
      state.head = await state.readHead();
      return state;
    } catch {
      return null;
    }
  }

  /** True while another git command holds the index: files are still changing. */
  get busy(): boolean {
    return existsSync(join(this.gitDir, "index.lock"));
  }

  /** True (once) when HEAD names another commit than last time asked. */
  async headMoved(): Promise<boolean> {
    const head = await this.readHead();
    if (head === this.head) return false;
    this.head = head;
    return true;
  }

  private async readHead(): Promise<string | null> {
    try {
      const { stdout } = await run(
        "git",
        [...SAFE_GIT_OPTIONS, "rev-parse", "--verify", "-q", "HEAD"],
        {
          cwd: this.root,
        },
      );
      return stdout.trim() || null;
    } catch {
      return null; // no commit yet
    }
  }
}
