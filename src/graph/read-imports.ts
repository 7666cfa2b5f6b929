import type { Node } from "web-tree-sitter";

export interface ImportStatement {
  readonly specifier: string;
  readonly names: readonly string[];
  /** `export … from` passes the names on. */
  readonly reexport?: boolean;
}

/** The text of a string literal without its quotes. */
function unquote(text: string): string {
  return text.replace(/^[@]?["'`<]|["'`>]$/g, "");
}

function stringIn(node: Node | null): string | null {
  if (!node) return null;
  if (/string|interpreted_string_literal|system_lib_string/.test(node.type))
    return unquote(node.text);
  for (const child of node.namedChildren) {
    const found = stringIn(child);
    if (found !== null) return found;
  }
  return null;
}

function namesIn(node: Node | null, types: ReadonlySet<string>): string[] {
  if (!node) return [];
  const names: string[] = [];
  const walk = (current: Node) => {
    if (types.has(current.type)) names.push(current.text);
    for (const child of current.namedChildren) walk(child);
  };
  walk(node);
  return names;
}

const JS_NAMES = new Set(["identifier"]);

/**
 * What an import-like statement imports, or [] when the node is no import
 * (a call that is not `require`, an export without `from`).
 */
export function readImports(language: string, node: Node): ImportStatement[] {
  switch (language) {
    case "typescript":
    case "tsx":
    case "javascript":
      return jsImports(node);
    case "python":
      return pythonImports(node);
    case "go": {
      const path = stringIn(node.childForFieldName("path"));
      return path ? [{ specifier: path, names: [] }] : [];
    }
    case "rust":
      return rustImports(node);
    case "java": {
      const name = node.namedChildren.find((child) => /identifier/.test(child.type));
      if (!name) return [];
      const isStatic = node.children.some((child) => child.type === "static");
      const wildcard = node.namedChildren.some((child) => child.type === "asterisk");
      const specifier = `${isStatic ? "static " : ""}${name.text}${wildcard ? ".*" : ""}`;
      return [{ specifier, names: [name.text.split(".").pop() ?? ""] }];
    }
    case "c":
    case "cpp": {
      const path = stringIn(node.childForFieldName("path"));
      return path ? [{ specifier: path, names: [] }] : [];
    }
    case "csharp": {
      const name = node.namedChildren.find((child) => /name|identifier/.test(child.type));
      return name ? [{ specifier: name.text, names: [] }] : [];
    }
    case "ruby": {
      const method = node.childForFieldName("method")?.text;
      if (method !== "require" && method !== "require_relative") return [];
      const path = stringIn(node.childForFieldName("arguments"));
      if (!path) return [];
      const relative = method === "require_relative" && !path.startsWith(".");
      return [{ specifier: relative ? `./${path}` : path, names: [] }];
    }
    case "php":
      return phpImports(node);
    default:
      return [];
  }
}

function jsImports(node: Node): ImportStatement[] {
  if (node.type === "call_expression") {
    const callee = node.childForFieldName("function");
    if (callee?.text !== "require") return [];
    const argument = node.childForFieldName("arguments")?.namedChildren[0] ?? null;
    if (!argument || !/string|template_string/.test(argument.type)) return [];
    return [{ specifier: unquote(argument.text), names: [] }];
  }
  const source = node.childForFieldName("source");
  if (!source) return [];
  const clause =
    node.namedChildren.find(
      (child) => child.type === "import_clause" || child.type === "export_clause",
    ) ?? null;
  return [
    {
      specifier: unquote(source.text),
      names: namesIn(clause, JS_NAMES),
      reexport: node.type === "export_statement",
    },
  ];
}

function pythonImports(node: Node): ImportStatement[] {
  if (node.type === "import_statement") {
    return node.namedChildren
      .map((child) => (child.type === "aliased_import" ? child.childForFieldName("name") : child))
      .filter((child): child is Node => child?.type === "dotted_name")
      .map((child) => ({ specifier: child.text, names: [] }));
  }
  const module = node.childForFieldName("module_name");
  if (!module) return [];
  const names = node
    .childrenForFieldName("name")
    .map((child) =>
      child?.type === "aliased_import" ? child.childForFieldName("name")?.text : child?.text,
    )
    .filter((name): name is string => Boolean(name));
  return [{ specifier: module.text, names }];
}

function rustImports(node: Node): ImportStatement[] {
  if (node.type === "mod_item") {
    // `mod name;` names a file; `mod name { … }` is defined in place.
    if (node.childForFieldName("body")) return [];
    const name = node.childForFieldName("name")?.text;
    return name ? [{ specifier: `mod ${name}`, names: [] }] : [];
  }
  const argument = node.childForFieldName("argument");
  if (!argument) return [];
  const names = namesIn(argument, new Set(["identifier", "type_identifier"])).filter(
    (name) => !["crate", "super", "self"].includes(name),
  );
  return [{ specifier: argument.text, names: names.slice(-8) }];
}

function phpImports(node: Node): ImportStatement[] {
  if (node.type === "namespace_use_declaration") {
    return node.namedChildren
      .filter((child) => child.type === "namespace_use_clause")
      .map((clause) => {
        const name = clause.namedChildren.find((child) => /name/.test(child.type));
        return { specifier: name?.text ?? "", names: [name?.text.split("\\").pop() ?? ""] };
      })
      .filter((statement) => statement.specifier !== "");
  }
  const path = stringIn(node);
  return path ? [{ specifier: path, names: [] }] : [];
}
