import type Database from "better-sqlite3";
import type { GraphReference, ReferenceKind } from "../../core/graph.js";

/**
 * A document's references are stored as one row of text, one line per name
 * and kind (`<kind letter><name>\t<line>,<line>…`), and its names in a
 * full-text table (rowid = the document's id) that finds the documents using
 * a name: as separate rows, three.js's 80,000 references cost an index run
 * about half a second of inserts on the writing thread, one row per file a
 * tenth of that.
 */

const KIND_CODES: Readonly<Record<ReferenceKind, string>> = {
  call: "c",
  import: "i",
  type: "t",
  inherit: "h",
  use: "u",
};
const KINDS_BY_CODE: Readonly<Record<string, ReferenceKind>> = Object.fromEntries(
  Object.entries(KIND_CODES).map(([kind, code]) => [code, kind as ReferenceKind]),
);
/** A call made on something (`GraphReference.member`). */
const MEMBER_CALL_CODE = "m";

/** The SQL function the name table's terms are made with (the schema's migration calls it too). */
export const NAME_TERM_FUNCTION = "ctx_name_term";

/** Names the name table's tokenizer keeps whole (`_` and `$` are token characters there). */
const PLAIN_NAME = /^[A-Za-z0-9_$]+$/;

/**
 * The one full-text term a name is indexed and looked up by. Names of other
 * characters (`empty?`, non-ASCII letters) are spelled in hexadecimal, so that
 * no tokenizer rule can split one name into two terms. Terms fold case: a
 * look-up finds a superset, which `unpackReferences` narrows to the exact name.
 */
export function nameTerm(name: string): string {
  return PLAIN_NAME.test(name) ? name : `x${Buffer.from(name, "utf8").toString("hex")}`;
}

/** Lets a connection's SQL (the migration that built the name table) make terms as this module does. */
export function registerNameTerm(db: Database.Database): void {
  db.function(NAME_TERM_FUNCTION, { deterministic: true }, (name: unknown) =>
    nameTerm(String(name)),
  );
}

export function packReferences(references: readonly GraphReference[]): string {
  let packed = "";
  for (const reference of references) {
    if (packed !== "") packed += "\n";
    const code = reference.member ? MEMBER_CALL_CODE : KIND_CODES[reference.kind];
    packed += `${code}${reference.name}\t${reference.lines.join(",")}`;
  }
  return packed;
}

/** The distinct names of a document's references, as the name table's text. */
export function nameTerms(references: readonly GraphReference[]): string {
  return [...new Set(references.map((reference) => nameTerm(reference.name)))].join(" ");
}

/** A packed list's references, those `keep` accepts by name (all without it), in stored order. */
export function unpackReferences(
  packed: string,
  keep?: (name: string) => boolean,
): GraphReference[] {
  const references: GraphReference[] = [];
  if (packed === "") return references;
  let start = 0;
  while (start < packed.length) {
    let end = packed.indexOf("\n", start);
    if (end < 0) end = packed.length;
    const tab = packed.indexOf("\t", start);
    const name = packed.slice(start + 1, tab);
    if (!keep || keep(name)) {
      const code = packed[start] as string;
      const lines = packed
        .slice(tab + 1, end)
        .split(",")
        .map(Number);
      references.push(
        code === MEMBER_CALL_CODE
          ? { name, kind: "call", lines, member: true }
          : { name, kind: KINDS_BY_CODE[code] ?? "use", lines },
      );
    }
    start = end + 1;
  }
  return references;
}

/** A MATCH expression for documents using any of `names` (each name one quoted term). */
export function namesQuery(names: readonly string[]): string {
  return [...new Set(names.map(nameTerm))].map((term) => `"${term}"`).join(" OR ");
}
