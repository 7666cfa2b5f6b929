import { createHash } from "node:crypto";

/** The text a chunk is embedded as: its context (when any), then its content. */
export function embedText(context: string | null, content: string): string {
  return context ? `${context}\n\n${content}` : content;
}

/** Names that text: vectors are keyed by it (and the embedder), so unchanged text is never embedded twice. */
export function embedHashOf(context: string | null, content: string): string {
  return createHash("sha1").update(embedText(context, content)).digest("hex");
}
