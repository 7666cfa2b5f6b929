import type { ContextFragment } from "../../src/core/fragment.js";
import {
  type ContextRequest,
  type ContextStrategy,
  DEFAULT_CAPABILITIES,
  type StrategyCapabilities,
  type TokenBudget,
} from "../../src/core/strategy.js";

const TEXT: StrategyCapabilities = {
  ...DEFAULT_CAPABILITIES,
  usesText: true,
  resourceTypes: ["folder", "git"],
  qualityScore: 0.5,
};

/** A strategy whose assemble is the given function: for tests of how the pipeline copes. */
export function testStrategy(
  name: string,
  assemble: (
    request: ContextRequest,
    budget: TokenBudget,
    signal?: AbortSignal,
  ) => Promise<unknown>,
  options: { confidence?: number; capabilities?: Partial<StrategyCapabilities> } = {},
): ContextStrategy {
  return {
    name,
    capabilities: { ...TEXT, ...options.capabilities },
    canHandle: () => options.confidence ?? 0.5,
    assemble: (request, _backends, budget, _plan, signal) =>
      assemble(request, budget, signal) as Promise<ContextFragment[]>,
    explain: () => `${name}: a test strategy`,
  };
}

/** Never answers and ignores its abort signal. */
export const hanging = (name = "hangs") => testStrategy(name, () => new Promise(() => undefined));

/** Throws on every call. */
export const throwing = (name = "throws") =>
  testStrategy(name, async () => {
    throw new Error("index exploded");
  });

/** Returns something that is not a list of fragments. */
export const garbage = (name = "garbage") => testStrategy(name, async () => ({ not: "an array" }));

/** A file fragment of `lines` lines of `word`. */
export function fileFragment(
  strategy: string,
  path: string,
  startLine: number,
  lines: number,
  score: number,
  word = "alpha",
): ContextFragment {
  const content = Array.from(
    { length: lines },
    (_, i) => `const ${word}${startLine + i} = ${i};`,
  ).join("\n");
  return {
    id: `r:${path}#L${startLine}-L${startLine + lines - 1}`,
    source: {
      kind: "file",
      resourceId: "r",
      path,
      startLine,
      endLine: startLine + lines - 1,
      language: "typescript",
    },
    content,
    tokens: 0,
    score,
    strategy,
    tier: "warm",
    nodeId: `r:${path}#${String(startLine).padStart(8, "0")}`,
    detailDepth: "full",
    symbol: "",
    chunkKind: "code",
    chunkIds: [],
  };
}

/** Returns fixed fragments, whatever the budget says. */
export const fixed = (name: string, fragments: readonly ContextFragment[], confidence = 0.5) =>
  testStrategy(name, async () => fragments.map((fragment) => ({ ...fragment, strategy: name })), {
    confidence,
  });
