/**
 * The PostgreSQL store's schema, applied in order inside one schema of the
 * database; `PG_SCHEMA_VERSION` is the number of the last. A migration is never
 * edited once released: add a new one instead.
 *
 * Every row carries its project (`project_id`), and every query names it, so
 * projects sharing a database never see each other's rows. Documents, chunks,
 * commits and plans take ids from sequences shared by all projects.
 */
export const PG_MIGRATIONS: readonly string[] = [
  // 1: everything the SQLite store's migrations 1-11 hold, per project.
  `
  CREATE TABLE ctx_projects (
    id serial PRIMARY KEY,
    name text NOT NULL UNIQUE,
    graph_generation bigint NOT NULL DEFAULT 0,
    -- BM25's collection statistics, kept exact in each write's transaction.
    text_chunks bigint NOT NULL DEFAULT 0,
    text_tokens bigint NOT NULL DEFAULT 0,
    commit_messages bigint NOT NULL DEFAULT 0,
    commit_tokens bigint NOT NULL DEFAULT 0
  );

  CREATE TABLE project_meta (
    project_id integer NOT NULL REFERENCES ctx_projects(id) ON DELETE CASCADE,
    key text NOT NULL,
    value text NOT NULL,
    PRIMARY KEY (project_id, key)
  );

  CREATE TABLE leases (
    project_id integer NOT NULL REFERENCES ctx_projects(id) ON DELETE CASCADE,
    name text NOT NULL,
    holder text NOT NULL,
    taken_at bigint NOT NULL,
    PRIMARY KEY (project_id, name)
  );

  CREATE TABLE resources (
    project_id integer NOT NULL REFERENCES ctx_projects(id) ON DELETE CASCADE,
    id text NOT NULL,
    root text NOT NULL,
    kind text NOT NULL CHECK (kind IN ('folder', 'git')),
    added_at text NOT NULL,
    last_indexed_at text,
    skipped text NOT NULL DEFAULT '{}',
    PRIMARY KEY (project_id, id),
    UNIQUE (project_id, root)
  );

  CREATE TABLE documents (
    id bigserial PRIMARY KEY,
    project_id integer NOT NULL,
    resource_id text NOT NULL,
    path text NOT NULL,
    language text NOT NULL,
    size bigint NOT NULL,
    mtime_ms bigint NOT NULL,
    hash text NOT NULL,
    graph_generation bigint NOT NULL DEFAULT 0,
    UNIQUE (project_id, resource_id, path),
    FOREIGN KEY (project_id, resource_id) REFERENCES resources(project_id, id) ON DELETE CASCADE
  );
  CREATE INDEX documents_by_path ON documents (project_id, path);
  CREATE INDEX documents_by_generation ON documents (project_id, graph_generation);

  CREATE TABLE chunks (
    id bigserial PRIMARY KEY,
    project_id integer NOT NULL,
    document_id bigint NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    ordinal integer NOT NULL,
    start_line integer NOT NULL,
    end_line integer NOT NULL,
    kind text NOT NULL,
    symbol text NOT NULL,
    parent_id bigint,
    content text NOT NULL,
    header text NOT NULL,
    defines text NOT NULL,
    context text,
    tokens integer NOT NULL,
    hash text NOT NULL,
    context_key text,
    context_status text,
    embed_hash text NOT NULL,
    -- Tokens in all four fields: the document length BM25 divides by.
    text_length integer NOT NULL
  );
  CREATE INDEX chunks_by_document ON chunks (document_id, ordinal);
  CREATE INDEX chunks_by_project ON chunks (project_id, id);
  CREATE INDEX chunks_by_embed_hash ON chunks (project_id, embed_hash);
  CREATE INDEX chunks_by_context_key ON chunks (project_id, context_key);

  -- The inverted index: per chunk and token, how often it occurs in each field,
  -- with the chunk's length, so a query ranks from this table alone.
  CREATE TABLE chunk_terms (
    project_id integer NOT NULL,
    term text NOT NULL,
    chunk_id bigint NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
    tf_path integer NOT NULL,
    tf_symbols integer NOT NULL,
    tf_context integer NOT NULL,
    tf_body integer NOT NULL,
    text_length integer NOT NULL,
    PRIMARY KEY (project_id, term, chunk_id)
  );
  CREATE INDEX chunk_terms_by_chunk ON chunk_terms (chunk_id);

  CREATE TABLE project_settings (
    project_id integer NOT NULL REFERENCES ctx_projects(id) ON DELETE CASCADE,
    name text NOT NULL,
    enabled_strategies text,
    updated_at text,
    PRIMARY KEY (project_id, name)
  );

  CREATE TABLE strategy_breakers (
    project_id integer NOT NULL REFERENCES ctx_projects(id) ON DELETE CASCADE,
    project text NOT NULL,
    strategy text NOT NULL,
    failures integer NOT NULL,
    opened_at bigint,
    PRIMARY KEY (project_id, project, strategy)
  );

  CREATE TABLE context_cache (
    project_id integer NOT NULL REFERENCES ctx_projects(id) ON DELETE CASCADE,
    key text NOT NULL,
    context text NOT NULL,
    generator text NOT NULL,
    model text NOT NULL,
    created_at text NOT NULL,
    PRIMARY KEY (project_id, key)
  );

  -- Each embedder's vectors live in a table of their own (a pgvector column has one dimension).
  CREATE TABLE embedders (
    id text PRIMARY KEY,
    dimensions integer NOT NULL,
    vector_table text NOT NULL UNIQUE
  );

  CREATE TABLE graph_definitions (
    id bigserial PRIMARY KEY,
    project_id integer NOT NULL,
    document_id bigint NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    name text NOT NULL,
    kind text NOT NULL,
    start_line integer NOT NULL,
    end_line integer NOT NULL,
    parent text NOT NULL,
    signature text NOT NULL,
    doc text NOT NULL DEFAULT ''
  );
  CREATE INDEX graph_definitions_by_name ON graph_definitions (project_id, name);
  CREATE INDEX graph_definitions_by_lower_name ON graph_definitions (project_id, lower(name));
  CREATE INDEX graph_definitions_by_document ON graph_definitions (document_id);

  CREATE TABLE graph_references (
    id bigserial PRIMARY KEY,
    project_id integer NOT NULL,
    document_id bigint NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    name text NOT NULL,
    kind text NOT NULL,
    lines text NOT NULL
  );
  CREATE INDEX graph_references_by_name ON graph_references (project_id, name);
  CREATE INDEX graph_references_by_document ON graph_references (document_id);

  CREATE TABLE graph_imports (
    id bigserial PRIMARY KEY,
    project_id integer NOT NULL,
    document_id bigint NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    specifier text NOT NULL,
    line integer NOT NULL,
    names text NOT NULL,
    targets text NOT NULL,
    reexport boolean NOT NULL
  );
  CREATE INDEX graph_imports_by_document ON graph_imports (document_id);
  CREATE INDEX graph_reexports ON graph_imports (project_id) WHERE reexport;

  CREATE TABLE history_commits (
    id bigserial PRIMARY KEY,
    project_id integer NOT NULL,
    resource_id text NOT NULL,
    sha text NOT NULL,
    parents text NOT NULL,
    author text NOT NULL,
    email text NOT NULL,
    authored_at text NOT NULL,
    committed_at bigint NOT NULL,
    subject text NOT NULL,
    body text NOT NULL,
    file_count integer NOT NULL,
    message_length integer NOT NULL,
    UNIQUE (project_id, resource_id, sha),
    FOREIGN KEY (project_id, resource_id) REFERENCES resources(project_id, id) ON DELETE CASCADE
  );
  CREATE INDEX history_commits_by_time ON history_commits (project_id, resource_id, committed_at);

  CREATE TABLE history_changes (
    id bigserial PRIMARY KEY,
    commit_id bigint NOT NULL REFERENCES history_commits(id) ON DELETE CASCADE,
    project_id integer NOT NULL,
    resource_id text NOT NULL,
    path text NOT NULL,
    old_path text,
    lineage text NOT NULL,
    added integer,
    removed integer
  );
  CREATE INDEX history_changes_by_commit ON history_changes (commit_id);
  CREATE INDEX history_changes_by_lineage ON history_changes (project_id, resource_id, lineage, commit_id);

  CREATE TABLE commit_terms (
    project_id integer NOT NULL,
    term text NOT NULL,
    commit_id bigint NOT NULL REFERENCES history_commits(id) ON DELETE CASCADE,
    tf_subject integer NOT NULL,
    tf_body integer NOT NULL,
    message_length integer NOT NULL,
    PRIMARY KEY (project_id, term, commit_id)
  );
  CREATE INDEX commit_terms_by_commit ON commit_terms (commit_id);

  CREATE TABLE history_heads (
    project_id integer NOT NULL,
    resource_id text NOT NULL,
    head text NOT NULL,
    PRIMARY KEY (project_id, resource_id),
    FOREIGN KEY (project_id, resource_id) REFERENCES resources(project_id, id) ON DELETE CASCADE
  );

  CREATE TABLE plans (
    id bigserial PRIMARY KEY,
    project_id integer NOT NULL REFERENCES ctx_projects(id) ON DELETE CASCADE,
    project text NOT NULL,
    parent_id bigint REFERENCES plans(id),
    title text NOT NULL,
    status text NOT NULL CHECK (status IN ('open', 'closed')),
    outcome text,
    created_at text NOT NULL,
    closed_at text
  );
  CREATE INDEX plans_by_project ON plans (project_id, project, id);

  CREATE TABLE plan_decisions (
    id bigserial PRIMARY KEY,
    plan_id bigint NOT NULL REFERENCES plans(id) ON DELETE CASCADE,
    what text NOT NULL,
    why text NOT NULL,
    alternatives text NOT NULL,
    outcome text,
    decided_at text NOT NULL
  );
  CREATE INDEX plan_decisions_by_plan ON plan_decisions (plan_id, id);
  `,
  // 2: chunk_terms loses its foreign key to chunks. Checking it cost a lookup and a
  // row lock on chunks for every term row written (about 60 a chunk): a fifth to a
  // quarter of the server's time when indexing. Every path that removes chunks
  // (deleteDocuments, a chunk's re-tokenizing) deletes their term rows itself, in
  // the same transaction, so nothing is left pointing at a removed chunk.
  `ALTER TABLE chunk_terms DROP CONSTRAINT IF EXISTS chunk_terms_chunk_id_fkey;`,
  // 3: chunk_terms' key carries the columns BM25 reads, so a search reads each
  // term's postings from the index alone (an index-only scan) instead of one heap
  // page per posting: rows are written chunk by chunk, a term's rows lie on as many
  // pages as it has chunks (43 ms to 9 ms for a six-term query on three.js).
  `ALTER TABLE chunk_terms DROP CONSTRAINT chunk_terms_pkey,
     ADD CONSTRAINT chunk_terms_pkey PRIMARY KEY (project_id, term, chunk_id)
       INCLUDE (tf_path, tf_symbols, tf_context, tf_body, text_length);`,
  // 4: the identifiers a commit's diff touched, for words-to-code associations
  // (NULL: not read yet, so commits stored before are read on the next run).
  `ALTER TABLE history_commits ADD COLUMN identifiers text;`,
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;
