import { createReadStream, existsSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { EvalDataError, PathNotFoundError } from "../core/errors.js";

/** One retrieval unit of a BEIR corpus. */
export interface CorpusUnit {
  readonly id: string;
  readonly title: string;
  readonly text: string;
  /** Our extension: the whole document the unit was cut from. */
  readonly docId?: string;
}

export interface EvalQuery {
  readonly id: string;
  readonly text: string;
}

/** query id → (unit id → graded relevance > 0). */
export type Qrels = ReadonlyMap<string, ReadonlyMap<string, number>>;

export interface BeirDataset {
  readonly name: string;
  readonly dir: string;
  readonly corpus: readonly CorpusUnit[];
  readonly queries: readonly EvalQuery[];
  readonly qrels: Qrels;
  /** Whole documents by id, when `documents.jsonl` is present. */
  readonly documents: ReadonlyMap<string, string>;
}

/** Reads a BEIR folder: corpus.jsonl, queries.jsonl, qrels/test.tsv, optional documents.jsonl. */
export async function readBeirDataset(dirPath: string): Promise<BeirDataset> {
  const dir = resolve(dirPath);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new PathNotFoundError(dirPath, "evaluation folder");
  }
  const corpusFile = requireFile(dir, "corpus.jsonl");
  const queriesFile = requireFile(dir, "queries.jsonl");
  const qrelsFile = requireFile(dir, join("qrels", "test.tsv"));

  const corpus: CorpusUnit[] = [];
  await readJsonLines(corpusFile, (row) => {
    const id = stringField(row, "_id", corpusFile);
    const docId = typeof row.doc_id === "string" ? row.doc_id : undefined;
    corpus.push({
      id,
      title: typeof row.title === "string" ? row.title : "",
      text: stringField(row, "text", corpusFile),
      ...(docId === undefined ? {} : { docId }),
    });
  });
  const queries: EvalQuery[] = [];
  await readJsonLines(queriesFile, (row) => {
    queries.push({
      id: stringField(row, "_id", queriesFile),
      text: stringField(row, "text", queriesFile),
    });
  });
  const documents = new Map<string, string>();
  const documentsFile = join(dir, "documents.jsonl");
  if (existsSync(documentsFile)) {
    await readJsonLines(documentsFile, (row) => {
      documents.set(
        stringField(row, "_id", documentsFile),
        stringField(row, "text", documentsFile),
      );
    });
  }
  return {
    name: basename(dir),
    dir,
    corpus,
    queries,
    qrels: await readQrels(qrelsFile),
    documents,
  };
}

function requireFile(dir: string, name: string): string {
  const file = join(dir, name);
  if (!existsSync(file)) {
    throw new EvalDataError(
      file,
      "missing; a BEIR folder has corpus.jsonl, queries.jsonl and qrels/test.tsv",
    );
  }
  return file;
}

async function readJsonLines(
  file: string,
  onRow: (row: Record<string, unknown>) => void,
): Promise<void> {
  let lineNumber = 0;
  const lines = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Infinity });
  for await (const line of lines) {
    lineNumber++;
    if (line.trim().length === 0) continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      throw new EvalDataError(`${file}:${lineNumber}`, "not valid JSON");
    }
    if (typeof row !== "object" || row === null || Array.isArray(row)) {
      throw new EvalDataError(`${file}:${lineNumber}`, "expected a JSON object");
    }
    try {
      onRow(row as Record<string, unknown>);
    } catch (error) {
      if (error instanceof EvalDataError) {
        throw new EvalDataError(`${file}:${lineNumber}`, error.message.replace(`${file}: `, ""));
      }
      throw error;
    }
  }
}

function stringField(row: Record<string, unknown>, key: string, file: string): string {
  const value = row[key];
  if (typeof value === "string") return value;
  if (typeof value === "number" && key === "_id") return String(value);
  throw new EvalDataError(file, `field "${key}" missing or not a string`);
}

async function readQrels(file: string): Promise<Qrels> {
  const qrels = new Map<string, Map<string, number>>();
  let lineNumber = 0;
  const lines = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Infinity });
  for await (const line of lines) {
    lineNumber++;
    if (line.trim().length === 0) continue;
    const cells = line.split("\t");
    if (lineNumber === 1 && cells[0] === "query-id") continue;
    const [queryId, unitId, score] = cells;
    const relevance = Number(score);
    if (queryId === undefined || unitId === undefined || !Number.isFinite(relevance)) {
      throw new EvalDataError(`${file}:${lineNumber}`, "expected query-id<TAB>corpus-id<TAB>score");
    }
    if (relevance <= 0) continue;
    let judged = qrels.get(queryId);
    if (!judged) {
      judged = new Map();
      qrels.set(queryId, judged);
    }
    judged.set(unitId, relevance);
  }
  return qrels;
}
