import type { Command } from "commander";
import type { TrustFlags } from "./trust-run.js";

/**
 * `ctx trust` / `ctx untrust`: the user's say over a project's `ctx.toml`.
 * Only a person at the command line records trust; nothing an agent, a server
 * or a repository runs does.
 */
export function registerTrustCommands(
  program: Command,
  run: (action: () => Promise<number>) => Promise<void>,
): void {
  program
    .command("trust")
    .description(
      "let a project's ctx.toml choose code, credentials and destinations (custom strategies, model endpoints, API key variables, the store); any edit to the file takes it back",
    )
    .argument("[path]", "the project (a folder in it) or its ctx.toml", ".")
    .option("--list", "list the trusted files and whether each is unchanged")
    .option("--json", "print JSON")
    .action((path: string, flags: TrustFlags) =>
      run(async () => {
        const trust = await import("./trust-run.js");
        return flags.list ? trust.listTrusted(flags) : trust.trustProject(path, flags);
      }),
    );
  program
    .command("untrust")
    .description("take back the trust given to a project's ctx.toml")
    .argument("[path]", "the project (a folder in it) or its ctx.toml", ".")
    .option("--json", "print JSON")
    .action((path: string, flags: TrustFlags) =>
      run(async () => (await import("./trust-run.js")).untrustProject(path, flags)),
    );
}
