/**
 * A task that asks how code came to be, in a question's own form: "why was
 * parseConfig changed", "when was the retry limit added?", "who removed the
 * cache", "what changed in the router", "which commit broke X", "history of
 * X". A commit message's "crash when the body was empty" or "change X to Y" is
 * not one: history is offered unasked only where asked in so many words.
 */
const HISTORY_ASKED = new RegExp(
  [
    String.raw`\bwhy\s+(was|were|is|are|did|does|do|has|have|had)\b[^?!\n]{0,160}?\b(chang\w*|add\w*|remov\w*|introduc\w*|made|written|wrote|deprecat\w*|renam\w*|mov\w*|switch\w*|revert\w*|dropp\w*|disabl\w*|enabl\w*|replac\w*|rewr\w*)`,
    String.raw`(^|[.?!:]\s+)(when|since when)\s+(was|were|did|has|had)\b`,
    String.raw`(^|[.?!:]\s+)who\s+(changed|wrote|added|introduced|removed|broke|made|touched|last)\b`,
    String.raw`\bwhat\s+(has\s+)?changed\b`,
    String.raw`\bwhich\s+(commit|change|pull request|pr)\b`,
    String.raw`\b(history|blame)\s+of\b`,
    String.raw`\bgit\s+(blame|log|history)\b`,
    String.raw`\blast\s+(changed|modified|touched)\b`,
  ].join("|"),
  "i",
);

/** Whether the task asks for the history of the code (see HISTORY_ASKED). */
export function asksForHistory(task: string): boolean {
  return HISTORY_ASKED.test(task);
}

/** Words of a question about how code began: "when was X added", "which commit introduced X". */
const ORIGIN_ASKED =
  /\b(added|introduced|created|written|wrote|first\s+(appeared|added|introduced|written|used)|did\s+(\w+\s+){0,3}(add|introduce|create|write))\b/i;

/**
 * Whether a question about history asks when or why the code was first
 * written. The names it asks about are not its words ("why was `created` changed").
 */
export function asksForOrigin(task: string, names: readonly string[] = []): boolean {
  if (!asksForHistory(task)) return false;
  let words = task;
  for (const name of names) words = words.split(name).join(" ");
  return ORIGIN_ASKED.test(words);
}
