import type { LoadedGraph } from "../../core/graph.js";
import type { TextBackend, TextHit } from "../../core/text-backend.js";
import type { StoredChunk } from "../../core/types.js";
import type { FocusArea } from "../../graph/graph-seeds.js";

/** Keyword hits looked for inside the focus, beside the whole project's. */
const FOCUS_HITS = 20;
/**
 * A focus of more files than this (a large folder) is not searched apart: the
 * project-wide search already reaches into it, and a search restricted to
 * hundreds of paths costs more than it finds. Its hits still count as focused.
 */
const MAX_FOCUS_FILES = 64;

/** Whether a chunk lies in the focus: in a focused file, or over a focused definition's lines. */
export function inFocusTest(
  graph: LoadedGraph,
  area: FocusArea,
): ((chunk: StoredChunk) => boolean) | null {
  if (area.files.length === 0 && area.definitions.length === 0) return null;
  const files = new Set(area.files.map((file) => `${file.resourceId}\0${file.path}`));
  const spans = area.definitions.flatMap((id) => {
    const node = graph.nodes[id];
    const file = node ? graph.files[node.file] : undefined;
    return node && file ? [{ key: `${file.resourceId}\0${file.path}`, node }] : [];
  });
  return (chunk) => {
    const key = `${chunk.resourceId}\0${chunk.path}`;
    if (files.has(key)) return true;
    return spans.some(
      ({ key: at, node }) =>
        at === key && chunk.startLine <= node.endLine && chunk.endLine >= node.startLine,
    );
  };
}

/**
 * The task's best keyword hits inside the focus that the project-wide search
 * did not return: a focused file's matching code is often far down a search of
 * the whole project ("add a timeout option" matches every request helper), and
 * the user said this is where they work.
 */
export async function focusHits(
  text: TextBackend,
  graph: LoadedGraph,
  area: FocusArea,
  terms: readonly string[],
  found: readonly TextHit[],
  paths: readonly string[] | undefined,
): Promise<TextHit[]> {
  const inFocus = inFocusTest(graph, area);
  if (!inFocus || terms.length === 0) return [];
  const focusPaths = [
    ...new Set([
      ...area.files.map((file) => file.path),
      ...area.definitions.flatMap((id) => {
        const file = graph.files[graph.nodes[id]?.file ?? -1];
        return file ? [file.path] : [];
      }),
    ]),
  ].filter((path) => !paths || paths.some((prefix) => path.startsWith(prefix)));
  if (focusPaths.length === 0 || focusPaths.length > MAX_FOCUS_FILES) return [];
  const seen = new Set(found.map((hit) => hit.chunk.id));
  const hits = await text.searchText({ terms, limit: FOCUS_HITS, pathPrefixes: focusPaths });
  return hits.filter((hit) => !seen.has(hit.chunk.id) && inFocus(hit.chunk));
}
