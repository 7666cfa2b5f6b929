import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { CtxError } from "../core/errors.js";
import type { PathAliases } from "../languages/path-aliases.js";
import type { ChunkLimits } from "./chunk/chunk-limits.js";
import type { InlineContexts, PreparedDocument, PrepareTask } from "./prepare-document.js";
import type { DocumentPreparer } from "./preparer.js";

export interface WorkerConfig {
  readonly limits: ChunkLimits;
  readonly counter: string;
  readonly contexts: InlineContexts;
  readonly graph: boolean;
  readonly aliases: PathAliases | null;
}

export interface WorkerRequest {
  readonly id: number;
  readonly task: PrepareTask;
}

export type WorkerReply =
  | { readonly id: number; readonly result: PreparedDocument }
  | { readonly id: number; readonly error: string };

interface Pending {
  readonly resolve: (result: PreparedDocument) => void;
  readonly reject: (error: Error) => void;
  /** The worker it was handed to; null while it waits for room. */
  worker: Worker | null;
  readonly path: string;
}

/** Tasks kept queued per worker, so a worker never waits for the main thread. */
const QUEUE_PER_WORKER = 16;

/**
 * Tasks a caller may keep waiting per worker. Results are written in file order,
 * so a large file at the head holds back the writing, not the other workers:
 * they go on with the files behind it while this many wait.
 */
const AHEAD_PER_WORKER = 128;

/**
 * Spreads document preparation (parsing, chunking, tokenizing) over worker
 * threads, so indexing uses every core while the main thread writes the store.
 */
export class WorkerPreparer implements DocumentPreparer {
  readonly parallelism: number;
  private readonly workers: Worker[];
  private readonly load = new Map<Worker, number>();
  private readonly pending = new Map<number, Pending>();
  private readonly waiting: { readonly id: number; readonly task: PrepareTask }[] = [];
  private nextId = 0;
  private closed = false;

  private constructor(script: string, count: number, config: WorkerConfig) {
    this.parallelism = count * AHEAD_PER_WORKER;
    this.workers = Array.from({ length: count }, () => {
      const worker = new Worker(script, { workerData: config });
      this.load.set(worker, 0);
      worker.on("message", (reply: WorkerReply) => this.settle(reply));
      worker.on("error", (error) => this.failWorker(worker, error));
      // A worker that ends without an error (its code called exit) would leave its tasks
      // unanswered: the run would end as if done, with exit code 0.
      worker.on("exit", (code) => {
        if (!this.closed) this.failWorker(worker, new Error(`it exited (code ${code})`));
      });
      return worker;
    });
  }

  /**
   * A pool of `count` workers (default: one per core, at most 4), or null where the
   * worker script is not built JavaScript (running from TypeScript sources).
   */
  static create(config: WorkerConfig, count = defaultWorkerCount()): WorkerPreparer | null {
    const script = fileURLToPath(new URL("./prepare-worker.js", import.meta.url));
    if (!import.meta.url.endsWith(".js") || !existsSync(script) || count < 1) return null;
    return new WorkerPreparer(script, count, config);
  }

  prepare(task: PrepareTask): Promise<PreparedDocument> {
    if (this.workers.length === 0) {
      return Promise.reject(
        new CtxError(
          "index_worker",
          `indexing ${task.relPath}: every indexing worker stopped (set [index] workers = 0 in ctx.toml to index in one thread)`,
        ),
      );
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, worker: null, path: task.relPath });
      this.waiting.push({ id, task });
      this.dispatch();
    });
  }

  /** Hands waiting tasks, in order, to workers with room in their queue. */
  private dispatch(): void {
    while (this.waiting.length > 0) {
      const worker = this.leastLoaded();
      const load = this.load.get(worker) ?? 0;
      if (load >= QUEUE_PER_WORKER) return;
      const { id, task } = this.waiting.shift() as { id: number; task: PrepareTask };
      const pending = this.pending.get(id);
      if (!pending) continue;
      pending.worker = worker;
      this.load.set(worker, load + 1);
      worker.postMessage({ id, task } satisfies WorkerRequest);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }

  private leastLoaded(): Worker {
    let best = this.workers[0] as Worker;
    for (const worker of this.workers) {
      if ((this.load.get(worker) ?? 0) < (this.load.get(best) ?? 0)) best = worker;
    }
    return best;
  }

  private settle(reply: WorkerReply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if (pending.worker) this.load.set(pending.worker, (this.load.get(pending.worker) ?? 1) - 1);
    this.dispatch();
    if ("error" in reply) {
      pending.reject(
        new CtxError("index_worker", `indexing ${pending.path} failed: ${reply.error}`),
      );
    } else {
      pending.resolve(reply.result);
    }
  }

  private failWorker(worker: Worker, error: Error): void {
    const index = this.workers.indexOf(worker);
    if (index >= 0) this.workers.splice(index, 1);
    for (const [id, pending] of this.pending) {
      // Its own tasks fail; waiting ones go to the workers left, if any.
      if (pending.worker !== worker && (pending.worker !== null || this.workers.length > 0))
        continue;
      this.pending.delete(id);
      pending.reject(
        new CtxError(
          "index_worker",
          `indexing ${pending.path} stopped a worker: ${error.message} (set [index] workers = 0 in ctx.toml to index in one thread)`,
          {
            cause: error,
          },
        ),
      );
    }
    if (this.workers.length === 0) this.waiting.length = 0;
  }
}

function defaultWorkerCount(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}
