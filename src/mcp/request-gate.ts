import { ServerBusyError } from "../core/errors.js";

interface Waiter {
  readonly go: () => void;
}

/**
 * Turns for tool calls, shared by every session of a server: at most
 * `maxRunning` run at once, the next `maxWaiting` wait in arrival order, and
 * one more is refused at once with a ServerBusyError.
 *
 * A call starts only in a later turn of the event loop (setImmediate), after
 * every request already received has joined the line. Without that, a call
 * that needs no I/O (SQLite answers synchronously) runs to its end inside the
 * callback that read its request, and each round the sockets read first (the
 * lowest file descriptors) are served again while the others wait: under 32
 * clients the last ones' first answers came after 20 s. In turns, each call
 * waits only for those that arrived before it.
 */
export class RequestGate {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  private scheduled = false;

  constructor(
    private readonly limits: { readonly maxRunning: number; readonly maxWaiting: number },
  ) {}

  /** Runs `work` in its turn; a call whose `signal` aborts while it waits leaves the line. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.turn(signal);
    try {
      return await work();
    } finally {
      this.running--;
      this.schedule();
    }
  }

  /** Calls running and waiting now. */
  get load(): { readonly running: number; readonly waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private turn(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    // Those about to take a free turn are in the line too, until the next tick starts them.
    const free = Math.max(0, this.limits.maxRunning - this.running);
    if (this.waiting.length >= this.limits.maxWaiting + free)
      return Promise.reject(new ServerBusyError(this.running, this.waiting.length));
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        go: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(waiter);
      this.schedule();
    });
  }

  /** Starts waiting calls on free turns at the next turn of the event loop. */
  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0 || this.running >= this.limits.maxRunning)
      return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.running < this.limits.maxRunning) {
        const next = this.waiting.shift();
        if (!next) break;
        this.running++;
        next.go();
      }
    });
  }
}
