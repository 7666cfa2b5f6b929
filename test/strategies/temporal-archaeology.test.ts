import { describe, expect, it } from "vitest";
import type { ContextFragment } from "../../src/core/fragment.js";
import { Repo } from "../helpers/git-history.js";
import { indexedEngine } from "../helpers/indexed-engine.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

const engineOn = (root: string) => indexedEngine(root);

const CONFIG_V1 = `export function parseConfig(text: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const line of text.split("\\n")) {
    const [key, value] = line.split("=");
    if (key && value) entries[key] = value;
  }
  return entries;
}
`;

const CONFIG_V2 = `export function parseConfig(text: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const line of text.split("\\n")) {
    if (line.trim().startsWith("#")) continue;
    const at = line.indexOf("=");
    if (at > 0) entries[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return entries;
}
`;

const RETRY = `export function retryDelay(attempt: number): number {
  return Math.min(30_000, 100 * 2 ** attempt);
}
`;

/** parseConfig written, then changed for comments; retryDelay written apart; the boot file changes with the parser. */
function projectWithHistory(): { repo: Repo; parserFix: string; retryAdded: string } {
  const repo = new Repo();
  repo.commit("feat: parse key=value config files", {
    "src/config/parse.ts": CONFIG_V1,
    "src/app/boot.ts": "export function bootApplication(name: string) { return name; }\n",
  });
  const retryAdded = repo.commit("feat: exponential retry delay", { "src/net/retry.ts": RETRY });
  repo.commit("chore: loader reads the parsed config", {
    "src/app/boot.ts": "export function bootApplication(name: string) { return name.trim(); }\n",
    "src/config/parse.ts": CONFIG_V1.replace("entries[key] = value", "entries[key.trim()] = value"),
  });
  const parserFix = repo.commit(
    "fix(config): skip comment lines and values holding '='\n\nA value such as url=a=b lost everything after its second '='.",
    {
      "src/config/parse.ts": CONFIG_V2,
      "src/app/boot.ts":
        "export function bootApplication(name: string) { return name.trim().toLowerCase(); }\n",
    },
  );
  return { repo, parserFix, retryAdded };
}

function commits(fragments: readonly ContextFragment[]): string[] {
  return fragments.flatMap((fragment) =>
    fragment.source.kind === "commit" ? [fragment.source.sha] : [],
  );
}

describe("temporal-archaeology", () => {
  it("answers why a function changed with the commit that last changed it", async () => {
    const { repo, parserFix, retryAdded } = projectWithHistory();
    const engine = await engineOn(repo.root);
    const why = await engine.query({
      task: "why was parseConfig changed",
      budget: 4000,
      strategies: ["temporal-archaeology"],
    });
    expect(commits(why.fragments)[0]).toBe(parserFix);
    const fix = why.fragments.find((fragment) => fragment.strategy === "temporal-archaeology");
    expect(fix?.tier).toBe("cold");
    expect(fix?.content).toMatch(/lost everything after its second/);
    expect(fix?.content).toMatch(/^\+ {4}if \(line\.trim\(\)\.startsWith\("#"\)\) continue;$/m);
    expect(why.output).toMatch(
      new RegExp(
        `^## commit ${parserFix.slice(0, 7)} \\(2024-01-01, Ada\\): fix\\(config\\): skip comment lines`,
        "m",
      ),
    );

    const other = await engine.query({
      task: "when did retryDelay start backing off exponentially",
      budget: 4000,
      strategies: ["temporal-archaeology"],
    });
    expect(commits(other.fragments)[0]).toBe(retryAdded);
  });

  it("prints a history fragment's commit in JSON", async () => {
    const { repo, parserFix } = projectWithHistory();
    const engine = await engineOn(repo.root);
    const result = await engine.query({
      task: "why was parseConfig changed",
      budget: 4000,
      format: "json",
      strategies: ["temporal-archaeology"],
    });
    const parsed = JSON.parse(result.output) as {
      fragments: { commit?: Record<string, string>; path: string }[];
    };
    const first = parsed.fragments.find((fragment) => fragment.commit);
    expect(first?.commit).toEqual({
      sha: parserFix,
      date: "2024-01-01T00:04:00+00:00",
      author: "Ada",
      subject: "fix(config): skip comment lines and values holding '='",
    });
    expect(first?.commit?.sha).toMatch(/^[0-9a-f]{40}$/);
  });

  it("offers the files that change together with the hits", async () => {
    const { repo } = projectWithHistory();
    const engine = await engineOn(repo.root);
    const result = await engine.query({
      task: "parseConfig comment lines",
      budget: 4000,
      strategies: ["temporal-archaeology"],
    });
    const partner = result.fragments.find(
      (fragment) => fragment.source.kind === "file" && fragment.source.path === "src/app/boot.ts",
    );
    expect(partner?.strategy).toBe("temporal-archaeology");
    expect(
      result.fragments.some(
        (f) => f.source.kind === "file" && f.source.path === "src/net/retry.ts",
      ),
    ).toBe(false);
  });

  it("is not selected where there is no history", async () => {
    const root = tempDir("ctx-no-history-");
    writeFiles(root, { "src/config/parse.ts": CONFIG_V2 });
    const engine = await engineOn(root);
    const result = await engine.query({ task: "why was parseConfig changed", budget: 2000 });
    expect(result.fragments.every((fragment) => fragment.strategy !== "temporal-archaeology")).toBe(
      true,
    );
    const backends = await engine.backends();
    expect(backends.temporal).toBeUndefined();
  });

  it("says how many commits ago each change of a file was made", async () => {
    const { repo } = projectWithHistory();
    const engine = await engineOn(repo.root);
    const temporal = (await engine.backends()).temporal;
    const [resource] = await engine.store.documents.listResources();
    const ages = await temporal?.changeAges(
      resource?.id ?? "",
      ["src/config/parse.ts", "src/net/retry.ts", "nope.ts"],
      10,
    );
    // Four commits: parse.ts changed in the newest, the third and the first; retry.ts in the second.
    expect(ages?.get("src/config/parse.ts")).toEqual([0, 1, 3]);
    expect(ages?.get("src/net/retry.ts")).toEqual([2]);
    expect(ages?.has("nope.ts")).toBe(false);
    const activity = await temporal?.fileActivity(resource?.id ?? "", ["src/config/parse.ts"]);
    expect(activity?.get("src/config/parse.ts")?.commits).toBe(3);
  });
});
