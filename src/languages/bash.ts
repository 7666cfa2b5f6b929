import { posix } from "node:path";
import { exact, stringIn, suffix } from "./import-paths.js";
import {
  type GrammarSpec,
  graphDefinitions,
  type LanguageSupport,
  typeSet,
  VSCODE,
} from "./language.js";

const grammar: GrammarSpec = {
  wasm: `${VSCODE}/tree-sitter-bash.wasm`,
  definitions: { function_definition: "function" },
  containers: typeSet(),
  wrappers: typeSet(),
};

export const bash: LanguageSupport = {
  name: "bash",
  extensions: [".sh", ".bash", ".zsh"],
  filenames: [".bashrc", ".bash_profile", ".zshrc", ".profile", "PKGBUILD"],
  interpreters: ["sh", "bash", "dash", "ash", "ksh", "zsh"],
  editorModes: ["sh", "shell-script", "bash", "zsh"],
  grammar,
  graph: {
    definitions: graphDefinitions(grammar),
    // A command's name is a use of the function it runs.
    identifiers: typeSet("command_name"),
    typeIdentifiers: typeSet(),
    inherits: typeSet(),
    inheritFields: {},
    typeContexts: typeSet(),
    imports: typeSet("command"),
    declarations: typeSet(),
  },
  readImports: (node) => {
    const command = node.childForFieldName("name")?.text;
    if (command !== "source" && command !== ".") return [];
    const argument = node.childForFieldName("argument");
    const path = argument?.type === "word" ? argument.text : stringIn(argument ?? null);
    return path ? [{ specifier: path, names: [] }] : [];
  },
  importTargets: (file, specifier) => {
    // `"$(dirname "$0")/env.sh"`: the file name is what can be found.
    const path = specifier.replace(/^.*[)}]\//, "").replace(/^\$\w+\//, "");
    if (path.includes("$")) return [];
    return [exact(posix.join(posix.dirname(file), path)), suffix(path.replace(/^(\.\.?\/)+/, ""))];
  },
  hashComments: true,
};
