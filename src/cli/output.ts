import { jsonText, visibleText } from "../text/visible-text.js";

/**
 * The CLI's only writers to stdout and stderr. What a command prints holds file
 * names, symbols, file contents and commit text from a repository someone else
 * wrote: ESC, CSI and OSC sequences, CR, BEL or a bidirectional override there
 * would reach the terminal raw (recolour it, rewrite a line, set its title or
 * clipboard). Here every such character becomes a visible escape (`\x1b`,
 * `\r`, `\u202e`, see text/visible-text.ts); newlines and tabs stay.
 */
export function writeOut(text: string): void {
  process.stdout.write(visibleText(text));
}

export function writeErr(text: string): void {
  process.stderr.write(visibleText(text));
}

/** One JSON value on a line; its strings' hidden characters are JSON escapes, so it parses to the same value. */
export function writeJson(value: unknown): void {
  process.stdout.write(`${jsonText(value)}\n`);
}
