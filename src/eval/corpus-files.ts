import type { ContextFragment } from "../core/fragment.js";
import type { BeirDataset, CorpusUnit } from "./beir.js";

/** A unit's place in the file it is stored in: its lines there, 1-based and inclusive. */
export interface PlacedUnit {
  readonly unit: CorpusUnit;
  /** The unit's text as indexed (title, then text). */
  readonly text: string;
  readonly startLine: number;
  readonly endLine: number;
}

/** What an evaluation stores as one file: a document's units, one after another. */
export interface CorpusFile {
  /** The document's id, or the unit's own id for a unit with no document. */
  readonly path: string;
  readonly units: readonly PlacedUnit[];
  /** The units' texts joined by newlines: what the file's code graph is read from. */
  readonly text: string;
}

/**
 * The corpus as the files an index would hold: the units cut from one
 * document (the same `doc_id`) become that file's chunks, in corpus order, so
 * the pipeline sees which units belong together as it sees a project file's
 * chunks (its file-level signals depend on it). A unit without a document is a
 * file of its own.
 */
export function corpusFiles(dataset: BeirDataset): CorpusFile[] {
  const groups = new Map<string, CorpusUnit[]>();
  for (const unit of dataset.corpus) {
    const path = unit.docId ?? unit.id;
    const group = groups.get(path);
    if (group) group.push(unit);
    else groups.set(path, [unit]);
  }
  return [...groups].map(([path, units]) => {
    let line = 1;
    const placed = units.map((unit) => {
      const text = unitText(unit);
      const lines = text.split("\n").length;
      const place = { unit, text, startLine: line, endLine: line + lines - 1 };
      line += lines;
      return place;
    });
    return { path, units: placed, text: placed.map((place) => place.text).join("\n") };
  });
}

export function unitText(unit: CorpusUnit): string {
  return unit.title.length > 0 ? `${unit.title}\n${unit.text}` : unit.text;
}

/** Finds the units a ranked fragment shows, by its file and lines. */
export class UnitLocator {
  private readonly byPath = new Map<string, readonly PlacedUnit[]>();

  constructor(files: readonly CorpusFile[]) {
    for (const file of files) this.byPath.set(file.path, file.units);
  }

  /** Ids of the units the fragment's lines overlap, in order; its id when it is not a file's. */
  unitsOf(fragment: ContextFragment): string[] {
    const source = fragment.source;
    if (source.kind !== "file") return [fragment.id];
    const units = this.byPath.get(source.path);
    if (!units) return [source.path];
    return units
      .filter((place) => place.startLine <= source.endLine && place.endLine >= source.startLine)
      .map((place) => place.unit.id);
  }
}
