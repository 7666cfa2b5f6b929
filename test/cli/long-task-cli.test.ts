import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { gitRepo } from "../helpers/temp-dir.js";

const SOURCES = {
  "src/ingest/read-files.ts":
    "export function readChangedFiles(paths: string[]): number {\n  let read = 0;\n  for (const path of paths) read += path.length;\n  return read;\n}\n",
  "src/report.ts":
    "export function printReport(count: number): string {\n  return `read ${count}`;\n}\n",
  "src/other.ts": "export function unrelatedHelper(): string {\n  return 'x';\n}\n",
};

const TRACE = [
  "TypeError: Cannot read properties of undefined (reading 'length')",
  "    at readChangedFiles (/home/dev/app/src/ingest/read-files.ts:3:47)",
  "    at main (/home/dev/app/src/report.ts:2:10)",
];

/** A pasted log: the trace, then lines of noise until it is `bytes` long. */
function pastedLog(bytes: number): string {
  const lines = [...TRACE];
  for (let i = 0; lines.join("\n").length < bytes; i++) {
    lines.push(
      `2026-12-05T09:${String(i % 60).padStart(2, "0")}:00 INFO worker ${i} polled the queue and found nothing to do`,
    );
  }
  return lines.join("\n");
}

describe("long tasks", () => {
  const root = gitRepo(SOURCES);

  it("a 100 KB task gets fragments at budget 1500, with only its first line in the header", () => {
    expect(runCli(["index"], root).code).toBe(0);
    const task = pastedLog(100_000);
    expect(task.length).toBeGreaterThanOrEqual(100_000);
    const result = runCli(["query", task, "--budget", "1500", "--json", "--no-refresh"], root);
    expect(result.code, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout) as {
      task: string;
      tokensUsed: number;
      fragments: { path: string; depth: string }[];
    };
    expect(answer.task).toBe(`${TRACE[0]} …`);
    expect(answer.tokensUsed).toBeLessThanOrEqual(1500);
    expect(answer.fragments.map((fragment) => fragment.path)).toContain("src/ingest/read-files.ts");
    for (const fragment of answer.fragments) {
      expect(["body", "signature", "outline"]).toContain(fragment.depth);
    }
  });

  it("the prompt hook answers an 8 KB pasted stack trace at its budget of 1500", () => {
    const prompt = pastedLog(8_000);
    const input = JSON.stringify({ prompt, cwd: root, hook_event_name: "UserPromptSubmit" });
    const result = runCli(["hook", "claude-code", "--budget", "1500"], root, {}, input);
    expect(result.code, result.stderr).toBe(0);
    const context = JSON.parse(result.stdout).hookSpecificOutput.additionalContext as string;
    expect(context.split("\n")[0]).toBe(`# Context for: ${TRACE[0]} …`);
    expect(context).toContain("src/ingest/read-files.ts");
  });
});
