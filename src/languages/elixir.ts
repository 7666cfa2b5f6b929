import type { Node } from "web-tree-sitter";
import type { SymbolKind } from "../core/graph.js";
import { suffix } from "./import-paths.js";
import {
  type GrammarSpec,
  graphDefinitions,
  type LanguageSupport,
  typeSet,
  VENDORED,
} from "./language.js";

/** What each defining macro defines. */
const DEFINERS: Readonly<Record<string, SymbolKind>> = {
  defmodule: "module",
  defprotocol: "interface",
  defimpl: "impl",
  def: "function",
  defp: "function",
  defmacro: "function",
  defmacrop: "function",
  defguard: "function",
  defdelegate: "function",
};

/** The name a `def` head gives: `area` of `area(x)`, of `area(x) when x > 0`, of `area`. */
function headName(head: Node | undefined): string {
  let current = head;
  for (let depth = 0; current && depth < 3; depth++) {
    if (current.type === "identifier") return current.text;
    if (current.type === "call") current = current.childForFieldName("target") ?? undefined;
    else if (current.type === "binary_operator")
      current = current.childForFieldName("left") ?? undefined;
    else return "";
  }
  return "";
}

const grammar: GrammarSpec = {
  wasm: `${VENDORED}/tree-sitter-elixir.wasm`,
  // Every definition is a call of a defining macro (see classify).
  definitions: { call: "function" },
  containers: typeSet("call"),
  wrappers: typeSet(),
  classify: (node) => {
    const definer = node.childForFieldName("target");
    const kind = definer?.type === "identifier" ? DEFINERS[definer.text] : undefined;
    if (!kind) return null;
    const head = node.namedChildren.find((child) => child.type === "arguments")?.namedChildren[0];
    const name = kind === "function" ? headName(head) : (head?.text ?? "");
    return name ? { kind, name } : null;
  },
  bodyOf: (node) => node.namedChildren.find((child) => child.type === "do_block") ?? null,
};

/** `Shapes.Util` is defined in `shapes/util.ex` by convention. */
function modulePath(alias: string): string {
  return alias
    .split(".")
    .map((part) => part.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase())
    .join("/");
}

export const elixir: LanguageSupport = {
  name: "elixir",
  extensions: [".ex", ".exs"],
  interpreters: ["elixir"],
  grammar,
  graph: {
    definitions: graphDefinitions(grammar),
    identifiers: typeSet("identifier", "alias"),
    typeIdentifiers: typeSet(),
    inherits: typeSet(),
    inheritFields: {},
    typeContexts: typeSet(),
    imports: typeSet("call"),
    declarations: typeSet(),
  },
  readImports: (node) => {
    const target = node.childForFieldName("target")?.text;
    if (target !== "alias" && target !== "import" && target !== "require" && target !== "use")
      return [];
    const alias = node.namedChildren
      .find((child) => child.type === "arguments")
      ?.namedChildren.find((child) => child.type === "alias");
    return alias ? [{ specifier: alias.text, names: [alias.text.split(".").pop() ?? ""] }] : [];
  },
  importTargets: (_file, specifier) => [suffix(`${modulePath(specifier)}.ex`)],
  hashComments: true,
  nameMarks: true,
};
