import type { LlmFailureKind, LlmUsage } from "./llm/llm-client.js";

/** What a contextualization run spent, reported after the run. */
export interface UsageReport {
  readonly calls: number;
  readonly batchCalls: number;
  readonly singleCalls: number;
  readonly retries: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  /** Batches whose answer was not a JSON array of the right length (they fell back to single calls). */
  readonly batchFallbacks: number;
  readonly failuresByKind: Readonly<Partial<Record<LlmFailureKind, number>>>;
}

/** Counts model calls, tokens and failures as they happen. */
export class UsageMeter {
  private report = {
    calls: 0,
    batchCalls: 0,
    singleCalls: 0,
    retries: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    batchFallbacks: 0,
    failuresByKind: {} as Partial<Record<LlmFailureKind, number>>,
  };

  call(kind: "batch" | "single", usage: LlmUsage): void {
    const report = this.report;
    report.calls++;
    if (kind === "batch") report.batchCalls++;
    else report.singleCalls++;
    report.inputTokens += usage.inputTokens;
    report.outputTokens += usage.outputTokens;
    report.cacheReadTokens += usage.cacheReadTokens;
    report.cacheWriteTokens += usage.cacheWriteTokens;
  }

  retry(): void {
    this.report.retries++;
  }

  batchFallback(): void {
    this.report.batchFallbacks++;
  }

  failure(kind: LlmFailureKind): void {
    this.report.failuresByKind[kind] = (this.report.failuresByKind[kind] ?? 0) + 1;
  }

  snapshot(): UsageReport {
    return { ...this.report, failuresByKind: { ...this.report.failuresByKind } };
  }
}
