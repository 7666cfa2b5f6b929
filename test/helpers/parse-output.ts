import type { Code, Heading, Root } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { SaxesParser } from "saxes";

/** A fragment as a reader of the rendered output finds it: its one-line label and its content. */
export interface ParsedFragment {
  /** Markdown: the heading's source text after `## `; XML: the attributes; JSON: the path. */
  readonly label: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly content: string;
}

/**
 * The fragments a CommonMark parser finds in a markdown answer: each level-2
 * heading and the fenced code block after it. Throws when headings and code
 * blocks do not pair up, or anything else stands between them.
 */
export function markdownFragments(output: string): ParsedFragment[] {
  const tree: Root = fromMarkdown(output);
  const found: ParsedFragment[] = [];
  let heading: string | null = null;
  for (const node of tree.children) {
    if (node.type === "heading" && (node as Heading).depth === 2) {
      if (heading !== null) throw new Error(`heading without code: ${heading}`);
      const start = node.position?.start.offset ?? 0;
      const end = node.position?.end.offset ?? 0;
      // The heading as written (no markdown unescaping), without its `## `.
      heading = output.slice(start, end).replace(/^## /, "");
    } else if (node.type === "code") {
      if (heading === null) throw new Error("code block without a heading");
      found.push({ label: heading, attributes: {}, content: (node as Code).value });
      heading = null;
    } else if (node.type === "heading") {
      if ((node as Heading).depth !== 1 || found.length > 0 || heading !== null)
        throw new Error(`unexpected heading at ${node.position?.start.line}`);
    } else if (node.type !== "blockquote" && node.type !== "paragraph") {
      throw new Error(`unexpected ${node.type} at line ${node.position?.start.line}`);
    }
  }
  if (heading !== null) throw new Error(`heading without code: ${heading}`);
  return found;
}

/**
 * The fragments a strict XML parser (saxes: well-formedness and XML 1.0
 * characters) finds in an XML answer: each `<fragment>` child of `<context>`,
 * its attributes and its text (CDATA sections joined, the wrapping newlines
 * dropped). Throws on any error, or on an element inside a fragment.
 */
export function xmlFragments(output: string): ParsedFragment[] {
  const parser = new SaxesParser({ xmlns: false });
  const found: ParsedFragment[] = [];
  const path: string[] = [];
  let current: { attributes: Record<string, string>; text: string } | null = null;
  parser.on("error", (error) => {
    throw error;
  });
  parser.on("opentag", (tag) => {
    path.push(tag.name);
    if (tag.name === "fragment") {
      if (path.join("/") !== "context/fragment") throw new Error(`fragment at ${path.join("/")}`);
      current = { attributes: { ...(tag.attributes as Record<string, string>) }, text: "" };
    } else if (current !== null) {
      throw new Error(`element <${tag.name}> inside a fragment`);
    }
  });
  const addText = (text: string) => {
    if (current !== null) current.text += text;
  };
  parser.on("text", addText);
  parser.on("cdata", addText);
  parser.on("closetag", (tag) => {
    path.pop();
    if (tag.name === "fragment" && current !== null) {
      const { attributes, text } = current;
      if (!text.startsWith("\n") || !text.endsWith("\n"))
        throw new Error("fragment text not wrapped in newlines");
      found.push({ label: attributes.path ?? "", attributes, content: text.slice(1, -1) });
      current = null;
    }
  });
  parser.write(output).close();
  return found;
}

/** The fragments of a JSON answer, parsed by JSON.parse. */
export function jsonFragments(output: string): ParsedFragment[] {
  const parsed = JSON.parse(output) as { fragments: { path: string; content: string }[] };
  return parsed.fragments.map((fragment) => ({
    label: fragment.path,
    attributes: {},
    content: fragment.content,
  }));
}

/**
 * Reverses the visible escapes (`\n`, `\r`, `\t`, `\xhh`, `\uhhhh`, `\u{h…}`): right for text
 * that held no backslash of its own.
 */
export function unescapeVisible(text: string): string {
  return text.replace(
    /\\(?:([nrt])|x([0-9a-f]{2})|u\{([0-9a-f]+)\}|u([0-9a-f]{4}))/g,
    (_, named: string | undefined, byte, astral, bmp) => {
      if (named) return { n: "\n", r: "\r", t: "\t" }[named as "n" | "r" | "t"];
      const code = Number.parseInt((byte ?? astral ?? bmp) as string, 16);
      return astral ? String.fromCodePoint(code) : String.fromCharCode(code);
    },
  );
}

/**
 * Characters that must never reach a reader raw: C0 controls but tab and newline, DEL, C1
 * controls, line/paragraph separators, bidirectional controls.
 */
export const RAW_CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
