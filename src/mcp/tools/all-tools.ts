import { registerClosePlan } from "./close-plan.js";
import { registerCreatePlan } from "./create-plan.js";
import { registerExplain } from "./explain.js";
import { registerFindReferences } from "./find-references.js";
import { registerFindSymbol } from "./find-symbol.js";
import { registerGetContext } from "./get-context.js";
import { registerIndexStatus } from "./index-status.js";
import { registerListStrategies } from "./list-strategies.js";
import { registerReadFragment } from "./read-fragment.js";
import { registerRecordDecision } from "./record-decision.js";
import { registerRefreshIndex } from "./refresh-index.js";
import { registerRepoMap } from "./repo-map.js";
import { registerSearch } from "./search.js";
import { registerShowPlan } from "./show-plan.js";
import type { RegisterTool } from "./tool-context.js";

/**
 * Every tool the server offers, in the order `tools/list` gives them: the
 * context first, then search and the code graph, plans, reading, provenance
 * and the index itself. A new tool is one file in this folder and a line here.
 */
export const ALL_TOOLS: readonly RegisterTool[] = [
  registerGetContext,
  registerSearch,
  registerFindSymbol,
  registerFindReferences,
  registerRepoMap,
  registerCreatePlan,
  registerRecordDecision,
  registerClosePlan,
  registerShowPlan,
  registerReadFragment,
  registerExplain,
  registerIndexStatus,
  registerRefreshIndex,
  registerListStrategies,
];
