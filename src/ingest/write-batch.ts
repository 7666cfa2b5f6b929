import type { DocumentToStore, Store } from "../core/store.js";

/**
 * Documents written per transaction: a commit per file cost a third of the
 * write time, while one huge transaction would hold the event loop (and an
 * MCP server's queries) for as long as it writes.
 */
const WRITE_BATCH_FILES = 64;
const WRITE_BATCH_BYTES = 2 * 1024 * 1024;

/**
 * Documents waiting to be written together. A full batch is written while the
 * next one fills (one write in flight, in order): on a server the write is a
 * round trip whose time the main thread would otherwise spend waiting. Each
 * batch is still one transaction of whole files.
 */
export class WriteBatch {
  private documents: DocumentToStore[] = [];
  private bytes = 0;
  private writing: Promise<void> | null = null;

  constructor(
    private readonly store: Store,
    private readonly onWritten?: (documents: readonly DocumentToStore[]) => void,
  ) {}

  async add(document: DocumentToStore): Promise<void> {
    this.documents.push(document);
    this.bytes += document.size;
    if (this.documents.length >= WRITE_BATCH_FILES || this.bytes >= WRITE_BATCH_BYTES) {
      await this.startWrite();
    }
  }

  /** Writes what is waiting and waits for every write to be committed. */
  async flush(): Promise<void> {
    await this.startWrite();
    await this.settle();
  }

  /** Waits for the write in flight (its failure is thrown here), then starts the next one. */
  private async startWrite(): Promise<void> {
    await this.settle();
    const documents = this.documents;
    if (documents.length === 0) return;
    this.documents = [];
    this.bytes = 0;
    const write = this.store.documents
      .writeDocuments(documents)
      .then(() => this.onWritten?.(documents));
    // Awaited by the next settle(); this only keeps it from counting as unhandled meanwhile.
    write.catch(() => undefined);
    this.writing = write;
  }

  private async settle(): Promise<void> {
    const write = this.writing;
    this.writing = null;
    if (write) await write;
  }
}
