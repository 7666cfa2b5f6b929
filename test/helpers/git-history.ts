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

  /**
   * Commits on top of HEAD in one git process, one minute apart: each writes
   * `files` (whole contents) after a rename (`from` → `to`) when it has one.
   * Ends with the work tree checked out at the last.
   */
  importCommits(
    commits: readonly {
      readonly message: string;
      readonly files: Readonly<Record<string, string>>;
      readonly rename?: readonly [string, string];
    }[],
  ): void {
    const parts: string[] = [];
    let parent: string | null;
    try {
      parent = this.git("rev-parse", "--verify", "--quiet", "HEAD").trim();
    } catch {
      parent = null; // no commit yet
    }
    for (const [i, commit] of commits.entries()) {
      this.minute++;
      const when = Math.floor(Date.UTC(2024, 0, 1) / 1000) + this.minute * 60;
      const message = `${commit.message}\n`;
      parts.push(
        "commit refs/heads/main",
        `committer Ada <ada@example.com> ${when} +0000`,
        `data ${Buffer.byteLength(message)}`,
        message,
      );
      if (i === 0 && parent) parts.push(`from ${parent}`);
      if (commit.rename) parts.push(`R ${commit.rename[0]} ${commit.rename[1]}`);
      for (const [path, content] of Object.entries(commit.files)) {
        parts.push(`M 100644 inline ${path}`, `data ${Buffer.byteLength(content)}`, content);
      }
    }
    execFileSync("git", ["fast-import", "--quiet"], {
      cwd: this.root,
      input: `${parts.join("\n")}\n`,
    });
    execFileSync("git", ["reset", "--quiet", "--hard"], { cwd: this.root });
  }

  commit(message: string, files: Record<string, string | Buffer> = {}): string {
    writeFiles(this.root, files);
    this.git("add", "--all");
    this.minute++;
    this.git("commit", "--quiet", "--allow-empty", "--message", message);
    return this.git("rev-parse", "HEAD").trim();
  }
}

/**
 * Commits worded from a few words (so that many messages tie on a search),
 * each changing one to three of eight files, one renamed every 97 commits.
 */
export function wordedHistory(count: number): {
  message: string;
  files: Record<string, string>;
  rename?: [string, string];
}[] {
  const words = ["refund", "basket", "label", "cache", "shipping", "voucher", "fix", "parser"];
  const names = words.map((word) => `src/${word}.ts`);
  const contents = new Map<string, string>();
  let seed = 7;
  const pick = (n: number) => {
    seed = (seed * 48_271) % 2_147_483_647; // within a double's exact integers
    return seed % n;
  };
  return Array.from({ length: count }, (_, i) => {
    const first = words[pick(words.length)] as string;
    const second = words[pick(words.length)] as string;
    let rename: [string, string] | undefined;
    if (i > 0 && i % 97 === 0) {
      const at = pick(names.length);
      const from = names[at] as string;
      if (contents.has(from)) {
        rename = [from, from.replace(".ts", `_r${i}.ts`)];
        contents.set(rename[1], contents.get(from) as string);
        contents.delete(from);
        names[at] = rename[1];
      }
    }
    const files: Record<string, string> = {};
    for (let n = 1 + pick(3); n > 0; n--) {
      const name = names[pick(names.length)] as string;
      const text = `${contents.get(name) ?? ""}export const ${first}${i} = "${second}";\n`;
      contents.set(name, text);
      files[name] = text;
    }
    return {
      message: `${first} ${second}\n\nchange the ${second} of the ${first}`,
      files,
      ...(rename ? { rename } : {}),
    };
  });
}
