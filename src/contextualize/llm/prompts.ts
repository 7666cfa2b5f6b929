/** Changes whenever the prompts or the output rules change: cached contexts are then regenerated. */
export const PROMPT_VERSION = "ctx-contextual-v1";

export const INSTRUCTIONS =
  "You write short contexts for chunks of a document, to improve search retrieval of each chunk. " +
  "A context situates a chunk within the overall document: what the document is, where the chunk " +
  "sits and what it does, naming its key identifiers. Answer with the contexts only.";

/** The document block, sent first so providers can cache it across a document's chunks. */
export function documentBlock(document: string): string {
  return `<document>\n${document}\n</document>`;
}

/** Asks for a JSON array of exactly `chunks.length` contexts. */
export function batchPrompt(chunks: readonly string[]): string {
  const numbered = chunks
    .map((chunk, index) => `<chunk index="${index + 1}">\n${chunk}\n</chunk>`)
    .join("\n");
  return (
    `Here are ${chunks.length} chunks of the document above, numbered.\n${numbered}\n` +
    "Give a short succinct context (one or two sentences) for each chunk to situate it within the overall " +
    "document for the purposes of improving search retrieval of the chunk.\n" +
    `Answer with a JSON array of exactly ${chunks.length} strings, the i-th being the context of chunk i, and nothing else.`
  );
}

/** Anthropic's contextual-retrieval prompt, for one chunk. */
export function singlePrompt(chunk: string): string {
  return (
    `Here is the chunk we want to situate within the whole document\n<chunk>\n${chunk}\n</chunk>\n` +
    "Please give a short succinct context to situate this chunk within the overall document for the " +
    "purposes of improving search retrieval of the chunk. Answer only with the succinct context and nothing else."
  );
}

/**
 * The contexts in a batch answer: a JSON array of exactly `expected` strings,
 * bare or in a ```json fence; null for anything else (the caller falls back
 * to one call per chunk).
 */
export function parseBatchAnswer(answer: string, expected: number): string[] | null {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(answer);
  const body = (fenced?.[1] ?? answer).trim();
  const start = body.indexOf("[");
  const end = body.lastIndexOf("]");
  if (start < 0 || end <= start) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.slice(start, end + 1));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== expected) return null;
  if (!parsed.every((item) => typeof item === "string" && item.trim().length > 0)) return null;
  return parsed.map((item: string) => item.trim());
}
