import { writeErr } from "./output.js";

/** One line on stderr per `--focus` entry that led nowhere, so a typo is not silently ignored. */
export function warnUnknownFocus(unknown: readonly string[], graphOn: boolean): void {
  if (unknown.length === 0) return;
  if (!graphOn) {
    writeErr(
      `ctx: --focus needs the code graph, which is off ([index] graph = false in ctx.toml); ${unknown.join(", ")} left out\n`,
    );
    return;
  }
  for (const entry of unknown) {
    writeErr(
      `ctx: --focus ${entry} names no file, folder or definition in the index; it was left out\n`,
    );
  }
}
