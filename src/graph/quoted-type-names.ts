/** A string literal on one line, and the names in one. */
const QUOTED = /(["'])([^"'\n]*)\1/g;
const TYPE_NAME_IN_TEXT = /(?<![A-Za-z0-9_])[A-Z][A-Za-z0-9_]*/g;

/**
 * `"Session"`, `Optional["models.Session"]`: the classes a type written as a
 * string uses, with the line each is on (`firstLine` is the text's). Only
 * capitalized names, as classes are named: `Literal["json"]`'s values and a
 * dotted path's module names are none.
 */
export function quotedTypeNames(
  text: string,
  firstLine: number,
): { readonly name: string; readonly line: number }[] {
  if (!text.includes('"') && !text.includes("'")) return [];
  const names: { name: string; line: number }[] = [];
  for (const quoted of text.matchAll(QUOTED)) {
    const line = firstLine + text.slice(0, quoted.index).split("\n").length - 1;
    for (const name of (quoted[2] ?? "").matchAll(TYPE_NAME_IN_TEXT))
      names.push({ name: name[0], line });
  }
  return names;
}
