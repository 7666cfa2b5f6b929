import type { LanguageSupport } from "./language.js";
import { typescript } from "./typescript.js";

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const TYPESCRIPT = /\blang\s*=\s*["']?(?:ts|typescript)\b/i;

/**
 * A single-file component's scripts as the JavaScript or TypeScript they are,
 * at their own offsets: every character outside them a space (line breaks
 * kept), so the parse tree's lines and offsets are the file's own.
 */
export function componentScripts(content: string): { language: string; source: string } {
  const out = content.replace(/[^\n]/g, " ").split("");
  let typed = false;
  for (const match of content.matchAll(SCRIPT)) {
    const [, attributes = "", code = ""] = match;
    if (TYPESCRIPT.test(attributes)) typed = true;
    const start = match.index + match[0].indexOf(">") + 1;
    for (let i = 0; i < code.length; i++) out[start + i] = code[i] as string;
  }
  return { language: typed ? "typescript" : "javascript", source: out.join("") };
}

/** Vue and Svelte components: their scripts chunked and read as JavaScript or TypeScript, the rest as text. */
const component = {
  family: "javascript",
  embedded: componentScripts,
  importTargets: typescript.importTargets,
  importScoped: true,
} as const;

export const vue: LanguageSupport = { name: "vue", extensions: [".vue"], ...component };
export const svelte: LanguageSupport = { name: "svelte", extensions: [".svelte"], ...component };
