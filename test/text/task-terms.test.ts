import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { queryTerms } from "../../src/text/code-tokenizer.js";
import { taskSearchTerms } from "../../src/text/task-terms.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

describe("a task's search terms", () => {
  it("asks the title's terms twice when the task has a body", () => {
    const task = "Scheduler drops retried jobs\n\nThe worker logs a warning and the job is gone.";
    const terms = taskSearchTerms(task);
    expect(terms.slice(0, queryTerms(task).length)).toEqual(queryTerms(task));
    expect(terms.slice(queryTerms(task).length)).toEqual(["scheduler", "drops", "retried", "jobs"]);
  });

  it("counts the title more the longer the body, four times at most", () => {
    const title = "Scheduler drops retried jobs";
    // Words of letters only, each one term: "zaaq zbaq …".
    const letter = (n: number) => String.fromCharCode(97 + (n % 26));
    const body = (words: number) =>
      Array.from({ length: words }, (_, i) => `z${letter(i)}${letter(Math.floor(i / 26))}q`).join(
        " ",
      );
    const repeats = (task: string) =>
      taskSearchTerms(task).filter((term) => term === "scheduler").length;
    expect(repeats(`${title}\n${body(4)}`)).toBe(2);
    // 4 + 32 terms over 4: three times.
    expect(repeats(`${title}\n${body(32)}`)).toBe(3);
    expect(repeats(`${title}\n${body(400)}`)).toBe(4);
  });

  it("takes a first line that only introduces the rest (`Task:`) for no title", () => {
    for (const label of ["Task:", "## Bug report:", "Context :"]) {
      const task = `${label}\nThe scheduler drops retried jobs\nwhen the queue is full`;
      expect(taskSearchTerms(task)).toEqual(queryTerms(task));
    }
    const titled = "Improve diagnostic for Flag without inversion:\nWhen a user declares a flag";
    expect(taskSearchTerms(titled)).not.toEqual(queryTerms(titled));
  });

  it("asks a one-line task, and a first line that is a paragraph, once", () => {
    expect(taskSearchTerms("Scheduler drops retried jobs")).toEqual(
      queryTerms("Scheduler drops retried jobs"),
    );
    const paragraph = Array.from({ length: 30 }, (_, i) => `word${i}`).join(" ");
    const task = `${paragraph}\nand a second line`;
    expect(taskSearchTerms(task)).toEqual(queryTerms(task));
  });
});

describe("an issue whose body's words are elsewhere", () => {
  let engine: ContextEngine;

  beforeAll(async () => {
    const root = tempDir("ctx-title-");
    writeFiles(root, {
      // The title's subject, named once or twice.
      "src/timers.ts": [
        "/** The retry scheduler: runs each job again after a delay when it fails. */",
        "export function later(job: Job, delayMs: number): void {",
        "  setTimeout(() => job.run(), delayMs);",
        "}",
        "",
        "export interface Job {",
        "  run(): void;",
        "}",
        "",
      ].join("\n"),
      // Every word of the body, often.
      "src/queue-worker.ts": [
        "/** The queue worker: takes a job off the queue, logs a warning when the queue is full. */",
        "export class QueueWorker {",
        "  private queue: string[] = [];",
        "  take(): string | undefined {",
        "    // A full queue: the worker logs a warning and waits; the job stays on the queue.",
        "    if (this.queue.length > 100) console.warn('queue full: worker waits');",
        "    return this.queue.shift();",
        "  }",
        "  warning(message: string): void {",
        "    console.warn('worker warning: ' + message + '; queue ' + this.queue.length);",
        "  }",
        "}",
        "",
      ].join("\n"),
    });
    engine = await ContextEngine.open({ start: root, cwd: root });
    await engine.index();
  });
  afterAll(() => engine.close());

  it("ranks the file the title names above the one its body's words fill", async () => {
    const answer = await engine.query({
      task: [
        "Retry scheduler loses jobs",
        "",
        "When the queue is full the worker logs a warning, waits, and the queue worker",
        "takes the next job off the queue; the warning says the queue is full.",
      ].join("\n"),
      budget: 2000,
      format: "json",
    });
    const first = answer.fragments[0]?.source;
    expect(first?.kind === "file" ? first.path : undefined).toBe("src/timers.ts");
  });
});
