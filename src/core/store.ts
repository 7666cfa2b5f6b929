import type { BreakerRecord } from "./breaker.js";
import type { TextBackend } from "./text-backend.js";
import type {
  ChunkDraft,
  DocumentState,
  Resource,
  ResourceKind,
  SkipCounts,
  StoredChunk,
} from "./types.js";

/**
 * A chunk's searchable fields, each already turned into space-separated index
 * terms by the code-aware tokenizer, so every store ranks the same terms.
 */
export interface SearchText {
  readonly path: string;
  readonly symbols: string;
  readonly context: string;
  readonly body: string;
}

export interface ChunkToStore extends ChunkDraft {
  readonly search: SearchText;
}

export interface DocumentToStore {
  readonly resourceId: string;
  readonly path: string;
  readonly language: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly hash: string;
  readonly chunks: readonly ChunkToStore[];
}

export interface StoreStats {
  readonly schemaVersion: number;
  readonly resources: number;
  readonly documents: number;
  readonly chunks: number;
  readonly bytes: number;
  readonly lastIndexedAt: string | null;
  readonly languages: Readonly<Record<string, number>>;
}

/** A project's own record: per-project overrides that live with its index. */
export interface ProjectRecord {
  /** Namespaced name, e.g. `local/my-project`. */
  readonly name: string;
  /** Strategies enabled for this project, replacing the configured list; null: use the config. */
  readonly enabledStrategies: readonly string[] | null;
  readonly updatedAt: string | null;
}

/**
 * Persistent index: resources, documents, chunks and their full-text index.
 * SQL dialects stay inside adapters; the core only sees this interface.
 */
export interface Store extends TextBackend {
  /** Where the store lives, for messages (a file path or a connection name). */
  readonly location: string;
  listResources(): Promise<Resource[]>;
  /** Returns the resource for `root`, recording it when new. */
  ensureResource(root: string, kind: ResourceKind): Promise<Resource>;
  /** Records a finished index run of a resource and what it skipped. */
  recordRun(resourceId: string, skipped: SkipCounts, finishedAt: string): Promise<void>;
  listDocuments(resourceId: string): Promise<DocumentState[]>;
  /** Replaces the document at (resourceId, path) and all its chunks, atomically. */
  writeDocument(document: DocumentToStore): Promise<void>;
  /** Records a new size/mtime for a document whose content did not change. */
  touchDocument(documentId: number, size: number, mtimeMs: number): Promise<void>;
  /** Deletes documents, their chunks and index entries, atomically. */
  removeDocuments(documentIds: readonly number[]): Promise<void>;
  getChunks(chunkIds: readonly number[]): Promise<StoredChunk[]>;
  /** Chunks of one document in line order. */
  getDocumentChunks(resourceId: string, path: string): Promise<StoredChunk[]>;
  stats(): Promise<StoreStats>;
  /** The project's record (an empty one when never written). */
  getProject(name: string): Promise<ProjectRecord>;
  /** Sets (or with null clears) the project's enabled-strategy override. */
  setProjectStrategies(name: string, strategies: readonly string[] | null): Promise<void>;
  listBreakers(project: string): Promise<BreakerRecord[]>;
  saveBreaker(project: string, record: BreakerRecord): Promise<void>;
  close(): Promise<void>;
}
