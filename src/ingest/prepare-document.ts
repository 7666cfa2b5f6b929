import { looksGenerated } from "../core/generated-code.js";
import type { FileGraph } from "../core/graph.js";
import type { ChunkToStore } from "../core/store.js";
import { findCertainSecret } from "../secrets/find-secrets.js";
import type { DocumentChunker } from "./chunk/chunk-document.js";
import { decodeText } from "./hydrate/decode-text.js";
import { readSource } from "./read-source.js";
import { withSearchText } from "./search-text.js";

export interface PrepareTask {
  readonly absPath: string;
  readonly relPath: string;
  /** Content hash of the stored version, if any: equal content is not re-chunked. */
  readonly previousHash: string | null;
  /** Keep the file out when its content holds a secret (`[index] include_secrets` off). */
  readonly skipSecrets: boolean;
}

export type PreparedDocument =
  | { readonly status: "unreadable" }
  | { readonly status: "binary"; readonly bytes: number }
  /** `found` says what and on which line, never the secret. */
  | { readonly status: "secret"; readonly bytes: number; readonly found: string }
  | { readonly status: "unchanged"; readonly bytes: number; readonly hash: string }
  | {
      readonly status: "chunked";
      readonly bytes: number;
      /** Bytes of it indexed: fewer than `bytes` for a file cut at read-source's bound. */
      readonly indexedBytes: number;
      readonly hash: string;
      readonly language: string;
      readonly chunks: ChunkToStore[];
      readonly graph: FileGraph | null;
      /** It says at its top that a tool wrote it (see looksGenerated). */
      readonly generated: boolean;
    };

/** Whether chunks get structural contexts ("structural") or none ("none", contexts turned off). */
export type InlineContexts = "structural" | "none";

/** Reads, classifies, hashes and chunks one file: the CPU-heavy part of indexing. */
export async function prepareDocument(
  task: PrepareTask,
  chunker: DocumentChunker,
  contexts: InlineContexts,
): Promise<PreparedDocument> {
  // Synchronous: the promise version costs four thread-pool round trips per file.
  const read = readSource(task.absPath);
  if (read === null) return { status: "unreadable" };
  const { size, hash } = read;
  // Not `read` past here: its bytes are let go once decoded.
  const indexedBytes = read.bytes.length;
  const decoded = decodeText(read.bytes);
  if ("binary" in decoded) return { status: "binary", bytes: size };
  if (hash === task.previousHash) return { status: "unchanged", bytes: size, hash };
  if (task.skipSecrets) {
    const secret = await findCertainSecret(decoded.text, task.relPath);
    if (secret) {
      const line = lineOf(decoded.text, secret.start);
      return { status: "secret", bytes: size, found: `${secret.kind} on line ${line}` };
    }
  }
  const chunked = await chunker.chunk(task.relPath, decoded.text);
  return {
    status: "chunked",
    bytes: size,
    indexedBytes,
    hash,
    language: chunked.language,
    chunks: withSearchText(
      { path: task.relPath, language: chunked.language, text: decoded.text, contexts },
      chunked.chunks,
    ),
    graph: chunked.graph,
    generated: looksGenerated(decoded.text),
  };
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf("\n"); at >= 0 && at < offset; at = text.indexOf("\n", at + 1)) line++;
  return line;
}
