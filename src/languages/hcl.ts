import { type LanguageSupport, typeSet, VENDORED } from "./language.js";

/** HCL and Terraform: cut at their blocks (`resource "aws_s3_bucket" "assets" { … }`). */
export const hcl: LanguageSupport = {
  name: "hcl",
  extensions: [".tf", ".tfvars", ".hcl"],
  grammar: {
    wasm: `${VENDORED}/tree-sitter-hcl.wasm`,
    definitions: { block: "section" },
    containers: typeSet(),
    wrappers: typeSet(),
    classify: (node, kind) => {
      const labels = node.namedChildren
        .filter((child) => child.type === "identifier" || child.type === "string_lit")
        .map((child) => child.text.replace(/^"|"$/g, ""));
      return { kind, name: labels.join(".") };
    },
    topLevel: (root) => root.namedChildren.find((child) => child.type === "body") ?? null,
  },
  hashComments: true,
};
