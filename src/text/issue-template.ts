/**
 * An issue written in a repository's template carries the template's own
 * lines ("**Describe the bug**", "### Steps to reproduce", "- [X] I agree to
 * follow this project's Code of Conduct"). Those words are the same in every
 * issue and say nothing of the code: as search terms they pull the template
 * files and any code that says "context" or "behavior" ahead of what the
 * issue is about. The lines a task shares with the templates are left out of
 * what retrieval reads.
 */

/** A template line reduced to its words: markup, YAML form keys, emphasis and case gone. */
export function templateLine(line: string): string {
  return line
    .trim()
    .replace(/^(?:[#>*\-+\s]|\[[ xX]\])+/, "")
    .replace(/^(?:label|description|placeholder|value|title|name|about)\s*:\s*/i, "")
    .trim()
    .replace(/^["']+|["']+$/g, "")
    .replace(/[*_`]+/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/:+$/, "")
    .trim()
    .toLowerCase();
}

/** Shorter than this, a reduced line is a bracket or a fence, not a phrase of the template. */
const MIN_PHRASE = 3;

/** Every phrase of the templates' texts. */
export function templatePhrases(texts: readonly string[]): Set<string> {
  const phrases = new Set<string>();
  for (const text of texts) {
    for (const line of text.split("\n")) {
      const phrase = templateLine(line);
      if (phrase.length >= MIN_PHRASE) phrases.add(phrase);
    }
  }
  return phrases;
}

/**
 * The task without the lines it shares with the templates; the task itself
 * when that would leave nothing (a task that is only a template's words is
 * still what the user asked).
 */
export function withoutTemplateLines(task: string, phrases: ReadonlySet<string>): string {
  if (phrases.size === 0) return task;
  const lines = task.split("\n");
  const kept = lines.filter((line) => {
    const phrase = templateLine(line);
    return phrase.length < MIN_PHRASE || !phrases.has(phrase);
  });
  if (kept.length === lines.length || kept.join("").trim().length === 0) return task;
  return kept.join("\n");
}
