import { availableParallelism } from "node:os";
import type { CommitRecord } from "../core/history.js";
import { readCommits } from "./git-log.js";

/** Fewer commits than this per git process are not worth another one (git reads about 1 ms a commit). */
const MIN_PART = 250;
const MAX_PARALLEL_READS = 4;
/**
 * Commits a later part may read ahead of its turn before its git is held back:
 * the default `max_commits` (10,000) over four parts never waits, and a longer
 * history holds at most this many a part in memory.
 */
const MAX_READ_AHEAD = 2500;

/**
 * Reads the commits (given oldest first) with `git log --no-walk` between
 * `logOptions` and `paths` (what ends the command: the pathspec after `--`): in one process for a few, else in up to one
 * process per core over consecutive slices, since git's diffs are most of the
 * time and each runs on one core. Batches reach `write` in the order of the
 * shas whatever part is read first, so the stored order (what ties between
 * commits of one second are broken by) is the same however the reads
 * interleave, and a run killed part way leaves the oldest commits stored, the
 * next run adding the rest after them. Returns the number of parts.
 */
export async function readCommitsInParts(
  root: string,
  shas: readonly string[],
  options: {
    readonly logOptions: readonly string[];
    readonly paths: readonly string[];
    readonly batchSize: number;
    readonly write: (commits: CommitRecord[]) => Promise<void>;
    readonly signal?: AbortSignal;
  },
): Promise<number> {
  const count = Math.max(
    1,
    Math.min(MAX_PARALLEL_READS, availableParallelism(), Math.floor(shas.length / MIN_PART)),
  );
  const size = Math.ceil(shas.length / count);
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const order = new PartOrder(count, options.write, stop.signal);
  try {
    await Promise.all(
      Array.from({ length: count }, (_, part) =>
        readCommits(
          root,
          [...options.logOptions, "--no-walk=unsorted", "--stdin", ...options.paths],
          {
            stdin: `${shas.slice(part * size, (part + 1) * size).join("\n")}\n`,
            batchSize: options.batchSize,
            onBatch: (commits) => order.batch(part, commits),
            signal: stop.signal,
          },
        ).then(
          () => order.end(part),
          (error: unknown) => {
            stop.abort(); // the other parts stop too
            throw error;
          },
        ),
      ),
    );
    await order.written();
  } finally {
    stop.abort(); // a part still held back lets go
    options.signal?.removeEventListener("abort", onAbort);
  }
  return count;
}

/**
 * Writes the batches of parts read at the same time in part order: the
 * current part's as they come (its reader waits for each write), a later
 * part's once every earlier part has ended, its reader held back past
 * `MAX_READ_AHEAD` commits until then.
 */
class PartOrder {
  private turn = 0;
  private readonly waiting: CommitRecord[][][];
  private readonly ended: boolean[];
  private readonly turnReached: { promise: Promise<void>; resolve: () => void }[];
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly parts: number,
    private readonly write: (commits: CommitRecord[]) => Promise<void>,
    private readonly stop: AbortSignal,
  ) {
    this.waiting = Array.from({ length: parts }, () => []);
    this.ended = Array.from({ length: parts }, () => false);
    this.turnReached = Array.from({ length: parts }, () => {
      let resolve = () => {};
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      return { promise, resolve };
    });
    stop.addEventListener("abort", () => {
      for (const turn of this.turnReached) turn.resolve();
    });
  }

  async batch(part: number, commits: CommitRecord[]): Promise<void> {
    if (this.stop.aborted) throw this.stop.reason;
    if (part === this.turn) return this.queue(commits);
    const waiting = this.waiting[part] as CommitRecord[][];
    waiting.push(commits);
    if (waiting.reduce((sum, batch) => sum + batch.length, 0) >= MAX_READ_AHEAD)
      await this.turnReached[part]?.promise;
  }

  /** The part has read all its commits: the parts after it that have ended too are written. */
  end(part: number): void {
    this.ended[part] = true;
    while (this.turn < this.parts && this.ended[this.turn]) {
      this.turn++;
      if (this.turn === this.parts) break;
      // Before any batch the part reads from now on.
      for (const batch of this.waiting[this.turn] ?? []) void this.queue(batch);
      this.waiting[this.turn] = [];
      this.turnReached[this.turn]?.resolve();
    }
  }

  /** Resolves once every batch queued is written; rejects with the first write that failed. */
  written(): Promise<void> {
    return this.chain;
  }

  private queue(commits: CommitRecord[]): Promise<void> {
    this.chain = this.chain.then(() => this.write(commits));
    // Awaited by the reader or by `written`; a failure is not also an unhandled rejection.
    this.chain.catch(() => {});
    return this.chain;
  }
}
