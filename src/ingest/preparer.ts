import type { PreparedDocument, PrepareTask } from "./prepare-document.js";

/** Runs `prepareDocument` somewhere: in this thread, or spread over worker threads. */
export interface DocumentPreparer {
  /** How many tasks are worth keeping in flight at once. */
  readonly parallelism: number;
  prepare(task: PrepareTask): Promise<PreparedDocument>;
  close(): Promise<void>;
}
