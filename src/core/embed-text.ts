import { createHash } from "node:crypto";

/** The text a chunk is embedded as: its context (when any), then its content. */
export function embedText(context: string | null, content: string): string {
  return context ? `${context}\n\n${content}` : content;
}

/** Names that text: vectors are keyed by it (and the embedder), so unchanged text is never embedded twice. */
export function embedHashOf(context: string | null, content: string): string {
  // The hash of embedText(context, content), without building that string.
  const hash = createHash("sha1");
  if (context) hash.update(context).update("\n\n");
  return hash.update(content).digest("hex");
}
