import { NAME_TERM_FUNCTION } from "./reference-lists.js";

/**
 * Schema migrations, applied in order; `SCHEMA_VERSION` is the number of the last.
 * A migration is never edited once released: add a new one instead.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: resources, documents, chunks and their full-text index.
  `
  CREATE TABLE resources (
    id TEXT PRIMARY KEY,
    root TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('folder', 'git')),
    added_at TEXT NOT NULL,
    last_indexed_at TEXT,
    skipped TEXT NOT NULL DEFAULT '{}'
  );

  CREATE TABLE documents (
    id INTEGER PRIMARY KEY,
    resource_id TEXT NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    language TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ms INTEGER NOT NULL,
    hash TEXT NOT NULL,
    UNIQUE (resource_id, path)
  );

  CREATE TABLE chunks (
    id INTEGER PRIMARY KEY,
    document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    kind TEXT NOT NULL,
    symbol TEXT NOT NULL,
    parent_id INTEGER REFERENCES chunks(id) ON DELETE SET NULL,
    content TEXT NOT NULL,
    header TEXT NOT NULL,
    defines TEXT NOT NULL,
    context TEXT,
    tokens INTEGER NOT NULL
  );
  CREATE INDEX chunks_by_document ON chunks(document_id, ordinal);
  CREATE INDEX chunks_by_parent ON chunks(parent_id) WHERE parent_id IS NOT NULL;

  -- Terms come pre-split by the code-aware tokenizer; FTS5 only stems them.
  CREATE VIRTUAL TABLE chunks_fts USING fts5(
    path, symbols, context, body,
    content = '', contentless_delete = 1,
    tokenize = 'porter unicode61 remove_diacritics 2'
  );
  `,
  // 2: per-project records (strategy overrides) and circuit breakers.
  `
  CREATE TABLE projects (
    name TEXT PRIMARY KEY,
    enabled_strategies TEXT,
    updated_at TEXT
  );

  CREATE TABLE strategy_breakers (
    project TEXT NOT NULL,
    strategy TEXT NOT NULL,
    failures INTEGER NOT NULL,
    opened_at INTEGER,
    PRIMARY KEY (project, strategy)
  );
  `,
  // 3: chunk hashes and context state; the context cache.
  `
  ALTER TABLE chunks ADD COLUMN hash TEXT NOT NULL DEFAULT '';
  ALTER TABLE chunks ADD COLUMN context_key TEXT;
  ALTER TABLE chunks ADD COLUMN context_status TEXT;

  CREATE TABLE context_cache (
    key TEXT PRIMARY KEY,
    context TEXT NOT NULL,
    generator TEXT NOT NULL,
    model TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  `,
  // 4: vectors. A chunk's embed hash names the text it is embedded as (context +
  // content); each embedder's vectors live in their own sqlite-vec table.
  `
  ALTER TABLE chunks ADD COLUMN embed_hash TEXT NOT NULL DEFAULT '';
  CREATE INDEX chunks_by_embed_hash ON chunks(embed_hash);

  CREATE TABLE embedders (
    id TEXT PRIMARY KEY,
    dimensions INTEGER NOT NULL,
    vector_table TEXT NOT NULL UNIQUE
  );

  CREATE TABLE embedding_rows (
    rowid INTEGER PRIMARY KEY,
    embedder TEXT NOT NULL REFERENCES embedders(id) ON DELETE CASCADE,
    embed_hash TEXT NOT NULL,
    UNIQUE (embedder, embed_hash)
  );
  `,
  // 5: deleted full-text rows are reclaimed by SqliteStore.compact, not by FTS5
  // rewriting a segment each time a tenth of it is deleted, which made
  // re-indexing every file take half again as long as indexing it.
  `
  INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('deletemerge', 100);
  `,
  // 6: the refresh before every query looks for chunks whose context is not the
  // generator's; without an index that read the whole chunks table each time.
  `
  CREATE INDEX chunks_by_context_key ON chunks(context_key);
  `,
  // 7: the code graph. Rows belong to a document and are replaced with its
  // chunks; references and imports name what they use, and are resolved to
  // definitions and files when asked, so a file that changes re-resolves the
  // references of files that did not.
  `
  CREATE TABLE graph_definitions (
    id INTEGER PRIMARY KEY,
    document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    parent TEXT NOT NULL,
    signature TEXT NOT NULL
  );
  CREATE INDEX graph_definitions_by_name ON graph_definitions(name);
  CREATE INDEX graph_definitions_by_lower_name ON graph_definitions(lower(name));
  CREATE INDEX graph_definitions_by_document ON graph_definitions(document_id);

  CREATE TABLE graph_references (
    document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    lines TEXT NOT NULL
  );
  CREATE INDEX graph_references_by_name ON graph_references(name);
  CREATE INDEX graph_references_by_document ON graph_references(document_id);

  CREATE TABLE graph_imports (
    document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    specifier TEXT NOT NULL,
    line INTEGER NOT NULL,
    names TEXT NOT NULL,
    targets TEXT NOT NULL,
    reexport INTEGER NOT NULL
  );
  CREATE INDEX graph_imports_by_document ON graph_imports(document_id);
  CREATE INDEX graph_reexports ON graph_imports(document_id) WHERE reexport = 1;
  `,
  // 8: each document carries the graph generation it was written in, so a graph
  // built at an older generation is brought up to date from the files written
  // since, not rebuilt from every file's rows.
  `
  ALTER TABLE documents ADD COLUMN graph_generation INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX documents_by_graph_generation ON documents(graph_generation);
  `,
  // 9: git history. A change row keeps the file's path in that commit and its
  // lineage, the name it has now (renames followed), so a file's history and
  // its co-changes are one indexed lookup; hunks stay in git.
  `
  CREATE TABLE history_commits (
    id INTEGER PRIMARY KEY,
    resource_id TEXT NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
    sha TEXT NOT NULL,
    parents TEXT NOT NULL,
    author TEXT NOT NULL,
    email TEXT NOT NULL,
    authored_at TEXT NOT NULL,
    committed_at INTEGER NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    file_count INTEGER NOT NULL,
    UNIQUE (resource_id, sha)
  );
  CREATE INDEX history_commits_by_time ON history_commits(resource_id, committed_at);

  CREATE TABLE history_changes (
    commit_id INTEGER NOT NULL REFERENCES history_commits(id) ON DELETE CASCADE,
    resource_id TEXT NOT NULL,
    path TEXT NOT NULL,
    old_path TEXT,
    lineage TEXT NOT NULL,
    added INTEGER,
    removed INTEGER
  );
  CREATE INDEX history_changes_by_commit ON history_changes(commit_id);
  CREATE INDEX history_changes_by_lineage ON history_changes(resource_id, lineage, commit_id);

  CREATE TABLE history_heads (
    resource_id TEXT PRIMARY KEY REFERENCES resources(id) ON DELETE CASCADE,
    head TEXT NOT NULL
  );
  `,
  // 10: plans and the decisions recorded in them, per project.
  `
  CREATE TABLE plans (
    id INTEGER PRIMARY KEY,
    project TEXT NOT NULL,
    parent_id INTEGER REFERENCES plans(id),
    title TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'closed')),
    outcome TEXT,
    created_at TEXT NOT NULL,
    closed_at TEXT
  );
  CREATE INDEX plans_by_project ON plans(project, id);

  CREATE TABLE plan_decisions (
    id INTEGER PRIMARY KEY,
    plan_id INTEGER NOT NULL REFERENCES plans(id) ON DELETE CASCADE,
    what TEXT NOT NULL,
    why TEXT NOT NULL,
    alternatives TEXT NOT NULL,
    outcome TEXT,
    decided_at TEXT NOT NULL
  );
  CREATE INDEX plan_decisions_by_plan ON plan_decisions(plan_id, id);
  `,
  // 11: a definition keeps its doc comment; commit messages are searchable by
  // word (rowid = the commit's id), so a task's words lead to the files that
  // changed for like reasons. A trigger drops a message with its commit,
  // cascades included; messages already stored are indexed here.
  `
  ALTER TABLE graph_definitions ADD COLUMN doc TEXT NOT NULL DEFAULT '';

  CREATE VIRTUAL TABLE commit_messages USING fts5(
    subject, body,
    content = '', contentless_delete = 1,
    tokenize = 'porter unicode61 remove_diacritics 2'
  );
  INSERT INTO commit_messages (rowid, subject, body) SELECT id, subject, body FROM history_commits;
  CREATE TRIGGER commit_message_gone AFTER DELETE ON history_commits
  BEGIN DELETE FROM commit_messages WHERE rowid = old.id; END;
  `,
  // 12: a document's references in one row of packed text (see reference-lists.ts),
  // and its names in a full-text table that finds the documents using a name;
  // the rows of schema 11 are packed here, in the order they were written.
  `
  CREATE TABLE graph_reference_lists (
    document_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
    count INTEGER NOT NULL,
    refs TEXT NOT NULL
  );
  CREATE VIRTUAL TABLE graph_reference_names USING fts5(
    terms,
    content = '', contentless_delete = 1, detail = none,
    tokenize = "unicode61 remove_diacritics 0 tokenchars '_$'"
  );
  CREATE TRIGGER graph_reference_list_gone AFTER DELETE ON graph_reference_lists
  BEGIN DELETE FROM graph_reference_names WHERE rowid = old.document_id; END;

  INSERT INTO graph_reference_lists (document_id, count, refs)
    SELECT document_id, count(*),
      group_concat(
        CASE kind WHEN 'call' THEN 'c' WHEN 'import' THEN 'i' WHEN 'type' THEN 't'
          WHEN 'inherit' THEN 'h' ELSE 'u' END || name || char(9) || lines,
        char(10) ORDER BY rowid)
    FROM graph_references GROUP BY document_id;
  INSERT INTO graph_reference_names (rowid, terms)
    SELECT document_id, group_concat(DISTINCT ${NAME_TERM_FUNCTION}(name))
    FROM graph_references GROUP BY document_id;
  DROP TABLE graph_references;
  `,
  // 13: the identifiers a commit's diff touched, for words-to-code associations
  // (NULL: not read yet, so commits stored before are read on the next run).
  `ALTER TABLE history_commits ADD COLUMN identifiers TEXT;`,
  // 14: commit messages indexed over history_commits (external content) rather
  // than contentless: a contentless table keeps counting a deleted row in the
  // row count and average lengths BM25 divides by, so after a prune, a rewrite
  // or a run cut short the scores differed from a fresh index's. A delete now
  // hands FTS5 the row's text, which takes it out of those figures too.
  `
  DROP TRIGGER commit_message_gone;
  DROP TABLE commit_messages;
  CREATE VIRTUAL TABLE commit_messages USING fts5(
    subject, body,
    content = 'history_commits', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
  );
  INSERT INTO commit_messages (commit_messages) VALUES ('rebuild');
  CREATE TRIGGER commit_message_gone AFTER DELETE ON history_commits
  BEGIN
    INSERT INTO commit_messages (commit_messages, rowid, subject, body)
      VALUES ('delete', old.id, old.subject, old.body);
  END;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
