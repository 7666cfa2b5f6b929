import { spawn } from "node:child_process";
import { CtxError } from "../core/errors.js";
import type { CommitRecord, FileChange } from "../core/history.js";
import { OWN_PROCESS_GROUP, SAFE_GIT_OPTIONS } from "../git/git-command.js";

/** git could not read a repository's history. */
export class GitHistoryError extends CtxError {
  constructor(root: string, detail: string) {
    super(
      "git_history_failed",
      `could not read the git history of ${root}: ${detail}; check that git runs there, or set [history] enabled = false`,
    );
  }
}

/**
 * Header fields, each ended by NUL (a commit message cannot hold one); `-z`
 * adds one more NUL before the file list, and ends each numstat entry with NUL.
 */
const FORMAT = "%x1e%H%x00%P%x00%an%x00%ae%x00%aI%x00%ct%x00%B%x00";
const HEADER_FIELDS = 7;
const NUMSTAT = /^(\d+|-)\t(\d+|-)\t(.*)$/s;

/** `git log` arguments that make its output what `readCommits` parses. */
export function logArguments(): string[] {
  return ["-c", "core.quotepath=off", "log", "-z", "--numstat", "-M", `--format=${FORMAT}`];
}

/**
 * Runs `git log` (arguments after `logArguments()`), streaming: each commit is
 * handed over as soon as its file list has been read, and `onBatch` gets them
 * `batchSize` at a time, so a long history is never held whole. `stdin`, when
 * given, is written to git's standard input (for `--stdin`).
 */
export async function readCommits(
  root: string,
  args: readonly string[],
  options: {
    readonly stdin?: string;
    readonly batchSize: number;
    readonly onBatch: (commits: CommitRecord[]) => Promise<void> | void;
    readonly signal?: AbortSignal;
  },
): Promise<number> {
  const parser = new LogParser();
  let total = 0;
  let batch: CommitRecord[] = [];
  await streamGit(root, [...logArguments(), ...args], options, async (text) => {
    for (const commit of parser.push(text)) {
      batch.push(commit);
      if (batch.length >= options.batchSize) {
        total += batch.length;
        const full = batch;
        batch = [];
        await options.onBatch(full);
      }
    }
  });
  batch.push(...parser.end());
  if (batch.length > 0) {
    total += batch.length;
    await options.onBatch(batch);
  }
  return total;
}

/**
 * Runs git with `args`, handing its output to `onText` as it arrives (a slow
 * `onText` holds git back); `stdin` is written to its standard input. Throws
 * GitHistoryError when git cannot run or exits with an error.
 */
export async function streamGit(
  root: string,
  args: readonly string[],
  options: { readonly stdin?: string; readonly signal?: AbortSignal },
  onText: (text: string) => Promise<void> | void,
): Promise<void> {
  const child = spawn("git", [...SAFE_GIT_OPTIONS, ...args], {
    cwd: root,
    stdio: ["pipe", "pipe", "pipe"],
    ...OWN_PROCESS_GROUP,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (text: string) => {
    if (stderr.length < 4000) stderr += text;
  });
  const exited = new Promise<number>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve(code ?? 1));
  });
  // Awaited below, but not while `onText` waits: a git stopped meanwhile (another
  // part failed, say on a full disk) must not end the process as an unhandled rejection.
  exited.catch(() => undefined);
  child.stdin.on("error", () => {
    // git may exit before reading all of its input; its exit code says why.
  });
  child.stdin.end(options.stdin ?? "");
  child.stdout.setEncoding("utf8");
  try {
    for await (const text of child.stdout as AsyncIterable<string>) await onText(text);
  } catch (error) {
    child.kill();
    await exited.catch(() => 1);
    if (error instanceof CtxError || options.signal?.aborted) throw error;
    throw new GitHistoryError(root, (error as Error).message);
  }
  const code = await exited.catch((error: Error) => {
    throw new GitHistoryError(root, error.message);
  });
  if (code !== 0) throw new GitHistoryError(root, stderr.trim().split("\n")[0] ?? `exit ${code}`);
}

interface Partial {
  header: string[];
  changes: FileChange[];
  /** A rename's counts, waiting for its two paths. */
  rename: { added: number | null; removed: number | null; from: string | null } | null;
}

/** Turns `git log -z --numstat` output (see FORMAT) into commits, whatever the chunking. */
export class LogParser {
  private rest = "";
  private current: Partial | null = null;
  /** Header tokens still to read for the current commit (the extra NUL included). */
  private headerLeft = 0;

  push(text: string): CommitRecord[] {
    const done: CommitRecord[] = [];
    const tokens = (this.rest + text).split("\0");
    this.rest = tokens.pop() ?? "";
    for (const token of tokens) this.take(token, done);
    return done;
  }

  /** What is left once the output has ended: the last commit. */
  end(): CommitRecord[] {
    const done: CommitRecord[] = [];
    if (this.rest.length > 0) this.take(this.rest, done);
    this.rest = "";
    if (this.current) done.push(toCommit(this.current));
    this.current = null;
    return done;
  }

  private take(token: string, done: CommitRecord[]): void {
    const current = this.current;
    if (current && this.headerLeft > 0) {
      if (current.header.length < HEADER_FIELDS) current.header.push(token);
      this.headerLeft--;
      return;
    }
    if (token.charCodeAt(0) === 0x1e) {
      if (current) done.push(toCommit(current));
      this.current = { header: [token.slice(1)], changes: [], rename: null };
      this.headerLeft = HEADER_FIELDS; // six more fields, then the extra NUL
      return;
    }
    if (!current) return;
    const rename = current.rename;
    if (rename) {
      if (rename.from === null) {
        rename.from = token;
      } else {
        current.changes.push({
          path: token,
          oldPath: rename.from,
          added: rename.added,
          removed: rename.removed,
        });
        current.rename = null;
      }
      return;
    }
    const entry = token.startsWith("\n") ? token.slice(1) : token;
    const match = NUMSTAT.exec(entry);
    if (!match) return;
    const added = match[1] === "-" ? null : Number(match[1]);
    const removed = match[2] === "-" ? null : Number(match[2]);
    const path = match[3] as string;
    if (path === "") current.rename = { added, removed, from: null };
    else current.changes.push({ path, oldPath: null, added, removed });
  }
}

function toCommit({ header, changes }: Partial): CommitRecord {
  const [
    sha = "",
    parents = "",
    author = "",
    email = "",
    date = "",
    committed = "0",
    message = "",
  ] = header;
  const text = message.replace(/\r\n/g, "\n");
  const cut = text.indexOf("\n");
  const subject = (cut < 0 ? text : text.slice(0, cut)).trim();
  const body = cut < 0 ? "" : text.slice(cut + 1).trim();
  return {
    sha,
    parents: parents.length > 0 ? parents.split(" ") : [],
    author,
    email,
    date,
    committedAt: Number(committed),
    subject,
    body,
    changes,
  };
}
