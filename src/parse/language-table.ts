import { LANGUAGES } from "../languages/registry.js";
import { grammarFailure, parserFor } from "./tree-sitter-loader.js";

/** What ctx does with one language's files: `ctx languages`. */
export interface LanguageRow {
  readonly name: string;
  readonly extensions: readonly string[];
  /** Whole file names read as it (`Rakefile`); absent when none. */
  readonly filenames?: readonly string[];
  /** The `#!` programs whose scripts without an extension are read as it; absent when none. */
  readonly interpreters?: readonly string[];
  /** The editor mode names (Emacs's `-*- mode -*-`, Vim's `ft=`) read as it there too; absent when none. */
  readonly editorModes?: readonly string[];
  /** `syntax`: cut at definitions (or keys, tables, rules); `windows`: line windows. */
  readonly chunking: "syntax" | "windows";
  /** Definitions, references and imports go into the code graph. */
  readonly graph: boolean;
  /** The languages its embedded code is read as (a component's scripts: `javascript/typescript`). */
  readonly embeds?: string;
  /** Whether its grammar loaded here; absent unless checked. */
  readonly grammarLoads?: boolean;
  /** Why the grammar did not load; its files are cut in line windows. */
  readonly grammarError?: string;
}

/** Every language with its chunking and graph; with `check`, each grammar is loaded to see that it works. */
export async function languageTable(check = false): Promise<LanguageRow[]> {
  const rows: LanguageRow[] = [];
  for (const language of LANGUAGES) {
    const host = language.embedded ? language.embedded("").language : null;
    // A component's scripts may be either language (`<script lang="ts">`).
    const hosts = language.embedded
      ? [...new Set([host, language.embedded('<script lang="ts"></script>').language])].join("/")
      : null;
    const reader = host ? LANGUAGES.find((other) => other.name === host) : language;
    const row: LanguageRow = {
      name: language.name,
      extensions: language.extensions,
      ...(language.filenames ? { filenames: language.filenames } : {}),
      ...(language.interpreters ? { interpreters: language.interpreters } : {}),
      ...(language.editorModes ? { editorModes: language.editorModes } : {}),
      chunking: reader?.grammar ? "syntax" : "windows",
      graph: Boolean(reader?.graph),
      ...(hosts ? { embeds: hosts } : {}),
    };
    if (!check || !reader?.grammar) {
      rows.push(row);
      continue;
    }
    const parser = await parserFor(reader.name);
    rows.push(
      parser
        ? { ...row, grammarLoads: true }
        : { ...row, grammarLoads: false, grammarError: grammarFailure(reader.name) ?? "unknown" },
    );
  }
  return rows;
}
