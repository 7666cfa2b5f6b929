import type { IndexRunReport } from "../engine/run-index.js";

function count(value: number): string {
  return value.toLocaleString("en-US");
}

function tokens(value: number): string {
  if (value >= 1_000_000) return `${(value / 1_000_000).toFixed(2)}M`;
  if (value >= 10_000) return `${Math.round(value / 1000)}k`;
  return count(value);
}

/** Which generator wrote contexts and why, then what the run did or would cost. */
export function formatContexts(contexts: IndexRunReport["contexts"]): string {
  const model = contexts.model ? ` (${contexts.model})` : "";
  const lines: string[] = [];
  if (contexts.estimate) {
    const e = contexts.estimate;
    lines.push(
      `Contexts (dry run, nothing sent): ${contexts.generator}${model} — ${contexts.reason}`,
    );
    lines.push(
      `  would send ${count(e.chunks)} chunks of ${count(e.documents)} documents in ${count(e.calls)} calls ` +
        `(${count(e.cached)} already cached, ${count(e.secret)} in secret files never sent)`,
    );
    lines.push(
      `  estimated tokens: input ${tokens(e.inputTokens)} (of which ${tokens(e.cacheableTokens)} cacheable document prefix), output ${tokens(e.outputTokens)}`,
    );
    lines.push(
      e.cost === null || !e.price
        ? `  estimated cost: unknown (no price known for ${contexts.model}; local models cost nothing)`
        : `  estimated cost: $${e.cost.toFixed(2)} at $${e.price.input}/M input, $${e.price.output}/M output, $${e.price.cacheRead}/M cache reads`,
    );
    return lines.join("\n");
  }
  const report = contexts.report;
  lines.push(`Contexts: ${contexts.generator}${model} — ${contexts.reason}`);
  if (!report || report.pending === 0) {
    lines.push("  every chunk's context is up to date");
    return lines.join("\n");
  }
  if (report.deferred) {
    lines.push(
      `  ${count(report.pending)} chunks need a context; another process is writing this index's contexts, so this run left them to it (structural until then)`,
    );
    if (report.generated + report.cached + report.failed === 0) return lines.join("\n");
  }
  if (contexts.generator === "structural" || contexts.generator === "none") {
    lines.push(`  ${count(report.pending)} chunks brought up to date`);
    return lines.join("\n");
  }
  lines.push(
    `  ${count(report.pending)} chunks needed a context: ${count(report.cached)} from cache, ${count(report.generated)} generated, ` +
      `${count(report.failed)} failed (kept structural, retried next run), ${count(report.secret)} in secret files (not sent)`,
  );
  const u = report.usage;
  lines.push(
    `  calls: ${count(u.calls)} (${count(u.batchCalls)} batch, ${count(u.singleCalls)} single; ${count(u.retries)} retries, ` +
      `${count(u.batchFallbacks)} batches answered one chunk at a time); tokens in ${tokens(u.inputTokens)}, out ${tokens(u.outputTokens)}; ` +
      `prompt cache read ${tokens(u.cacheReadTokens)}, written ${tokens(u.cacheWriteTokens)}`,
  );
  const failures = Object.entries(u.failuresByKind);
  if (failures.length > 0)
    lines.push(`  failed calls by kind: ${failures.map(([kind, n]) => `${kind} ${n}`).join(", ")}`);
  return lines.join("\n");
}

/** Which embedder ran, and how much of the index has vectors. */
export function formatEmbeddings(embeddings: IndexRunReport["embeddings"]): string {
  if (embeddings.embedder === "none") return `Embeddings: none — ${embeddings.reason}`;
  const report = embeddings.report;
  if (!report) return `Embeddings: ${embeddings.embedder} — ${embeddings.reason} (not run)`;
  const { embedded, total } = report.coverage;
  const line = `Embeddings: ${report.embedder} — ${embeddings.reason}; ${count(report.embedded)} texts embedded in ${(report.elapsedMs / 1000).toFixed(1)} s, ${count(embedded)} of ${count(total)} chunks have vectors`;
  if (report.deferred)
    return `${line}\n  another process is embedding this index, so this run left the rest to it`;
  return report.error
    ? `${line}\n  stopped early (run ctx index again to go on): ${report.error}`
    : line;
}
