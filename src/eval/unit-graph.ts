import { guessLanguage } from "../contextualize/guess-language.js";
import type { FileGraph } from "../core/graph.js";
import { extractGraph } from "../graph/extract-graph.js";
import { parseSource } from "../parse/parse-source.js";
import { parserFor } from "../parse/tree-sitter-loader.js";

/**
 * The code graph of an evaluation file (a document's units joined, or one
 * unit), read as the chunker reads a project file's: units come without file
 * names, so the language is guessed from the text. Null for prose, or code no
 * grammar reads. With it, an evaluation ranks the way a project's index does
 * (definitions, their doc comments, uses between units).
 */
export async function unitGraph(id: string, text: string): Promise<FileGraph | null> {
  const guess = guessLanguage(text);
  const parser = guess ? await parserFor(guess.language) : null;
  if (!guess || !parser) return null;
  const tree = parseSource(parser, guess.language, text);
  if (!tree) return null;
  try {
    return extractGraph(tree.rootNode, guess.language, id, text);
  } catch {
    return null;
  } finally {
    tree.delete();
  }
}
