import type { Command } from "commander";
import { DEFAULT_MAP_BUDGET } from "../../graph/repo-map.js";
import { ensureIndex } from "../ensure-index.js";
import { warnUnknownFocus } from "../focus-warnings.js";
import { writeJson, writeOut } from "../output.js";
import { collect, positiveInteger } from "../parse-options.js";
import { dbFlag, dbOption, withEngine } from "../with-engine.js";

interface MapFlags {
  budget?: number;
  focus?: string[];
  json?: boolean;
  refresh: boolean;
  db?: string;
}

/** `ctx map`: the repository's most central files and definitions within a token budget. */
export function registerMapCommand(
  program: Command,
  run: (action: () => Promise<number>) => Promise<void>,
): void {
  program
    .command("map")
    .description(
      "the files and their most central definitions as signatures, ranked by the code graph, within a token budget",
    )
    .option(
      "-b, --budget <tokens>",
      `token budget of the map (default ${DEFAULT_MAP_BUDGET})`,
      positiveInteger,
    )
    .option(
      "--focus <path-or-symbol>",
      "rank around this file, folder or symbol: what it uses and what uses it (repeatable)",
      collect,
    )
    .option(
      "--json",
      "print the map's files and definitions as JSON (the budget counts the map text)",
    )
    .option("--no-refresh", "map the index as it is, without re-indexing changed files")
    .addOption(dbFlag())
    .action((flags: MapFlags) =>
      run(() =>
        withEngine({ ...dbOption(flags) }, async (engine) => {
          await ensureIndex(engine, flags.refresh, { graph: true });
          const map = await engine.repoMap({
            budget: flags.budget ?? DEFAULT_MAP_BUDGET,
            ...(flags.focus ? { focus: flags.focus } : {}),
          });
          warnUnknownFocus(map.unknownFocus, true);
          if (flags.json) {
            const { text, ...rest } = map;
            writeJson({ ...rest, map: text });
          } else if (map.text === "") {
            writeOut(
              map.definitions === 0
                ? "The index has no definitions to map (index a codebase first).\n"
                : `Budget ${map.budget} is too small for even one definition; raise --budget.\n`,
            );
          } else {
            writeOut(map.text);
          }
          return 0;
        }),
      ),
    );
}
