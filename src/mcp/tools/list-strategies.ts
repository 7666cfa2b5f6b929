import { json } from "../tool-result.js";
import type { ToolContext } from "./tool-context.js";

/** `list_strategies`: list retrieval strategies. */
export function registerListStrategies({ server, engine, guarded }: ToolContext): void {
  server.registerTool(
    "list_strategies",
    {
      title: "List retrieval strategies",
      description:
        "The retrieval strategies this project can use: name, quality, backends, whether enabled, circuit breaker state.",
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (_args, extra) =>
      guarded(async () => {
        const { enabled, source } = await engine.enabledStrategies();
        return json({
          enabledFrom: source,
          strategies: engine.registry.list().map(({ strategy, origin }) => ({
            name: strategy.name,
            quality: strategy.capabilities.qualityScore,
            enabled: enabled.includes(strategy.name),
            breaker: engine.pipeline.breakers.state(strategy.name),
            origin,
            description: strategy.explain(),
          })),
        });
      }, extra),
  );
}
