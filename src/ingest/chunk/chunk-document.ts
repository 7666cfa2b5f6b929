import type { FileGraph } from "../../core/graph.js";
import type { TokenCounter } from "../../core/token-counter.js";
import type { ChunkDraft } from "../../core/types.js";
import { extractGraph } from "../../graph/extract-graph.js";
import type { PathAliases } from "../../graph/path-aliases.js";
import { chunkSyntaxTree } from "./code-chunker.js";
import { type ChunkLimits, DEFAULT_CHUNK_LIMITS } from "./draft-builder.js";
import { GRAMMARS, languageOf } from "./languages.js";
import { LineText } from "./line-text.js";
import { chunkMarkdown } from "./markdown-chunker.js";
import { parseSource } from "./parse-source.js";
import { TokenMeter } from "./token-meter.js";
import { parserFor } from "./tree-sitter-loader.js";
import { chunkWindows } from "./window-chunker.js";

export interface ChunkedDocument {
  readonly language: string;
  readonly chunks: ChunkDraft[];
  /** How the chunks were cut: by syntax tree, by headings, or by line windows. */
  readonly method: "syntax" | "markdown" | "windows";
  /** Definitions, references and imports, read from the same syntax tree; null without one. */
  readonly graph: FileGraph | null;
}

/**
 * Chunks one document by what it is: source code at its definitions (tree-sitter),
 * Markdown at its headings, everything else, and any code the parser cannot
 * read, in overlapping line windows.
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
    this.meter = new TokenMeter(counter);
  }

  async chunk(relPath: string, content: string): Promise<ChunkedDocument> {
    const language = languageOf(relPath, content);
    if (content.trim().length === 0)
      return { language, chunks: [], method: "windows", graph: null };
    const text = new LineText(content, this.meter.lineCost);
    if (language === "markdown") {
      return {
        language,
        chunks: chunkMarkdown(text, this.limits, this.meter),
        method: "markdown",
        graph: null,
      };
    }
    const grammar = GRAMMARS[language];
    const parser = parserFor(language);
    if (grammar && parser) {
      const parsed = await this.parseAndChunk(
        await parser,
        relPath,
        language,
        content,
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
    parser: Awaited<NonNullable<ReturnType<typeof parserFor>>>,
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
    } catch {
      // A grammar that cannot read the file is no reason to lose it: use windows.
      return null;
    } finally {
      tree?.delete();
    }
  }
}
