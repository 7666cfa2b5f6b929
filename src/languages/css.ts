import { type LanguageSupport, typeSet, VSCODE } from "./language.js";

/** CSS: cut at its rules and at-rules. */
export const css: LanguageSupport = {
  name: "css",
  extensions: [".css"],
  grammar: {
    wasm: `${VSCODE}/tree-sitter-css.wasm`,
    definitions: {
      rule_set: "section",
      media_statement: "section",
      keyframes_statement: "section",
      supports_statement: "section",
      at_rule: "section",
    },
    containers: typeSet(),
    wrappers: typeSet(),
    classify: (node, kind) => {
      const head = node.text.slice(0, Math.max(0, node.text.indexOf("{"))).trim();
      return { kind, name: head.replace(/\s+/g, " ").slice(0, 120) };
    },
  },
};
