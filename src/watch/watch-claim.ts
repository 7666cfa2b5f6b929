import { randomUUID } from "node:crypto";
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
  /** This claim's own mark: two watchers of one index (even in one process) tell theirs apart. */
  readonly id?: string;
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
/**
 * A settled claim not renewed for this long belongs to a watcher that stopped
 * or hangs, and no longer vouches for the index. A pending one is not renewed
 * while the watcher writes (a batch can hold its thread for seconds): it
 * counts while the watcher's process runs, for as long as the query waits.
 */
const EXPIRY_MS = 15_000;
/**
 * Longest a query waits, by default, for a live watcher to write what it has
 * seen. Its own refresh would wait for the watcher's lock anyway, and then list
 * every file; a change can take the watcher seconds in a tree of 200,000 files
 * (the code graph is built again whole).
 */
const SETTLE_WAIT_MS = 120_000;
/** After this long waiting, the caller is told (once) what it waits for. */
const SAY_WAITING_MS = 1000;
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
  private readonly id = randomUUID();

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
    // Another watcher of the same index may have written its claim since: that one stays.
    const current = await this.store.state.getMeta(CLAIM_KEY).catch(() => null);
    if (current === null || claimId(current) !== this.id) return;
    await this.store.state.setMeta(CLAIM_KEY, "").catch(() => undefined);
  }

  private mark(state: ClaimState): void {
    if (this.state === state) return;
    this.state = state;
    this.write();
  }

  private write(): void {
    if (this.stopped) return;
    const record: ClaimRecord = {
      id: this.id,
      pid: process.pid,
      host: hostname(),
      at: Date.now(),
      state: this.state,
    };
    this.writing = this.writing
      .then(() =>
        this.stopped ? undefined : this.store.state.setMeta(CLAIM_KEY, JSON.stringify(record)),
      )
      .catch(() => undefined);
  }
}

function claimId(text: string): string | undefined {
  try {
    return (JSON.parse(text) as Partial<ClaimRecord>).id;
  } catch {
    return undefined;
  }
}

/** The live claim of a watcher in another process on this machine, or null. */
async function liveClaim(store: Store): Promise<ClaimRecord | null> {
  const text = await store.state.getMeta(CLAIM_KEY);
  if (!text) return null;
  let record: ClaimRecord;
  try {
    record = JSON.parse(text) as ClaimRecord;
  } catch {
    return null;
  }
  if (typeof record.pid !== "number" || record.pid === process.pid) return null;
  if (record.host !== hostname()) return null;
  if (record.state === "settled" && Date.now() - record.at > EXPIRY_MS) return null;
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

/** What a running watcher says of the index: up to date, still writing a change, or nothing. */
export type WatcherWord =
  | { readonly kind: "fresh" | "writing"; readonly pid: number }
  | { readonly kind: "none" };

/**
 * Whether a running watcher keeps this index up to date, so a refresh is not
 * needed: waits, while the watcher stays alive and for `maxWaitMs` at most, for
 * it to write the changes it has seen (`onWait` is told once when that takes a
 * while). `none`: no live watcher vouches for the index; the caller refreshes.
 */
export async function watcherKeepsFresh(
  store: Store,
  {
    maxWaitMs = SETTLE_WAIT_MS,
    onWait = () => undefined,
  }: { readonly maxWaitMs?: number; readonly onWait?: (pid: number) => void } = {},
): Promise<WatcherWord> {
  const started = Date.now();
  let told = false;
  for (;;) {
    const claim = await liveClaim(store);
    if (claim === null || claim.state === "failed") return { kind: "none" };
    if (claim.state === "settled") return { kind: "fresh", pid: claim.pid };
    const waited = Date.now() - started;
    if (waited >= maxWaitMs) return { kind: "writing", pid: claim.pid };
    if (waited >= SAY_WAITING_MS && !told) {
      told = true;
      onWait(claim.pid);
    }
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
}
