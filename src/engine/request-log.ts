import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";
import type { QueryResult } from "./engine-options.js";
import { RecentRequests } from "./recent-requests.js";

/** What is kept of a request: everything but its id, which names it. */
export type RequestRecord = Omit<QueryResult, "requestId">;

/** Request ids are ULIDs: they sort by time. */
const REQUEST_FILE = /^[0-9A-HJKMNP-TV-Z]{26}\.json$/;

/**
 * The last requests answered on an index, one JSON file each in a folder beside
 * the index file (`.ctx/index-requests/`), so `ctx report` can show one that
 * `ctx query` or a server answered in another process. Keeps the newest
 * `capacity`; failing to write one (a read-only folder) only loses the report.
 */
export class RequestLog {
  readonly folder: string;

  constructor(
    indexFile: string,
    private readonly capacity = 50,
  ) {
    this.folder = join(dirname(indexFile), `${basename(indexFile, extname(indexFile))}-requests`);
  }

  async write(id: string, record: RequestRecord): Promise<void> {
    try {
      await mkdir(this.folder, { recursive: true });
      const file = join(this.folder, `${id}.json`);
      await writeFile(`${file}.tmp`, JSON.stringify(record));
      await rename(`${file}.tmp`, file);
      const kept = await this.ids();
      for (const old of kept.slice(0, Math.max(0, kept.length - this.capacity))) {
        await rm(join(this.folder, `${old}.json`), { force: true });
      }
    } catch {
      // Only the report of this request is lost.
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
