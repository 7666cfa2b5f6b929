import type { Command } from "commander";
import type { Decision, Plan } from "../../core/plans.js";
import { jsonText } from "../../text/visible-text.js";
import { writeJson, writeOut } from "../output.js";
import { collect } from "../parse-options.js";
import { dbFlag, dbOption, withEngine } from "../with-engine.js";

interface PlanFlags {
  json?: boolean;
  db?: string;
}

/** `ctx plan …`: plans an agent works through, and the decisions it records in them. */
export function registerPlanCommand(
  program: Command,
  run: (action: () => Promise<number>) => Promise<void>,
): void {
  const plan = program
    .command("plan")
    .description(
      "plans and the decisions recorded in them (context for later work: ctx query --plan)",
    );
  const db = (command: Command) => command.addOption(dbFlag());

  db(
    plan
      .command("create")
      .description("start a plan; prints its id")
      .argument("<title...>", "what the plan is for")
      .option("--parent <id>", "the plan this one is part of")
      .option("--json", "print the plan as JSON"),
  ).action((words: string[], flags: PlanFlags & { parent?: string }) =>
    run(() =>
      withEngine({ ...dbOption(flags) }, async (engine) => {
        const created = await engine.plans.create(words.join(" "), flags.parent ?? null);
        writeOut(flags.json ? `${jsonText(created)}\n` : `${created.id}\n`);
        return 0;
      }),
    ),
  );

  db(
    plan
      .command("decide")
      .description("record a decision in an open plan")
      .argument("<id>", "the plan")
      .requiredOption("--what <text>", "what was decided")
      .requiredOption("--why <text>", "why")
      .option("--alternative <text>", "an option considered and not taken (repeatable)", collect)
      .option("--outcome <text>", "what came of it")
      .option("--json", "print the decision as JSON"),
  ).action(
    (
      id: string,
      flags: PlanFlags & { what: string; why: string; alternative?: string[]; outcome?: string },
    ) =>
      run(() =>
        withEngine({ ...dbOption(flags) }, async (engine) => {
          const decision = await engine.plans.decide(id, {
            what: flags.what,
            why: flags.why,
            alternatives: flags.alternative ?? [],
            outcome: flags.outcome ?? null,
          });
          writeOut(
            flags.json
              ? `${jsonText(decision)}\n`
              : `Recorded decision ${decision.id} in plan ${id}\n`,
          );
          return 0;
        }),
      ),
  );

  db(
    plan
      .command("close")
      .description("close a plan: its decisions go to the cold tier")
      .argument("<id>", "the plan")
      .option("--outcome <text>", "how it ended")
      .option("--json", "print the plan as JSON"),
  ).action((id: string, flags: PlanFlags & { outcome?: string }) =>
    run(() =>
      withEngine({ ...dbOption(flags) }, async (engine) => {
        const closed = await engine.plans.close(id, flags.outcome ?? null);
        writeOut(flags.json ? `${jsonText(closed)}\n` : `Closed plan ${closed.id}\n`);
        return 0;
      }),
    ),
  );

  db(
    plan
      .command("show")
      .description("a plan and its decisions")
      .argument("<id>", "the plan")
      .option("--json", "print the plan as JSON"),
  ).action((id: string, flags: PlanFlags) =>
    run(() =>
      withEngine({ ...dbOption(flags) }, async (engine) => {
        const shown = await engine.plans.show(id);
        writeOut(flags.json ? `${jsonText(shown)}\n` : formatPlan(shown));
        return 0;
      }),
    ),
  );

  db(
    plan
      .command("list")
      .description("the project's plans, newest first")
      .option("--open", "only open plans")
      .option("--json", "print the plans as JSON"),
  ).action((flags: PlanFlags & { open?: boolean }) =>
    run(() =>
      withEngine({ ...dbOption(flags) }, async (engine) => {
        const plans = await engine.plans.list({ openOnly: flags.open ?? false });
        if (flags.json) writeJson(plans);
        else if (plans.length === 0) writeOut("No plans yet: ctx plan create TITLE\n");
        else writeOut(plans.map(summaryLine).join(""));
        return 0;
      }),
    ),
  );
}

function summaryLine(plan: Plan): string {
  const parent = plan.parentId ? ` (in ${plan.parentId})` : "";
  const count = `${plan.decisions.length} ${plan.decisions.length === 1 ? "decision" : "decisions"}`;
  return `${plan.id}  ${plan.status.padEnd(6)}  ${plan.title}${parent} · ${count}\n`;
}

function formatPlan(plan: Plan): string {
  const lines = [
    `Plan ${plan.id} (${plan.status}): ${plan.title}`,
    ...(plan.parentId ? [`Part of plan ${plan.parentId}`] : []),
    `Created ${plan.createdAt}${plan.closedAt ? `, closed ${plan.closedAt}` : ""}`,
    ...(plan.outcome ? [`Outcome: ${plan.outcome}`] : []),
    ...plan.decisions.flatMap(decisionLines),
  ];
  if (plan.decisions.length === 0)
    lines.push("No decisions yet: ctx plan decide ID --what … --why …");
  return `${lines.join("\n")}\n`;
}

function decisionLines(decision: Decision): string[] {
  return [
    `- ${decision.what}`,
    `  why: ${decision.why}`,
    ...(decision.alternatives.length > 0
      ? [`  instead of: ${decision.alternatives.join("; ")}`]
      : []),
    ...(decision.outcome ? [`  outcome: ${decision.outcome}`] : []),
  ];
}
