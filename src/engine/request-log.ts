import { readdir, readFile, rename, rm } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";
import {
  makePrivateFolder,
  PRIVATE_FOLDER_MODE,
  tightenMode,
  writePrivateFile,
} from "../core/private-files.js";
import type { QueryResult } from "./engine-options.js";
import { RecentRequests } from "./recent-requests.js";

/** What is kept of a request: everything but its id, which names it. */
export type RequestRecord = Omit<QueryResult, "requestId" | "unknownFocus">;

/** Request ids are ULIDs: they sort by time. */
const REQUEST_FILE = /^[0-9A-HJKMNP-TV-Z]{26}\.json$/;

/**
 * The last requests answered on an index, one JSON file each in a folder beside
 * the index file (`.ctx/index-requests/`), so `ctx report` can show one that
 * `ctx query` or a server answered in another process. Keeps the newest
 * `capacity`; failing to write one (a read-only folder) only loses the report.
 * Requests hold the code they answered with: the folder and its files are
 * the user's only.
 */
export class RequestLog {
  readonly folder: string;
  /** The folder's requests, oldest first, as this process last listed them plus those it wrote since. */
  private listed: string[] | null = null;
  private writesSinceListing = 0;

  constructor(
    indexFile: string,
    private readonly capacity = 50,
    /** Writes between listings of the folder: other processes' requests are pruned at the next one. */
    private readonly relist = 20,
  ) {
    this.folder = join(dirname(indexFile), `${basename(indexFile, extname(indexFile))}-requests`);
  }

  /**
   * Writes a request and removes the oldest past the capacity. The folder is
   * listed on the first write and every `relist` writes after, not on each:
   * listing it cost a server as much as writing the request.
   */
  async write(id: string, record: RequestRecord): Promise<void> {
    // A second try makes the folder again, in case it was removed since it was listed.
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await this.writeText(id, JSON.stringify(record));
        return;
      } catch {
        // Only the report of this request is lost if the second try fails too.
        this.listed = null;
      }
    }
  }

  private async writeText(id: string, text: string): Promise<void> {
    if (this.listed === null) {
      makePrivateFolder(this.folder);
      tightenMode(this.folder, PRIVATE_FOLDER_MODE);
    }
    const file = join(this.folder, `${id}.json`);
    await writePrivateFile(`${file}.tmp`, text);
    await rename(`${file}.tmp`, file);
    if (this.listed === null || ++this.writesSinceListing >= this.relist) {
      this.listed = await this.ids();
      this.writesSinceListing = 0;
    } else {
      this.listed.push(id);
    }
    while (this.listed.length > this.capacity) {
      const old = this.listed.shift() as string;
      await rm(join(this.folder, `${old}.json`), { force: true });
    }
  }

  /** The request with this id, or the newest; null when none is kept. */
  async read(id?: string): Promise<{ id: string; record: RequestRecord } | null> {
    const wanted = id ?? (await this.ids()).at(-1);
    if (!wanted || !REQUEST_FILE.test(`${wanted}.json`)) return null;
    try {
      const text = await readFile(join(this.folder, `${wanted}.json`), "utf8");
      return { id: wanted, record: JSON.parse(text) as RequestRecord };
    } catch {
      return null;
    }
  }

  private async ids(): Promise<string[]> {
    const names = await readdir(this.folder).catch(() => [] as string[]);
    return names
      .filter((name) => REQUEST_FILE.test(name))
      .map((name) => name.slice(0, -5))
      .sort();
  }
}

/**
 * The requests an engine answered (the last few in memory) and, through the
 * log beside an index file, those any process answered on the same index.
 */
export class KeptRequests {
  private readonly recent = new RecentRequests<RequestRecord>();
  private readonly log: RequestLog | null;

  constructor(indexFile: string | null) {
    this.log = indexFile ? new RequestLog(indexFile) : null;
  }

  private writing: Promise<void> = Promise.resolve();

  /**
   * Keeps a request's record; returns the id it is known by. The log is written
   * after the answer, one request after another: waiting for the file cost a
   * query about a sixth of its time. `flush` waits for what is still being written.
   */
  add(record: RequestRecord): string {
    const id = this.recent.add(record);
    const log = this.log;
    if (log) this.writing = this.writing.then(() => log.write(id, record));
    return id;
  }

  /** Resolves once every request added so far is in the log (before a process ends). */
  flush(): Promise<void> {
    return this.writing;
  }

  /** The request with this id, or the newest, from memory first, then from the log. */
  async get(id?: string): Promise<{ id: string; record: RequestRecord } | null> {
    return this.recent.get(id) ?? (await this.log?.read(id)) ?? null;
  }
}
