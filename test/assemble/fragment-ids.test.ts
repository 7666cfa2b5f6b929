import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseFragmentId, withLines } from "../../src/core/fragment-id.js";
import { indexedEngine } from "../helpers/indexed-engine.js";
import { tempDir } from "../helpers/temp-dir.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/code", import.meta.url));
const indexed = (roots: readonly string[]) => indexedEngine(...roots);

function copyOfFixtures(): string {
  const root = tempDir("ctx-ids-");
  cpSync(FIXTURES, root, { recursive: true });
  return root;
}

describe("fragment ids", () => {
  it("give the same output from two fresh indexes of the same tree", async () => {
    const task = "retry attempts delay backoff";
    const outputs: string[] = [];
    for (const root of [copyOfFixtures(), copyOfFixtures()]) {
      const engine = await indexed([root]);
      outputs.push((await engine.query({ task, budget: 3000, format: "json" })).output);
    }
    expect(outputs[1]).toBe(outputs[0]);
    const ids = (JSON.parse(outputs[0] as string) as { fragments: { id: string }[] }).fragments;
    expect(ids.length).toBeGreaterThan(1);
    for (const { id } of ids) expect(parseFragmentId(id)?.resourceId).toBeNull();
  });

  it("name the root while the index has several, and read back in either form", async () => {
    const one = copyOfFixtures();
    const two = tempDir("ctx-ids-other-");
    mkdirSync(join(two, "src"));
    writeFileSync(
      join(two, "src", "ledger.ts"),
      "export function settleLedger(): number {\n  return 42;\n}\n",
    );
    const engine = await indexed([one, two]);
    const result = await engine.query({ task: "settleLedger", budget: 2000, format: "json" });
    const hit = result.fragments.find(
      (fragment) => fragment.source.kind === "file" && fragment.source.path === "src/ledger.ts",
    );
    expect(hit).toBeDefined();
    const parsed = parseFragmentId(hit?.id ?? "");
    const resources = await engine.store.documents.listResources();
    expect(parsed?.resourceId).toBe(resources.find((resource) => resource.root === two)?.id);
    expect((await engine.readFragment({ id: hit?.id ?? "" })).text).toContain("settleLedger");
    // Without its resource the id is read from the first root, which lacks the file.
    await expect(engine.readFragment({ id: `${parsed?.path}#L1-L3` })).rejects.toThrow(
      /ledger\.ts/,
    );
  });

  it("keep their form when only the lines change", () => {
    expect(withLines("src/a.ts#L3-L9", 4, 5)).toBe("src/a.ts#L4-L5");
    const full = "01J0000000000000000000000A:src/a#L.ts#L3-L9";
    expect(withLines(full, 1, 2)).toBe("01J0000000000000000000000A:src/a#L.ts#L1-L2");
    expect(parseFragmentId(full)).toEqual({
      resourceId: "01J0000000000000000000000A",
      path: "src/a#L.ts",
      startLine: 3,
      endLine: 9,
    });
    expect(parseFragmentId("src/a.ts")).toBeNull();
  });
});
