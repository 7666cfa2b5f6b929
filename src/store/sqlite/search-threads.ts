import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  MessageChannel,
  type MessagePort,
  receiveMessageOnPort,
  Worker,
} from "node:worker_threads";
import type Database from "better-sqlite3";
import {
  ANSWERED,
  mergeRanked,
  type RangeAnswer,
  type RangeRequest,
  type RangeSearch,
  type RankedRow,
  READY,
  type SearchThreadAnswer,
  type SearchThreadData,
  searchRange,
} from "./search-range.js";
import { cachedStatement } from "./statement-cache.js";

/** Chunks from which a search is split: below, one range takes a few milliseconds. */
export const DEFAULT_SPLIT_FROM_CHUNKS = 30_000;

/** A range's answer wait at most this long: a thread that takes longer is taken for dead. */
const ANSWER_TIMEOUT_MS = 10_000;

/**
 * One worker thread, asked through a channel of its own and waited for on a
 * shared flag rather than through this thread's event loop: a caller that
 * never yields to it (queries back to back, each resolved in microtasks)
 * is answered all the same, and sooner.
 */
class SearchThread {
  private failed = false;
  /** The id of the range last asked. */
  private asked = 0;

  private constructor(
    private readonly worker: Worker,
    private readonly port: MessagePort,
    private readonly flags: Int32Array,
    onFailure: () => void,
  ) {
    const fail = () => {
      this.failed = true;
      onFailure();
    };
    worker.on("error", fail);
    worker.on("exit", fail);
  }

  static start(script: string, file: string, onFailure: () => void): SearchThread {
    const channel = new MessageChannel();
    const flags = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
    const data: SearchThreadData = { file, port: channel.port2, flags };
    const worker = new Worker(script, { workerData: data, transferList: [channel.port2] });
    // Nothing here keeps a process alive: answers are waited for without the event loop.
    worker.unref();
    channel.port1.unref();
    return new SearchThread(worker, channel.port1, new Int32Array(flags), onFailure);
  }

  get ready(): boolean {
    return !this.failed && Atomics.load(this.flags, READY) === 1;
  }

  /** Sends the range to the thread; `answer` then waits for its rows. */
  ask(range: RangeSearch): void {
    // Ids count up from 1 (the flag starts at 0); an answer left unread by a search
    // that failed here is told apart from this one's and skipped.
    this.asked = (this.asked % 0x7fffffff) + 1;
    this.port.postMessage({ ...range, id: this.asked } satisfies RangeRequest);
  }

  /** The rows of the range last asked, or null when the thread failed or took too long. */
  answer(): RangeAnswer | null {
    const deadline = performance.now() + ANSWER_TIMEOUT_MS;
    for (;;) {
      if (this.failed) return null;
      const answered = Atomics.load(this.flags, ANSWERED);
      if (answered === this.asked) break;
      const left = deadline - performance.now();
      if (left <= 0 || Atomics.wait(this.flags, ANSWERED, answered, left) === "timed-out") {
        return null;
      }
    }
    for (;;) {
      const received = receiveMessageOnPort(this.port);
      if (!received) return null;
      const answer = received.message as SearchThreadAnswer;
      if (answer.id !== this.asked) continue;
      return "rows" in answer ? answer : null;
    }
  }

  stop(): Promise<number> {
    this.worker.removeAllListeners("exit");
    this.port.close();
    return this.worker.terminate();
  }
}

/**
 * A large index's keyword search split by chunk id across threads, each with
 * its own read-only connection, this thread taking the last range: the same
 * hits and scores as one search (see searchRange), in about the time of the
 * largest range. The threads start with the first large search, which runs
 * here alone; a thread that fails turns the splitting off for good and the
 * search runs here as before.
 */
export class SearchThreads {
  private threads: SearchThread[] = [];
  private state: "idle" | "starting" | "ready" | "off";
  /**
   * Each range's share of the id space, this thread's last. Chunk ids are not
   * equally costly to search (a package of long generated files beside one of
   * short ones), so the shares follow the time each range took.
   */
  private shares: number[] = [];

  constructor(
    private readonly file: string,
    private readonly count: number,
    private readonly splitFrom: number = DEFAULT_SPLIT_FROM_CHUNKS,
  ) {
    this.state = count > 1 && file !== ":memory:" ? "idle" : "off";
  }

  /** The search's best rows, or null when it is not split (a small index, no threads). */
  search(
    db: Database.Database,
    weights: readonly number[],
    match: string,
    limit: number,
  ): RankedRow[] | null {
    if (this.state === "off") return null;
    const top = maxChunkId(db);
    if (top < this.splitFrom) return null;
    if (this.state === "idle") this.start();
    if (this.state === "starting" && this.threads.every((thread) => thread.ready)) this.ready();
    if (this.state !== "ready") return null;
    const parts = this.threads.length + 1;
    const bounds = rangeBounds(this.shares, top + 1);
    const range = (part: number): RangeSearch => ({
      weights,
      match,
      from: bounds[part] as number,
      to: part === parts - 1 ? Number.MAX_SAFE_INTEGER : (bounds[part + 1] as number),
      limit,
    });
    for (const [part, thread] of this.threads.entries()) thread.ask(range(part));
    const started = performance.now();
    const here = searchRange(db, range(parts - 1));
    const hereMs = performance.now() - started;
    const ranked: RankedRow[][] = [];
    const times: number[] = [];
    for (const thread of this.threads) {
      const answer = thread.answer();
      if (!answer) {
        // Dead or stuck: this and every later search runs in this thread alone.
        void this.close();
        return null;
      }
      ranked.push(answer.rows);
      times.push(answer.ms);
    }
    ranked.push(here);
    times.push(hereMs);
    this.shares = rebalanced(this.shares, times);
    return mergeRanked(ranked, limit);
  }

  /**
   * Starts the threads now when the index is large enough to split its
   * searches (a server does, so its first query is split too); true once they
   * are ready, false when searches stay in this thread.
   */
  async prepare(db: Database.Database): Promise<boolean> {
    if (this.state === "idle" && maxChunkId(db) >= this.splitFrom) this.start();
    const deadline = Date.now() + ANSWER_TIMEOUT_MS;
    while (this.state === "starting" && Date.now() < deadline) {
      if (this.threads.every((thread) => thread.ready)) this.ready();
      else await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return this.state === "ready";
  }

  async close(): Promise<void> {
    const threads = this.threads;
    this.threads = [];
    this.state = "off";
    await Promise.all(threads.map((thread) => thread.stop()));
  }

  private start(): void {
    if (this.state !== "idle") return;
    const script = fileURLToPath(new URL("./search-thread.js", import.meta.url));
    // Run from TypeScript sources there is no built worker script: searches stay here.
    if (!import.meta.url.endsWith(".js") || !existsSync(script)) {
      this.state = "off";
      return;
    }
    this.state = "starting";
    const off = () => {
      if (this.state !== "off") void this.close();
    };
    for (let i = 1; i < this.count; i++) {
      this.threads.push(SearchThread.start(script, this.file, off));
    }
  }

  private ready(): void {
    this.shares = new Array<number>(this.count).fill(1 / this.count);
    this.state = "ready";
  }
}

/** The highest chunk id (-1 for none): the end of the id space a search is split over. */
function maxChunkId(db: Database.Database): number {
  const row = cachedStatement(db, "SELECT max(id) AS top FROM chunks").get() as {
    top: number | null;
  };
  return row.top ?? -1;
}

/** Where each range starts in [0, end): shares of the id space, in order. */
export function rangeBounds(shares: readonly number[], end: number): number[] {
  let at = 0;
  return shares.map((share) => {
    const from = Math.round(at * end);
    at += share;
    return from;
  });
}

/**
 * Shares moved a fifth of the way toward equal times: a range's cost per unit
 * of id space is taken as its time over its share, and the next shares are
 * inversely to that cost. No share falls under 2 %, so every range stays measured.
 */
export function rebalanced(shares: readonly number[], times: readonly number[]): number[] {
  const speed = shares.map((share, i) => share / Math.max(0.05, times[i] ?? 0));
  const total = speed.reduce((sum, value) => sum + value, 0);
  const moved = shares.map((share, i) => 0.8 * share + (0.2 * (speed[i] as number)) / total);
  const floored = moved.map((share) => Math.max(0.02, share));
  const sum = floored.reduce((a, b) => a + b, 0);
  return floored.map((share) => share / sum);
}
