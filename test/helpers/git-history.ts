import { execFileSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { tempDir, writeFiles } from "./temp-dir.js";

/** A real git repository whose commits are made one minute apart from 2024-01-01 00:00 UTC, by Ada. */
export class Repo {
  readonly root = realpathSync(tempDir("ctx-history-"));
  private minute = 0;

  constructor() {
    this.git("init", "--quiet", "--initial-branch=main");
  }

  git(...args: string[]): string {
    const date = new Date(Date.UTC(2024, 0, 1) + this.minute * 60_000).toISOString();
    return execFileSync("git", args, {
      cwd: this.root,
      encoding: "utf8",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "Ada",
        GIT_AUTHOR_EMAIL: "ada@example.com",
        GIT_COMMITTER_NAME: "Ada",
        GIT_COMMITTER_EMAIL: "ada@example.com",
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
      },
    });
  }

  /** `count` commits on top of HEAD in one process, each changing one of seven files; `renames` by commit number. */
  fastImport(count: number, renames: Record<number, [string, string]> = {}): void {
    const parts: string[] = [];
    for (let i = 0; i < count; i++) {
      this.minute++;
      const when = Math.floor(Date.UTC(2024, 0, 1) / 1000) + this.minute * 60;
      const message = `c${i}\n`;
      const content = `v${i}\n`;
      parts.push(
        "commit refs/heads/main",
        `committer Ada <ada@example.com> ${when} +0000`,
        `data ${Buffer.byteLength(message)}`,
        message,
        ...(i === 0 ? ["from refs/heads/main^0"] : []),
        ...(renames[i] ? [`R ${renames[i]?.join(" ")}`] : []),
        `M 100644 inline f${i % 7}.ts`,
        `data ${Buffer.byteLength(content)}`,
        content,
      );
    }
    execFileSync("git", ["fast-import", "--quiet"], { cwd: this.root, input: parts.join("\n") });
  }

  commit(message: string, files: Record<string, string | Buffer> = {}): string {
    writeFiles(this.root, files);
    this.git("add", "--all");
    this.minute++;
    this.git("commit", "--quiet", "--allow-empty", "--message", message);
    return this.git("rev-parse", "HEAD").trim();
  }
}
