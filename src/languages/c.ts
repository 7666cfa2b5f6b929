import { posix } from "node:path";
import { exact, stringIn, suffix } from "./import-paths.js";
import {
  type GrammarSpec,
  type GraphRules,
  graphDefinitions,
  type LanguageSupport,
  REPOMIX,
  typeSet,
} from "./language.js";

const grammar: GrammarSpec = {
  wasm: `${REPOMIX}/tree-sitter-c.wasm`,
  definitions: {
    function_definition: "function",
    struct_specifier: "type",
    union_specifier: "type",
    enum_specifier: "enum",
    type_definition: "type",
  },
  containers: typeSet(),
  wrappers: typeSet(),
};

/** C's graph rules, which C++ extends. */
export const C_GRAPH: GraphRules = {
  definitions: graphDefinitions(grammar, {
    preproc_function_def: "function",
    preproc_def: "constant",
  }),
  identifiers: typeSet("identifier", "type_identifier", "field_identifier"),
  typeIdentifiers: typeSet("type_identifier"),
  inherits: typeSet(),
  inheritFields: {},
  typeContexts: typeSet(),
  imports: typeSet("preproc_include"),
  declarations: typeSet("declaration", "field_declaration"),
};

/** `#include "x.h"` and `#include <x.h>`. */
export const cIncludes: Pick<LanguageSupport, "readImports" | "importTargets"> = {
  readImports: (node) => {
    const path = stringIn(node.childForFieldName("path"));
    return path ? [{ specifier: path, names: [] }] : [];
  },
  importTargets: (file, specifier) => [
    exact(posix.join(posix.dirname(file), specifier)),
    suffix(specifier.replace(/^(\.\.?\/)+/, "")),
  ],
};

/**
 * What only C++ writes at the start of a line (a class, namespace or template, an
 * access label) or anywhere (`std::`, a standard header without `.h`).
 */
const CPP_HEADER =
  /^[ \t]*(?:class[ \t]+\w+[^;\n]*(?:\{|$)|namespace\b|template[ \t]*<|(?:public|private|protected)[ \t]*:)|\bstd::|^[ \t]*#[ \t]*include[ \t]*<[a-z_]+>/m;

export const c: LanguageSupport = {
  name: "c",
  family: "c",
  extensions: [".c", ".h"],
  grammar,
  graph: C_GRAPH,
  ...cIncludes,
  // `.h` is C's and C++'s header: read as C, a C++ class is a syntax error and its methods go unseen.
  refine: (content) => (CPP_HEADER.test(content) ? "cpp" : null),
};
