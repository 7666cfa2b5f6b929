import type { PreparedDocument, PrepareTask } from "./prepare-document.js";
import type { DocumentPreparer } from "./preparer.js";

/**
 * A preparer made on the first file it is given. Making one loads the chunkers
 * (tree-sitter's runtime, grammars' glue, graph extraction): a refresh that
 * finds nothing changed, as before every query on an up-to-date index, never
 * pays for that.
 */
export class LazyPreparer implements DocumentPreparer {
  private made: Promise<DocumentPreparer> | undefined;

  constructor(
    readonly parallelism: number,
    private readonly make: () => Promise<DocumentPreparer>,
  ) {}

  prepare(task: PrepareTask): Promise<PreparedDocument> {
    this.made ??= this.make();
    return this.made.then((preparer) => preparer.prepare(task));
  }

  async close(): Promise<void> {
    if (this.made) await (await this.made).close();
  }
}
