import type { ImportTarget } from "../core/graph.js";
import { bash } from "./bash.js";
import { c } from "./c.js";
import { svelte, vue } from "./components.js";
import { cpp } from "./cpp.js";
import { csharp } from "./csharp.js";
import { css } from "./css.js";
import { dart } from "./dart.js";
import { elixir } from "./elixir.js";
import { go } from "./go.js";
import { hcl } from "./hcl.js";
import { java } from "./java.js";
import { kotlin } from "./kotlin.js";
import type { GrammarSpec, GraphRules, LanguageSupport } from "./language.js";
import { lua } from "./lua.js";
import type { PathAliases } from "./path-aliases.js";
import { php } from "./php.js";
import { python } from "./python.js";
import { ruby } from "./ruby.js";
import { rust } from "./rust.js";
import { scala } from "./scala.js";
import { swift } from "./swift.js";
import { toml } from "./toml.js";
import { javascript, tsx, typescript } from "./typescript.js";
import { yaml } from "./yaml.js";
import { zig } from "./zig.js";

/** Every language ctx reads with a grammar: adding one is its file and a line here. */
export const LANGUAGES: readonly LanguageSupport[] = [
  typescript,
  tsx,
  javascript,
  python,
  go,
  rust,
  java,
  c,
  cpp,
  csharp,
  ruby,
  php,
  kotlin,
  swift,
  scala,
  dart,
  lua,
  elixir,
  bash,
  zig,
  vue,
  svelte,
  yaml,
  toml,
  hcl,
  css,
];

/**
 * Formats known by their extension only: stored under their name and cut by
 * headings (Markdown) or in line windows.
 */
const NAMED_FORMATS: Readonly<Record<string, string>> = {
  ".md": "markdown",
  ".mdx": "markdown",
  ".markdown": "markdown",
  ".json": "json",
  ".jsonc": "json",
  ".html": "html",
  ".htm": "html",
  ".scss": "scss",
  ".sql": "sql",
  ".xml": "xml",
  ".r": "r",
  ".glsl": "glsl",
  ".txt": "text",
};

const BY_NAME = new Map(LANGUAGES.map((language) => [language.name, language]));
const BY_EXTENSION = new Map<string, LanguageSupport>();
const BY_FILENAME = new Map<string, LanguageSupport>();
const BY_INTERPRETER = new Map<string, LanguageSupport>();
const BY_EDITOR_MODE = new Map<string, LanguageSupport>();
for (const language of LANGUAGES) {
  for (const extension of language.extensions) BY_EXTENSION.set(extension, language);
  for (const filename of language.filenames ?? []) BY_FILENAME.set(filename, language);
  for (const program of language.interpreters ?? []) BY_INTERPRETER.set(program, language);
  for (const mode of language.editorModes ?? []) BY_EDITOR_MODE.set(mode, language);
}

/** The family of languages whose definitions a file of this language may use by name. */
export function languageFamily(language: string): string {
  return BY_NAME.get(language)?.family ?? language;
}

/** The language's support, or undefined for formats without a grammar. */
export function languageSupport(name: string): LanguageSupport | undefined {
  return BY_NAME.get(name);
}

/** The language of a file, from its extension (and, where it is ambiguous, its text); "text" when unknown. */
export function languageOf(relPath: string, content?: string): string {
  const name = relPath.slice(relPath.lastIndexOf("/") + 1);
  const named = BY_FILENAME.get(name);
  if (named) return named.name;
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return (content !== undefined && scriptLanguage(content)) || "text";
  const extension = name.slice(dot).toLowerCase();
  const language = BY_EXTENSION.get(extension);
  if (!language) return NAMED_FORMATS[extension] ?? "text";
  return (content !== undefined && language.refine?.(content)) || language.name;
}

/**
 * The language a `#!` line runs a script in: `#!/bin/sh`, `#!/usr/bin/env -S
 * node --no-warnings`, `#!/usr/bin/python3.11 -u`; null for any other program.
 * Without such a line, the language its editor's mode line names, if any.
 */
function scriptLanguage(content: string): string | null {
  if (!content.startsWith("#!")) return modeLineLanguage(content);
  const end = content.indexOf("\n");
  const words = content
    .slice(2, end < 0 ? Math.min(content.length, 200) : end)
    .trim()
    .split(/\s+/);
  let program = baseName(words[0] ?? "");
  if (program === "env") {
    // env's own options and VAR=value settings come before the program.
    program = baseName(
      words.slice(1).find((word) => !word.startsWith("-") && !word.includes("=")) ?? "",
    );
  }
  return BY_INTERPRETER.get(program.replace(/[\d.]+$/, ""))?.name ?? null;
}

/**
 * The language an editor's mode line names: Emacs's on the first line
 * (`# bash completion for git  -*- shell-script -*-`, `-*- mode: python;
 * coding: utf-8 -*-`), Vim's in the first or last five lines (`# vim: set
 * ft=sh:`); null where there is none or it names no language ctx reads.
 */
function modeLineLanguage(content: string): string | null {
  const firstEnd = content.indexOf("\n");
  const first = content.slice(0, firstEnd < 0 ? Math.min(content.length, 400) : firstEnd);
  const emacs = /-\*-\s*(.*?)\s*-\*-/.exec(first)?.[1];
  if (emacs !== undefined) {
    const mode =
      /(?:^|;)\s*mode:\s*([\w+-]+)/i.exec(emacs)?.[1] ?? (emacs.includes(":") ? "" : emacs);
    const found = BY_EDITOR_MODE.get(mode.toLowerCase());
    if (found) return found.name;
  }
  const lines = content.split("\n", 6).concat(content.slice(-2000).split("\n").slice(-6));
  for (const line of lines) {
    const vim = /\b(?:vim?|ex):.*?\b(?:ft|filetype)=([\w+-]+)/.exec(line)?.[1];
    const found = vim ? BY_EDITOR_MODE.get(vim.toLowerCase()) : undefined;
    if (found) return found.name;
  }
  return null;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function byName<T>(pick: (language: LanguageSupport) => T | undefined): Record<string, T> {
  const found: Record<string, T> = {};
  for (const language of LANGUAGES) {
    const value = pick(language);
    if (value !== undefined) found[language.name] = value;
  }
  return found;
}

/** Grammars by language name. */
export const GRAMMARS: Readonly<Record<string, GrammarSpec>> = byName((l) => l.grammar);

/** Graph readers by language name. */
export const GRAPH_LANGUAGES: Readonly<Record<string, GraphRules>> = byName((l) => l.graph);

/**
 * Languages whose files see another file's names only through an import that
 * names the file: a use elsewhere is some other thing of the same name.
 */
export const IMPORT_SCOPED_LANGUAGES: ReadonlySet<string> = new Set(
  LANGUAGES.filter((language) => language.importScoped).map((language) => language.name),
);

/** The files an import in `file` may name, most likely first; [] in a language without import rules. */
export function importTargets(
  language: string,
  file: string,
  specifier: string,
  names: readonly string[],
  aliases: PathAliases | null = null,
): ImportTarget[] {
  return languageSupport(language)?.importTargets?.(file, specifier, names, aliases) ?? [];
}
