import { describe, expect, it } from "vitest";
import { resolveStrategyConfig } from "../../src/config/strategy-config.js";
import { buildRegistry } from "../../src/strategies/build-registry.js";
import { DEFAULT_NAVIGATOR_SETTINGS } from "../../src/strategies/builtins/navigator-settings.js";
import { StrategyRegistry, StrategyRegistryError } from "../../src/strategies/registry.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";
import { testStrategy } from "../helpers/test-strategies.js";

const context = { counter: o200kCounter, projectRoot: "/tmp" };
const builtIns = { navigator: DEFAULT_NAVIGATOR_SETTINGS };

describe("StrategyRegistry", () => {
  it("refuses a strategy with no backend capability", () => {
    const registry = new StrategyRegistry();
    const strategy = testStrategy("nothing", async () => [], { capabilities: { usesText: false } });
    expect(() => registry.register(strategy)).toThrow(/"nothing" \(api\) declares no backend/);
  });

  it("refuses a strategy with no resource types", () => {
    const registry = new StrategyRegistry();
    const strategy = testStrategy("nowhere", async () => [], {
      capabilities: { resourceTypes: [] },
    });
    expect(() => registry.register(strategy)).toThrow(/declares no resource types/);
  });

  it("refuses a duplicate name and an object that is not a strategy", () => {
    const registry = new StrategyRegistry();
    registry.register(testStrategy("twin", async () => []));
    expect(() => registry.register(testStrategy("twin", async () => []))).toThrow(
      /already registered/,
    );
    expect(() => registry.register({ name: "half" } as never, "mine.js")).toThrow(
      /"half" \(mine\.js\) needs a `canHandle` method, a `assemble` method, a `explain` method, a `capabilities` object/,
    );
  });

  it("names the config file when an enabled strategy is not registered", async () => {
    const root = tempDir();
    writeFiles(root, {
      "ctx.toml": '[context.strategies]\nenabled = ["simple-keyword", "ghost"]\n',
    });
    const config = resolveStrategyConfig([
      {
        path: `${root}/ctx.toml`,
        config: { context: { strategies: { enabled: ["simple-keyword", "ghost"] } } },
      },
    ]);
    await expect(buildRegistry(config, context, builtIns)).rejects.toThrow(StrategyRegistryError);
    await expect(buildRegistry(config, context, builtIns)).rejects.toThrow(
      /ctx\.toml: enabled strategy "ghost" is not registered; registered: arce, breadth-depth-navigator, plan-decision-context, semantic-embedding, simple-keyword, temporal-archaeology/,
    );
  });
});

describe("custom strategies from config", () => {
  const strategyModule = (name: string, extra = "") => `
export class Mine {
  constructor(context) { this.counter = context.counter; }
  name = ${JSON.stringify(name)};
  capabilities = { usesText: true, usesVector: false, usesGraph: false, usesTemporal: false, resourceTypes: ["folder"], qualityScore: 0.4,
    supportsDepthBreadth: false, supportsPlanHierarchy: false, supportsTemporal: false };
  canHandle() { return 0.7; }
  async assemble() { return []; }
  explain() { return "mine"; }
}
${extra}`;

  function configFor(root: string, spec: string) {
    return resolveStrategyConfig([
      {
        path: `${root}/ctx.toml`,
        config: {
          context: { strategies: { enabled: ["my-strategy"], custom: { "my-strategy": spec } } },
        },
      },
    ]);
  }

  it("loads a class export relative to the config file and registers it", async () => {
    const root = tempDir();
    writeFiles(root, { "strategies/mine.js": strategyModule("my-strategy") });
    const registry = await buildRegistry(
      configFor(root, "./strategies/mine.js:Mine"),
      context,
      builtIns,
    );
    expect(registry.get("my-strategy")?.canHandle({ task: "x", budget: 10 }, {})).toBe(0.7);
    expect(registry.list().map((entry) => [entry.strategy.name, entry.origin])).toEqual([
      ["breadth-depth-navigator", "built-in"],
      ["my-strategy", `${root}/ctx.toml`],
      ["plan-decision-context", "built-in"],
      ["semantic-embedding", "built-in"],
      ["simple-keyword", "built-in"],
      ["temporal-archaeology", "built-in"],
    ]);
  });

  it("explains a missing module, a missing export and a name that does not match", async () => {
    const root = tempDir();
    writeFiles(root, { "strategies/mine.js": strategyModule("other-name") });
    await expect(
      buildRegistry(configFor(root, "./strategies/none.js:Mine"), context, builtIns),
    ).rejects.toThrow(/module not found: .*none\.js/);
    await expect(
      buildRegistry(configFor(root, "./strategies/mine.js:Nope"), context, builtIns),
    ).rejects.toThrow(/has no export "Nope" \(exports: Mine\)/);
    await expect(
      buildRegistry(configFor(root, "./strategies/mine.js:Mine"), context, builtIns),
    ).rejects.toThrow(/the strategy calls itself "other-name"; its name must be "my-strategy"/);
  });
});
