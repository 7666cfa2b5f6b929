/**
 * Names read from the source text around a position, not from tree-sitter:
 * a node's text (and its type) each cost a call into its WebAssembly.
 */

const SPACE = new Set([32, 9, 10, 13]);

/** Letters, digits, `_`, `$` and anything past ASCII. */
function isNameCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 36 ||
    code > 127
  );
}

/**
 * The end of the name starting at a position, read from the source: a node's
 * text (and its type) each cost a call into tree-sitter, which made names the
 * dearest part of the graph. Ruby's `empty?` and `save!` keep their mark
 * (elsewhere `a?.b` and `a!.b` are operators).
 */
export function nameEnd(source: string, start: number, marks: boolean): number {
  let end = start;
  while (end < source.length && isNameCode(source.charCodeAt(end))) end++;
  const mark = source.charCodeAt(end);
  if (marks && (mark === 63 || mark === 33) && end > start && source.charCodeAt(end + 1) !== 61)
    end++;
  return end;
}

/** `name (` and `name(`: the name is called (or constructed). */
export function isCalled(source: string, end: number): boolean {
  let i = end;
  while (i < source.length && (source.charCodeAt(i) === 32 || source.charCodeAt(i) === 9)) i++;
  return source.charCodeAt(i) === 40; // (
}

/** `.name`, `->name`, `::name`: a member of something else. */
export function isMember(source: string, start: number): boolean {
  let i = start - 1;
  while (i >= 0 && SPACE.has(source.charCodeAt(i))) i--;
  const code = source.charCodeAt(i);
  if (code === 46) return source.charCodeAt(i - 1) !== 46; // `.` but not a spread `...`
  if (code === 62) return source.charCodeAt(i - 1) === 45; // ->
  if (code === 58) return source.charCodeAt(i - 1) === 58; // ::
  return false;
}
