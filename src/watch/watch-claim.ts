import { hostname } from "node:os";
import type { Store } from "../core/store.js";

/**
 * A running watcher's word, kept in the index, that it keeps the index up to
 * date: which process, when it last said so, and whether every change it has
 * seen is written. A query in another process that finds a live claim skips
 * its own refresh, which lists and checks every file (seconds at 200,000
 * files): the watcher already knows what changed.
 */
interface ClaimRecord {
  readonly pid: number;
  readonly host: string;
  /** When the watcher last renewed the claim (ms since the epoch). */
  readonly at: number;
  /**
   * `settled`: every change the watcher has seen is in the index; `pending`:
   * some are being written; `failed`: its last write failed, so queries refresh.
   */
  readonly state: ClaimState;
}

type ClaimState = "settled" | "pending" | "failed";

const CLAIM_KEY = "watcher";
/** How often a watcher renews its claim. */
const RENEW_MS = 5000;
/** A claim not renewed for this long belongs to a watcher that stopped or hangs. */
const EXPIRY_MS = 15_000;
/** Longest a query waits for a watcher to write what it has seen before refreshing itself. */
const SETTLE_WAIT_MS = 5000;
const SETTLE_POLL_MS = 50;

/**
 * The claim a watcher holds while it listens for file events (never while it
 * polls: a poll only finds changes now and then). Writes are serialised, and
 * a failed write only means queries refresh themselves.
 */
export class WatchClaim {
  private state: ClaimState = "pending";
  private writing: Promise<void> = Promise.resolve();
  private readonly renewal: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly store: Store) {
    this.renewal = setInterval(() => this.write(), RENEW_MS);
    this.renewal.unref();
  }

  /** Every change seen is written (or none is waiting). */
  markSettled(): void {
    this.mark("settled");
  }

  /** A change was seen and is not yet written: queries wait for it. */
  markPending(): void {
    if (this.state === "settled") this.mark("pending");
  }

  /** Writing a change failed: until a write succeeds, queries refresh for themselves. */
  markFailed(): void {
    this.mark("failed");
  }

  /** Resolves once what was marked is written. */
  written(): Promise<void> {
    return this.writing;
  }

  /** Gives the claim up (the watcher stops, or falls back to polling). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.renewal);
    await this.writing;
    await this.store.setMeta(CLAIM_KEY, "").catch(() => undefined);
  }

  private mark(state: ClaimState): void {
    if (this.state === state) return;
    this.state = state;
    this.write();
  }

  private write(): void {
    if (this.stopped) return;
    const record: ClaimRecord = {
      pid: process.pid,
      host: hostname(),
      at: Date.now(),
      state: this.state,
    };
    this.writing = this.writing
      .then(() =>
        this.stopped ? undefined : this.store.setMeta(CLAIM_KEY, JSON.stringify(record)),
      )
      .catch(() => undefined);
  }
}

/** The live claim of a watcher in another process on this machine, or null. */
async function liveClaim(store: Store): Promise<ClaimRecord | null> {
  const text = await store.getMeta(CLAIM_KEY);
  if (!text) return null;
  let record: ClaimRecord;
  try {
    record = JSON.parse(text) as ClaimRecord;
  } catch {
    return null;
  }
  if (typeof record.pid !== "number" || record.pid === process.pid) return null;
  if (record.host !== hostname() || Date.now() - record.at > EXPIRY_MS) return null;
  return isRunning(record.pid) ? record : null;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether a running watcher keeps this index up to date, so a refresh is not
 * needed: waits (a few seconds at most) for it to write the changes it has
 * seen. Returns the watcher's pid, or null when the caller must refresh.
 */
export async function watcherKeepsFresh(store: Store): Promise<number | null> {
  const deadline = Date.now() + SETTLE_WAIT_MS;
  for (;;) {
    const claim = await liveClaim(store);
    if (claim === null || claim.state === "failed") return null;
    if (claim.state === "settled") return claim.pid;
    if (Date.now() >= deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
}
