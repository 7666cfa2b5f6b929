/** The work of `ctx trust` and `ctx untrust`, loaded when one of them runs. */
import { existsSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import {
  PROJECT_CONFIG_FILE,
  projectConfigPath,
  readConfigSource,
} from "../../config/load-config.js";
import { withoutRestrictedSettings } from "../../config/restricted-settings.js";
import {
  addTrust,
  readTrustList,
  removeTrust,
  sha256Of,
  type TrustedFile,
} from "../../config/trust-store.js";
import { ConfigError, UsageError } from "../../core/errors.js";
import { CONFIG_FILE_MAX_BYTES, readRegularText } from "../../core/read-regular-file.js";
import { findProjectRoot } from "../../engine/locate-project.js";
import { writeJson, writeOut } from "../output.js";

/** `ctx trust`'s flags, as commander parses them. */
export interface TrustFlags {
  list?: boolean;
  json?: boolean;
}

export async function trustProject(path: string, flags: TrustFlags): Promise<number> {
  const file = configFileOf(path);
  if (!existsSync(file))
    throw new UsageError(
      `no ${PROJECT_CONFIG_FILE} at ${dirname(file)}: there is nothing to trust`,
    );
  // The same read as loading: what is hashed here is exactly what a later run compares.
  const { text, config } = await readConfigSource(file, dirname(file));
  const grants = withoutRestrictedSettings(config, dirname(file)).ignored;
  const entry = addTrust(file, sha256Of(text), process.env);
  if (flags.json) {
    writeJson({ ...entry, grants });
    return 0;
  }
  const what =
    grants.length > 0
      ? `its ${grants.join(", ")} now apply`
      : "it sets nothing that needs trust today, and may from now on";
  writeOut(
    `Trusted ${file} (sha256 ${entry.sha256.slice(0, 12)}): ${what}. ` +
      "Any edit to the file makes it untrusted again; `ctx untrust` takes it back.\n",
  );
  return 0;
}

export function untrustProject(path: string, flags: TrustFlags): number {
  const file = configFileOf(path);
  const removed = removeTrust(file, process.env);
  if (flags.json) writeJson({ path: file, removed });
  else
    writeOut(
      removed
        ? `Untrusted ${file}: its restricted settings are ignored again\n`
        : `${file} was not trusted\n`,
    );
  return 0;
}

export function listTrusted(flags: TrustFlags): number {
  const list = readTrustList(process.env);
  if (list.problem) throw new ConfigError(list.file, `${list.problem}; fix it or delete it`);
  const rows = list.entries.map((entry) => ({ ...entry, state: stateOf(entry) }));
  if (flags.json) {
    writeJson({ file: list.file, trusted: rows });
    return 0;
  }
  if (rows.length === 0) {
    writeOut("No project config file is trusted (`ctx trust` in a project adds it)\n");
    return 0;
  }
  const said: Record<TrustState, string> = {
    trusted: "trusted",
    changed: "changed since trusted: its restricted settings are ignored",
    missing: "missing",
  };
  for (const row of rows)
    writeOut(`${row.path}  ${row.trustedAt.slice(0, 10)}  ${said[row.state]}\n`);
  return 0;
}

/** Whether a recorded file still holds what was trusted. */
type TrustState = "trusted" | "changed" | "missing";

function stateOf(entry: TrustedFile): TrustState {
  // Read as a run reads it: a file swapped for a FIFO or a link out is not what was trusted.
  const read = readRegularText(entry.path, {
    maxBytes: CONFIG_FILE_MAX_BYTES,
    root: dirname(entry.path),
  });
  if (!read.ok) return read.reason === "missing" ? "missing" : "changed";
  return sha256Of(read.text) === entry.sha256 ? "trusted" : "changed";
}

/** The project's config file for a folder in the project, or the file itself. */
function configFileOf(path: string): string {
  const absolute = resolve(path);
  if (existsSync(absolute) && statSync(absolute).isFile()) {
    if (basename(absolute) !== PROJECT_CONFIG_FILE)
      throw new UsageError(
        `${absolute} is not a ${PROJECT_CONFIG_FILE}: name the project's folder or its ${PROJECT_CONFIG_FILE}`,
      );
    return projectConfigPath(dirname(absolute));
  }
  return projectConfigPath(findProjectRoot(absolute));
}
