import type { Language } from "web-tree-sitter";
import type { GraphRules } from "../languages/language.js";
import { SearchedTypes } from "../parse/node-search.js";

/** The node types a graph reader searches for, and what each found one is, by type id. */

const MEMBER_NAMES = new Set(["property_identifier", "field_identifier"]);

export interface GraphTypes {
  readonly searched: SearchedTypes;
  /** By type id: NAME, TYPE_NAME, MEMBER_NAME; a number, not a set of type names, for every found node. */
  readonly flags: Uint8Array;
}

/** A name, as opposed to a definition, import or clause. */
export const NAME = 1;
/** A name that names a type (`type_identifier`). */
export const TYPE_NAME = 2;
/** A name after a dot (`property_identifier`, `field_identifier`). */
export const MEMBER_NAME = 4;

const typeLists = new Map<Language, GraphTypes>();

/** The reader's node types that this grammar has (the JavaScript grammar shares TypeScript's reader). */
export function typesOf(language: Language, spec: GraphRules): GraphTypes {
  let lists = typeLists.get(language);
  if (!lists) {
    const has = (type: string) => language.idForNodeType(type, true) !== null;
    // Top-level definitions are found from the root's children (see GraphRules.topLevel).
    const structure = new Set([
      ...Object.keys(spec.definitions).filter((type) => !spec.topLevel?.types.has(type)),
      ...spec.imports,
      ...spec.inherits,
      ...spec.typeContexts,
      ...spec.declarations,
      ...(spec.definingCalls?.types ?? []),
    ]);
    const names = [...spec.identifiers].filter(has);
    const searched = new SearchedTypes(language, [...[...structure].filter(has), ...names]);
    const flags = new Uint8Array(language.types.length);
    for (const id of searched.ids) {
      const type = searched.typeName(id);
      if (!spec.identifiers.has(type)) continue;
      flags[id] =
        NAME |
        (spec.typeIdentifiers.has(type) ? TYPE_NAME : 0) |
        (MEMBER_NAMES.has(type) ? MEMBER_NAME : 0);
    }
    lists = { searched, flags };
    typeLists.set(language, lists);
  }
  return lists;
}
