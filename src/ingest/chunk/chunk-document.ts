import { CtxError } from "../../core/errors.js";
import type { FileGraph } from "../../core/graph.js";
import type { TokenCounter } from "../../core/token-counter.js";
import type { ChunkDraft } from "../../core/types.js";
import { extractGraph } from "../../graph/extract-graph.js";
import type { PathAliases } from "../../languages/path-aliases.js";
import { GRAMMARS, languageOf, languageSupport } from "../../languages/registry.js";
import { isParserAbort, parseSource } from "../../parse/parse-source.js";
import { parserFor } from "../../parse/tree-sitter-loader.js";
import { type ChunkLimits, DEFAULT_CHUNK_LIMITS } from "./chunk-limits.js";
import { chunkSyntaxTree } from "./code-chunker.js";
import { chunkJson } from "./json-chunker.js";
import { LineText } from "./line-text.js";
import { chunkMarkdown } from "./markdown-chunker.js";
import { chunkSql } from "./sql-chunker.js";
import { TokenMeter } from "./token-meter.js";
import { chunkWindows } from "./window-chunker.js";

/**
 * Texts longer than this (characters) are not parsed: they are chunked in line
 * windows, with no code graph. tree-sitter's tree lives in WebAssembly memory,
 * which grows to some fifty times the text and is never given back to the
 * system: a 30 MB file took 1.7 GB, a 300 MB one ran it out of memory. Hand
 * written sources stay far below (the default size limit is 256 KB).
 */
export const MAX_PARSED_CHARS = 2 * 1024 * 1024;

/** Formats cut by their own text, without a grammar. */
const TEXT_CHUNKERS: Readonly<
  Record<
    string,
    {
      readonly chunk: typeof chunkMarkdown;
      readonly method: ChunkedDocument["method"];
    }
  >
> = {
  markdown: { chunk: chunkMarkdown, method: "markdown" },
  sql: { chunk: chunkSql, method: "statements" },
  json: { chunk: chunkJson, method: "keys" },
};

export interface ChunkedDocument {
  readonly language: string;
  readonly chunks: ChunkDraft[];
  /** How the chunks were cut: by syntax tree, by headings, statements or keys, or by line windows. */
  readonly method: "syntax" | "markdown" | "statements" | "keys" | "windows";
  /** Definitions, references and imports, read from the same syntax tree; null without one. */
  readonly graph: FileGraph | null;
}

/**
 * Chunks one document by what it is: source code at its definitions (tree-sitter),
 * Markdown at its headings, SQL at its statements, JSON at its keys; everything
 * else, and any code the parser cannot read, in overlapping line windows.
 */
export class DocumentChunker {
  private readonly meter: TokenMeter;

  constructor(
    private readonly limits: ChunkLimits = DEFAULT_CHUNK_LIMITS,
    counter: TokenCounter,
    /** Read the code graph from each syntax tree too (`[index] graph`). */
    private readonly graph = true,
    /** The root's tsconfig paths and baseUrl, for imports that name them. */
    private readonly aliases: PathAliases | null = null,
  ) {
    this.meter = new TokenMeter(counter, limits.maxTokens);
  }

  async chunk(relPath: string, content: string): Promise<ChunkedDocument> {
    const language = languageOf(relPath, content);
    if (content.trim().length === 0)
      return { language, chunks: [], method: "windows", graph: null };
    const text = new LineText(content, this.meter.lineCost);
    const byText = TEXT_CHUNKERS[language];
    if (byText) {
      const chunks = byText.chunk(text, this.limits, this.meter);
      return { language, chunks, method: byText.method, graph: null };
    }
    // A component's scripts are parsed in their own language, at the file's offsets.
    const embedded = languageSupport(language)?.embedded?.(content);
    const parsedAs = embedded?.language ?? language;
    const grammar = GRAMMARS[parsedAs];
    const parser = content.length <= MAX_PARSED_CHARS ? await parserFor(parsedAs) : null;
    if (grammar && parser) {
      const parsed = await this.parseAndChunk(
        parser,
        relPath,
        parsedAs,
        embedded?.source ?? content,
        text,
        grammar,
      );
      if (parsed) return { language, ...parsed, method: "syntax" };
    }
    return {
      language,
      chunks: chunkWindows(text, this.limits, this.meter),
      method: "windows",
      graph: null,
    };
  }

  private async parseAndChunk(
    parser: NonNullable<Awaited<ReturnType<typeof parserFor>>>,
    relPath: string,
    language: string,
    content: string,
    text: LineText,
    grammar: (typeof GRAMMARS)[string] & object,
  ): Promise<{ chunks: ChunkDraft[]; graph: FileGraph | null } | null> {
    let tree: ReturnType<typeof parser.parse> = null;
    try {
      tree = parseSource(parser, language, content);
      if (!tree) return null;
      const chunks = chunkSyntaxTree(tree.rootNode, text, grammar, this.limits, this.meter);
      const graph = this.graph
        ? extractGraph(tree.rootNode, language, relPath, content, this.aliases)
        : null;
      return { chunks, graph };
    } catch (error) {
      // The parser aborted (out of memory): it is unusable in this thread from now on.
      if (isParserAbort(error)) throw new ParserAbortedError(relPath, content.length);
      // A grammar that cannot read the file is no reason to lose it: use windows.
      return null;
    } finally {
      try {
        tree?.delete();
      } catch {
        // After an abort the tree is gone with the parser's memory.
      }
    }
  }
}

/**
 * The syntax parser gave up on a file: one line that names it, failing the run
 * rather than going on with a parser that can no longer be trusted.
 */
export class ParserAbortedError extends CtxError {
  constructor(relPath: string, chars: number) {
    super(
      "parser_aborted",
      `the syntax parser ran out of memory on ${relPath} (${chars} characters): add it to .ctxignore, or lower [hydration] max_file_bytes`,
    );
  }
}
