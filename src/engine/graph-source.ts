import { randomUUID } from "node:crypto";
import { rename, rm } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";
import {
  type GraphSource,
  graphFileKey,
  type KnownGraphFiles,
  type LoadedGraph,
} from "../core/graph.js";
import { writePrivateFile } from "../core/private-files.js";
import { readRegularFileAsync } from "../core/read-regular-file.js";
import type { Store } from "../core/store.js";
import { CodeGraph } from "../graph/code-graph.js";
import { parseGraph, serializeGraph } from "../graph/graph-cache.js";
import { updateGraphParts } from "../graph/graph-update.js";
import { packGraph } from "../graph/pack-graph.js";
import { type PackedGraph, type PackedStamp, unpackGraph } from "../graph/packed-graph.js";

/** ctx_meta key of the built graph kept in the index, as text (an index on a server, or in memory). */
const GRAPH_CACHE_KEY = "graph_cache";
/**
 * ctx_meta key naming the packed graph kept beside an index file (its
 * generation and save): the file counts only while the index names it, so a
 * file left from another index, or one a crash left half-saved, is never read
 * as this index's.
 */
const PACKED_GRAPH_KEY = "graph_packed";
/** A packed graph larger than this is not read back (it is rebuilt from the rows instead). */
const MAX_PACKED_BYTES = 2 * 1024 ** 3;

/** Where the packed graph of an index file is kept: beside it (`.ctx/index-graph.pack`). */
export function packedGraphFile(indexFile: string): string {
  return join(dirname(indexFile), `${basename(indexFile, extname(indexFile))}-graph.pack`);
}
/**
 * Past this share of files written, building from every file's rows is about
 * as quick as re-reading the written files and those that use their names.
 */
const MAX_UPDATED_SHARE = 0.2;
/** A handful of files is always quicker to update, whatever their share. */
const ALWAYS_UPDATED_FILES = 50;

/**
 * How long a build made for a watcher's batch waits before it is kept in the
 * index: serializing and writing the graph of a large project costs a few
 * hundred ms, which every saved file would otherwise pay before it is searchable.
 */
const DEFERRED_SAVE_MS = 5000;

interface BuiltGraph {
  readonly generation: string;
  readonly graph: CodeGraph;
}

/** A graph as kept: built in memory, read back from text, or read back packed. */
interface KeptGraph {
  readonly generation: string;
  readonly graph: CodeGraph | PackedGraph;
  /** Read from the text in the index where a packed file is kept now: packed on first use. */
  readonly unpacked: boolean;
}

/**
 * The index's code graph in memory, brought up to date only when the index's
 * graph generation moved (a file was written or removed, by this process or
 * another); concurrent loads share one build. A build is kept (with its
 * whole-graph rank), so the next process reads it instead, and a graph a few
 * files behind is updated from those files (and the files that use their
 * names) rather than rebuilt from every file's rows. An index file keeps it
 * packed in a file beside it (`packedFile`), which a process reads back
 * without making a node until a query asks for it: a `ctx query` on 200,000
 * files spent most of its time parsing the graph kept as text in the index.
 */
export class CachedGraphSource implements GraphSource {
  private cached: { generation: string; built: Promise<KeptGraph> } | null = null;
  private unsaved: { built: BuiltGraph; timer: NodeJS.Timeout } | null = null;

  constructor(
    private readonly store: Store,
    private readonly packedFile: string | null = null,
  ) {}

  /**
   * `known`: rows the caller just wrote, which a full build need not read back.
   * `saveLater`: keep the build in the index only after a quiet spell (a watcher's batch).
   */
  async load(known?: KnownGraphFiles, saveLater = false): Promise<LoadedGraph> {
    const generation = await this.store.graph.graphGeneration();
    if (this.cached?.generation !== generation) {
      const previous = this.cached?.built.catch(() => null) ?? Promise.resolve(null);
      const built = previous.then((base) => this.read(generation, base, known, saveLater));
      built.catch(() => {
        if (this.cached?.built === built) this.cached = null;
      });
      this.cached = { generation, built };
    }
    return (await this.cached.built).graph;
  }

  private async read(
    generation: string,
    inMemory: KeptGraph | null,
    known?: KnownGraphFiles,
    saveLater = false,
  ): Promise<KeptGraph> {
    let base = inMemory;
    if (!base) {
      base = (await this.readPacked()) ?? (await this.readText());
      if (base?.generation === generation) {
        // Kept as text by an earlier version: packed now, so the next process reads it quickly.
        if (base.unpacked && base.graph instanceof CodeGraph)
          await this.save({ generation, graph: base.graph });
        return base;
      }
    }
    // A kept graph that cannot be brought up to date (a damaged file) is built again instead.
    const updated = base ? await this.update(base).catch(() => null) : null;
    const built = updated ?? (await this.build(known));
    if (this.unsaved) clearTimeout(this.unsaved.timer);
    this.unsaved = null;
    const kept = { ...built, unpacked: false };
    if (!saveLater) {
      await this.save(built);
      return kept;
    }
    const timer = setTimeout(() => void this.saveUnsaved(), DEFERRED_SAVE_MS);
    timer.unref();
    this.unsaved = { built, timer };
    return kept;
  }

  /** The packed graph beside the index file, when the index names it; null when there is none. */
  private async readPacked(): Promise<KeptGraph | null> {
    if (!this.packedFile) return null;
    const named = await this.store.state.getMeta(PACKED_GRAPH_KEY).catch(() => null);
    if (!named) return null;
    // Only a regular file, read whole: never a FIFO or a device put in its place. Read
    // off the main thread: a process may have started git meanwhile (see warm).
    const read = await readRegularFileAsync(this.packedFile, { maxBytes: MAX_PACKED_BYTES });
    const unpacked = read.ok ? unpackGraph(read.bytes) : null;
    if (!unpacked || stampText(unpacked.stamp) !== named) return null;
    return { generation: unpacked.stamp.generation, graph: unpacked.graph, unpacked: false };
  }

  /** The graph kept as text in the index (by an earlier version, or a store with no file). */
  private async readText(): Promise<KeptGraph | null> {
    const stored = await this.store.state.getMeta(GRAPH_CACHE_KEY).catch(() => null);
    const parsed = stored ? parseGraph(stored) : null;
    if (!parsed) return null;
    const graph = new CodeGraph(parsed.parts, parsed.centrality);
    return { generation: parsed.generation, graph, unpacked: this.packedFile !== null };
  }

  /** Keeps a build that waits to be kept now (before the index closes). */
  async saveUnsaved(): Promise<void> {
    const unsaved = this.unsaved;
    if (!unsaved) return;
    clearTimeout(unsaved.timer);
    this.unsaved = null;
    await this.save(unsaved.built);
  }

  private async save(built: BuiltGraph): Promise<void> {
    // Keeping it is only a saving: a read-only or busy index answers all the same.
    if (await this.savePacked(built).catch(() => false)) return;
    await this.store.state
      .setMeta(
        GRAPH_CACHE_KEY,
        serializeGraph(built.generation, built.graph, built.graph.centrality),
      )
      .catch(() => undefined);
  }

  /**
   * Writes the packed graph beside the index file (aside, then renamed, so no
   * reader sees half of it), then names it in the index; the text copy an
   * earlier version kept is emptied. False when there is no index file, or a
   * name in the graph cannot be packed.
   */
  private async savePacked(built: BuiltGraph): Promise<boolean> {
    if (!this.packedFile) return false;
    // Computed before packing, as a text save kept it: the next process need not.
    built.graph.centrality;
    const stamp = { generation: built.generation, id: randomUUID() };
    const packed = packGraph(built.graph, stamp);
    if (!packed) return false;
    const aside = `${this.packedFile}.${process.pid}.tmp`;
    try {
      await writePrivateFile(aside, packed);
      await rename(aside, this.packedFile);
    } catch (error) {
      // A full disk leaves part of a file: not kept beside the index.
      await rm(aside, { force: true }).catch(() => undefined);
      throw error;
    }
    await this.store.state.setMeta(PACKED_GRAPH_KEY, stampText(stamp));
    if (await this.store.state.getMeta(GRAPH_CACHE_KEY))
      await this.store.state.setMeta(GRAPH_CACHE_KEY, "");
    return true;
  }

  private async build(known?: KnownGraphFiles): Promise<BuiltGraph> {
    const loaded = await this.store.graph.loadGraph(known);
    return { generation: loaded.generation, graph: CodeGraph.fromRecords(loaded.files) };
  }

  /** `base` with the files written since its generation; null when a full build is called for. */
  private async update(base: KeptGraph): Promise<BuiltGraph | null> {
    const limit = Math.max(ALWAYS_UPDATED_FILES, MAX_UPDATED_SHARE * base.graph.files.length);
    const since = await this.store.graph.loadGraphSince(base.generation, limit);
    const written = since.written;
    // A graph from the future (the index file was put back from a copy) says nothing.
    if (!written || Number(since.generation) < Number(base.generation)) return null;
    // Users of a name a written file now defines more or less often than before resolve
    // it again; the uses of every other name lead to the same definitions as before.
    const names = new Set<string>();
    for (const record of written) {
      const counts = new Map<string, number>();
      for (const definition of record.definitions) {
        counts.set(definition.name, (counts.get(definition.name) ?? 0) + 1);
      }
      for (const file of base.graph.filesAt(record.path)) {
        if (file.resourceId !== record.resourceId) continue;
        for (const node of file.definitions) {
          const name = base.graph.nodes[node]?.name ?? "";
          counts.set(name, (counts.get(name) ?? 0) - 1);
        }
      }
      for (const [name, count] of counts) if (count !== 0) names.add(name);
    }
    const writtenKeys = new Set(written.map(graphFileKey));
    const reread = (await this.store.graph.loadGraphReferencing([...names])).filter(
      (record) => !writtenKeys.has(graphFileKey(record)),
    );
    // Rows read in two steps must be of one generation.
    if ((await this.store.graph.graphGeneration()) !== since.generation) return null;
    const updated = updateGraphParts(
      base.graph instanceof CodeGraph ? base.graph : base.graph.parts(),
      since.files,
      written,
      reread,
      base.graph.hasCentrality ? base.graph.centrality : undefined,
    );
    if (!updated) return null;
    const graph = new CodeGraph(updated.parts, null, updated.rankFrom ?? undefined);
    return { generation: since.generation, graph };
  }
}

function stampText(stamp: PackedStamp): string {
  return `${stamp.generation} ${stamp.id}`;
}
