import { setMaxListeners } from "node:events";
import { InterruptedError } from "../core/errors.js";

/** Shows the cursor again: a progress bar hides it while it draws. */
const SHOW_CURSOR = "\u001b[?25h";

/**
 * Runs `work` with a signal that Ctrl-C (SIGINT) or SIGTERM aborts: indexing
 * then stops between files, writes what it prepared, and the run ends with an
 * InterruptedError (exit code 130, or 143 for SIGTERM) instead of dying with the terminal's cursor
 * hidden. A second Ctrl-C exits at once.
 */
export async function interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  // Every request and git process of a run listens to it at once (embedding batches in
  // parallel pass ten): not a leak, and Node's warning would be a second line on stderr.
  setMaxListeners(0, controller.signal);
  const onSignal = (name: "SIGINT" | "SIGTERM"): void => {
    if (controller.signal.aborted) {
      if (process.stderr.isTTY) process.stderr.write(`${SHOW_CURSOR}\n`);
      process.exit(new InterruptedError(name).exitCode);
    }
    controller.abort(new InterruptedError(name));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    return await work(controller.signal);
  } catch (error) {
    // Whatever the stop broke on the way out, the stop is what to report.
    if (controller.signal.aborted) throw controller.signal.reason;
    throw error;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
