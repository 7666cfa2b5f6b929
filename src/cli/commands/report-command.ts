import type { Command } from "commander";
import { UsageError } from "../../core/errors.js";
import type { RequestRecord } from "../../engine/request-log.js";
import { writeJson, writeOut } from "../output.js";
import { dbFlag, dbOption, withEngine } from "../with-engine.js";
import { writeReportFile } from "../write-report.js";

interface ReportFlags {
  html?: string;
  json?: boolean;
  db?: string;
}

/** Writes a request's HTML report to `file` and says where on stderr. */
export async function writeRequestReport(
  file: string,
  id: string,
  record: RequestRecord,
): Promise<void> {
  const { requestReportHtml } = await import("../../report/request-report.js");
  return writeReportFile(file, requestReportHtml(id, record), `report of request ${id}`);
}

export function registerReportCommand(
  program: Command,
  run: (action: () => Promise<number>) => Promise<void>,
): void {
  program
    .command("report")
    .description(
      "show what a request did (the last one by default): budget by strategy, timings, every candidate and why it is in or out",
    )
    .argument("[request-id]", "a request id from ctx query --explain, get_context or explain")
    .option("--html <file>", "write one self-contained HTML page (no network) to this file")
    .option("--json", "print the request's record as JSON")
    .addOption(dbFlag())
    .action((requestId: string | undefined, flags: ReportFlags) =>
      run(() =>
        withEngine({ ...dbOption(flags), ifMissing: "fail" }, async (engine) => {
          const found = await engine.explainRequest(requestId);
          if (!found) {
            throw new UsageError(
              requestId
                ? `no request ${requestId} is kept for this index (the last 50 are): run ctx report without an id for the newest`
                : "no request is kept for this index yet: run ctx query first",
            );
          }
          if (flags.html) await writeRequestReport(flags.html, found.id, found.record);
          if (flags.json) writeJson({ requestId: found.id, ...found.record });
          else if (!flags.html) {
            const { summaryOf } = await import("../../report/request-summary.js");
            writeOut(summaryOf(found.id, found.record));
          }
          return 0;
        }),
      ),
    );
}
