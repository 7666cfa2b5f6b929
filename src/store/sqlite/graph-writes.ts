import type Database from "better-sqlite3";
import type { FileGraph } from "../../core/graph.js";

/**
 * Writes one document's graph rows, inside the caller's transaction; they go
 * with their document (ON DELETE CASCADE).
 */
export class GraphWrites {
  private readonly insertDefinition: Database.Statement;
  private readonly insertReference: Database.Statement;
  private readonly insertImport: Database.Statement;

  constructor(db: Database.Database) {
    this.insertDefinition = db.prepare(
      `INSERT INTO graph_definitions (document_id, name, kind, start_line, end_line, parent, signature, doc)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertReference = db.prepare(
      "INSERT INTO graph_references (document_id, name, kind, lines) VALUES (?, ?, ?, ?)",
    );
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
    for (const r of graph.references) {
      this.insertReference.run(documentId, r.name, r.kind, r.lines.join(","));
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
