/** Domain types shared by ingest, store, strategies and assembly. */

import type { SymbolKind } from "./graph.js";

/** A root the index covers: a plain folder or a git checkout. */
export type ResourceKind = "folder" | "git";

export interface Resource {
  /** ULID, stable for the life of the index. */
  readonly id: string;
  /** Absolute, real path of the root. */
  readonly root: string;
  readonly kind: ResourceKind;
  readonly addedAt: string;
  readonly lastIndexedAt: string | null;
  /** Skipped files of the last run, by reason. */
  readonly skipped: SkipCounts;
  /** The files of the last full run kept out because they hold secrets (counted under "secret"). */
  readonly secretFiles: readonly SecretFile[];
  /** The other files the last full run skipped, by name (at most MAX_NAMED_SKIPS a reason). */
  readonly skippedFiles: readonly SkippedFile[];
}

/** A file (or a folder, ending in `/`) skipped for a reason other than secrets or a long path. */
export interface SkippedFile {
  readonly reason: SkipReason;
  /** Relative to its root. */
  readonly path: string;
  /** Its size when the size is why (too-large, over-total-limit), else null. */
  readonly bytes: number | null;
}

/**
 * Skipped files named a reason and a root; past this they are only counted
 * (a tree of many thousand ignored files must not weigh on every status).
 */
export const MAX_NAMED_SKIPS = 1000;

/** Adds a skip to the counts, and names it while its reason has fewer than MAX_NAMED_SKIPS. */
export function recordSkip(
  counts: SkipCounts,
  named: SkippedFile[],
  reason: SkipReason,
  path: string,
  bytes: number | null = null,
): void {
  if (counts[reason] < MAX_NAMED_SKIPS) named.push({ reason, path, bytes });
  counts[reason]++;
}

/** A file kept out of the index for holding secrets, and what showed it: never the secret. */
export interface SecretFile {
  /** Relative to its root. */
  readonly path: string;
  /** "file name", or what was found and where ("GitHub token on line 12"). */
  readonly found: string;
}

/** Why a file was not indexed. Every skip is counted under one of these. */
export type SkipReason =
  | "too-large"
  | "over-total-limit"
  | "binary"
  | "ignored"
  | "unreadable"
  | "outside-root"
  /** The path is past what the system can open (PATH_MAX): a folder counts once. */
  | "path-too-long"
  | "secret"
  /** An agent's config file that `ctx init` writes (.mcp.json…): setup, never an answer. */
  | "agent-config";

export const SKIP_REASONS: readonly SkipReason[] = [
  "too-large",
  "over-total-limit",
  "binary",
  "ignored",
  "unreadable",
  "outside-root",
  "path-too-long",
  "secret",
  "agent-config",
];

export type SkipCounts = Record<SkipReason, number>;

export function emptySkipCounts(): SkipCounts {
  return {
    "too-large": 0,
    "over-total-limit": 0,
    binary: 0,
    ignored: 0,
    unreadable: 0,
    "outside-root": 0,
    "path-too-long": 0,
    secret: 0,
    "agent-config": 0,
  };
}

/** What chunking found a span of a document to be. */
export type ChunkKind = Exclude<SymbolKind, "constant"> | "code" | "section" | "window" | "unit";

/** A chunk as the chunker produces it, before it is stored. */
export interface ChunkDraft {
  /** 1-based, inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  readonly kind: ChunkKind;
  /** Name of the symbol or heading chain the chunk is about; "" when none. */
  readonly symbol: string;
  /** Index, in the same draft list, of the enclosing chunk (class for a method). */
  readonly parent: number | null;
  /** Exactly the document's lines startLine..endLine. */
  readonly content: string;
  /**
   * Text that situates a continuation part (the signature of a split function,
   * the heading chain of a split section); indexed with the chunk and shown
   * before it, but not part of its line range.
   */
  readonly header: string;
  /** Other symbols defined inside the chunk, for search. */
  readonly defines: readonly string[];
  readonly tokens: number;
}

/** A stored chunk, as search results and fragments see it. */
export interface StoredChunk {
  readonly id: number;
  readonly documentId: number;
  readonly resourceId: string;
  readonly path: string;
  readonly language: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly kind: ChunkKind;
  readonly symbol: string;
  readonly parentId: number | null;
  /** Symbol of the enclosing chunk (the class of a method); "" when none. */
  readonly parentSymbol: string;
  readonly content: string;
  readonly header: string;
  /** Other symbols defined inside the chunk. */
  readonly defines: readonly string[];
  readonly context: string | null;
  readonly contextStatus: string | null;
  readonly hash: string;
  readonly tokens: number;
}

/** A document the store knows, with what incremental indexing compares. */
export interface DocumentState {
  readonly id: number;
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly hash: string;
}

/** Counts a run of `ctx index` reports. */
export interface IndexReport {
  readonly resources: readonly {
    readonly id: string;
    readonly root: string;
    readonly kind: ResourceKind;
  }[];
  readonly added: number;
  readonly changed: number;
  readonly removed: number;
  readonly unchanged: number;
  readonly chunks: number;
  readonly bytesRead: number;
  readonly skipped: SkipCounts;
  /** Files kept out for holding secrets, by root (only roots that have some). */
  readonly secretFiles: readonly { readonly root: string; readonly files: readonly SecretFile[] }[];
  /** The other skipped files by name, with the root's counts, by root (only roots that have some). */
  readonly skippedFiles: readonly {
    readonly root: string;
    readonly skipped: SkipCounts;
    readonly files: readonly SkippedFile[];
  }[];
  /**
   * Files and folders (these end in `/`) whose path is too long for the system
   * to open, by root (only roots that have some): counted under "path-too-long".
   */
  readonly longPaths: readonly { readonly root: string; readonly paths: readonly string[] }[];
  /**
   * Roots the index covers whose folder is gone (unmounted, deleted, moved away
   * from the project): their documents are kept as last indexed.
   */
  readonly missingRoots: readonly string[];
  /** Files indexed for their first part only, being over the most one file may give (by root). */
  readonly cutFiles: readonly { readonly root: string; readonly files: readonly CutFile[] }[];
  readonly elapsedMs: number;
}

/** A file indexed for its first `indexedBytes` of `size`. */
export interface CutFile {
  readonly path: string;
  readonly indexedBytes: number;
  readonly size: number;
}
