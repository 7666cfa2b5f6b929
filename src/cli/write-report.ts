import { resolve } from "node:path";
import { CtxError } from "../core/errors.js";
import { writePrivateFile } from "../core/private-files.js";
import { writeErr } from "./output.js";

/**
 * Writes an HTML report (only the user may read it: it holds the code the
 * answers carried) and says where on stderr; a path that cannot be written is
 * one line, exit 1.
 */
export async function writeReportFile(file: string, html: string, what: string): Promise<void> {
  const path = resolve(file);
  try {
    await writePrivateFile(path, html);
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new CtxError(
      "report_write",
      `cannot write the report to ${path}: ${why}; choose a writable path`,
    );
  }
  writeErr(`ctx: ${what} written to ${path}\n`);
}
