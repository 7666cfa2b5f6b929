import { join } from "node:path";
import ignore from "ignore";
import { type FileRole, type FileRoles, fileRoleOf } from "../core/file-roles.js";
import { readRegularText, warnSkippedFile } from "../core/read-regular-file.js";
import type { Store } from "../core/store.js";
import { generatedPaths } from "../ingest/generated-files.js";

/** The attributes read, with the role each gives, the first winning where several apply. */
const MARKS: readonly (readonly [attribute: string, role: FileRole])[] = [
  ["linguist-generated", "generated"],
  ["linguist-vendored", "vendor"],
  ["linguist-documentation", "docs"],
];

/** A larger attributes file is not read (it is said once): no project writes one this long by hand. */
const MAX_ATTRIBUTES_BYTES = 256 * 1024;

/**
 * The most marking lines read (real projects write a handful): each path a
 * query ranks is matched against every one of them.
 */
const MAX_MARK_LINES = 500;

/** One line of the file: which paths it matches and what it says of each attribute read. */
interface MarkLine {
  readonly matches: (path: string) => boolean;
  readonly says: ReadonlyMap<string, boolean>;
}

/**
 * The roles of a project's files: what its path says, unless the file says at
 * its top that a tool wrote it (`generated`, found when it was indexed) or the
 * `.gitattributes` at a root marks it otherwise with the attributes GitHub's
 * language statistics read (`src/parser.c linguist-generated`,
 * `deps/** linguist-vendored`). Such files (a parser Bison wrote, a copied
 * library) share a task's words without being the code a task changes, and
 * their names rarely say so. A file that cannot be read marks nothing; paths
 * are relative to their root, and the marks of every root apply to all of them.
 */
export function projectFileRoles(
  roots: readonly string[],
  generated: ReadonlySet<string> = new Set(),
): FileRoles {
  const lines = roots.flatMap((root) => markLines(readAttributes(root) ?? ""));
  if (lines.length === 0 && generated.size === 0) return fileRoleOf;
  const known = new Map<string, FileRole>();
  return (path) => {
    let role = known.get(path);
    if (role === undefined) {
      const marked = markedRole(lines, path);
      role = typeof marked === "string" ? marked : fileRoleOf(path);
      // `deps/ours/** -linguist-vendored`: the project's word over what the path suggests.
      if (typeof marked === "object" && marked.denied.has(role)) role = "source";
      // A test or a doc that a tool wrote is still a test or a doc.
      if (role === "source" && generated.has(path)) role = "generated";
      known.set(path, role);
    }
    return role;
  };
}

/** The roles of the files of every resource the store holds (see projectFileRoles). */
export async function storedFileRoles(store: Store): Promise<FileRoles> {
  const resources = await store.documents.listResources();
  return projectFileRoles(
    resources.map((resource) => resource.root),
    await generatedPaths(
      store.state,
      resources.map((resource) => resource.id),
    ),
  );
}

/**
 * The role the lines mark the path with: for each attribute, the last line that
 * matches and speaks of it decides. Where none marks it, the roles they deny it
 * (`-linguist-vendored`), if any.
 */
function markedRole(
  lines: readonly MarkLine[],
  path: string,
): FileRole | { readonly denied: ReadonlySet<FileRole> } | undefined {
  const denied = new Set<FileRole>();
  for (const [attribute, role] of MARKS) {
    for (let index = lines.length - 1; index >= 0; index--) {
      const line = lines[index] as MarkLine;
      const said = line.says.get(attribute);
      if (said === undefined || !line.matches(path)) continue;
      if (said) return role;
      denied.add(role);
      break;
    }
  }
  return denied.size > 0 ? { denied } : undefined;
}

/**
 * The lines that speak of an attribute read, directly or through a macro
 * (`[attr]vendored linguist-vendored`). Patterns follow .gitignore's rules,
 * which .gitattributes shares (no negation); quoted patterns are skipped.
 */
function markLines(text: string): MarkLine[] {
  const macros = new Map<string, Map<string, boolean>>();
  const lines: MarkLine[] = [];
  for (const raw of text.split(/\r?\n/)) {
    if (lines.length >= MAX_MARK_LINES) break;
    const fields = raw.trim().split(/\s+/);
    const pattern = fields[0];
    if (!pattern || pattern.startsWith("#") || pattern.startsWith('"')) continue;
    const says = new Map<string, boolean>();
    for (const field of fields.slice(1)) {
      const macro = macros.get(field);
      if (macro) for (const [name, value] of macro) says.set(name, value);
      const [name, value] = attributeOf(field);
      if (MARKS.some(([attribute]) => attribute === name)) says.set(name, value);
    }
    if (pattern.startsWith("[attr]")) {
      macros.set(pattern.slice("[attr]".length), says);
      continue;
    }
    if (says.size === 0 || pattern.startsWith("!")) continue;
    const matcher = patternMatcher(pattern);
    if (matcher) lines.push({ matches: (path) => safeMatch(matcher, path), says });
  }
  return lines;
}

/** `name` and `name=true` set it; `-name`, `!name` (unspecified) and any other value do not. */
function attributeOf(field: string): [string, boolean] {
  if (field.startsWith("-") || field.startsWith("!")) return [field.slice(1), false];
  const equals = field.indexOf("=");
  if (equals < 0) return [field, true];
  return [field.slice(0, equals), field.slice(equals + 1).toLowerCase() === "true"];
}

/** The pattern's matcher; null for one `ignore` cannot read (a line that marks nothing). */
function patternMatcher(pattern: string): ReturnType<typeof ignore> | null {
  try {
    return ignore().add(pattern);
  } catch {
    return null;
  }
}

function safeMatch(matcher: ReturnType<typeof ignore>, path: string): boolean {
  try {
    return matcher.ignores(path);
  } catch {
    // A path `ignore` refuses (absolute, `../`) is one no pattern of the project marks.
    return false;
  }
}

/** The root's `.gitattributes` when it is a regular file of a bounded size inside the root; null otherwise (said once when it is not missing). */
function readAttributes(root: string): string | null {
  const path = join(root, ".gitattributes");
  const read = readRegularText(path, { maxBytes: MAX_ATTRIBUTES_BYTES, root });
  if (read.ok) return read.text;
  warnSkippedFile(path, read);
  return null;
}
