import type Database from "better-sqlite3";
import type { FileGraph } from "../../core/graph.js";
import { nameTerms, packReferences } from "./reference-lists.js";

/**
 * Writes one document's graph rows, inside the caller's transaction; they go
 * with their document (ON DELETE CASCADE).
 */
export class GraphWrites {
  private readonly insertDefinition: Database.Statement;
  private readonly insertReferences: Database.Statement;
  private readonly insertNames: Database.Statement;
  private readonly insertImport: Database.Statement;

  constructor(db: Database.Database) {
    this.insertDefinition = db.prepare(
      `INSERT INTO graph_definitions (document_id, name, kind, start_line, end_line, parent, signature, doc)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertReferences = db.prepare(
      "INSERT INTO graph_reference_lists (document_id, count, refs) VALUES (?, ?, ?)",
    );
    this.insertNames = db.prepare("INSERT INTO graph_reference_names (rowid, terms) VALUES (?, ?)");
    this.insertImport = db.prepare(
      "INSERT INTO graph_imports (document_id, specifier, line, names, targets, reexport) VALUES (?, ?, ?, ?, ?, ?)",
    );
  }

  insert(documentId: number, graph: FileGraph): void {
    for (const d of graph.definitions) {
      this.insertDefinition.run(
        documentId,
        d.name,
        d.kind,
        d.startLine,
        d.endLine,
        d.parent,
        d.signature,
        d.doc ?? "",
      );
    }
    if (graph.references.length > 0) {
      this.insertReferences.run(
        documentId,
        graph.references.length,
        packReferences(graph.references),
      );
      this.insertNames.run(documentId, nameTerms(graph.references));
    }
    for (const i of graph.imports) {
      this.insertImport.run(
        documentId,
        i.specifier,
        i.line,
        i.names.join(","),
        JSON.stringify(i.targets),
        i.reexport ? 1 : 0,
      );
    }
  }
}
