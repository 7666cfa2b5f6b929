/**
 * Each command's line in `ctx --help`: its usage and description, as its
 * registration declares them. `ctx --help` prints these without loading the
 * registrations (every command's module and what it imports, most of --help's
 * start-up); `ctx help` loads them all, and a test holds the two outputs equal.
 */
export const COMMAND_SUMMARIES: readonly (readonly [usage: string, description: string])[] = [
  [
    "index [options] [paths...]",
    "index folders or git checkouts (default: the roots already indexed, or this project)",
  ],
  [
    "query [options] <task...>",
    "assemble the context for a task within a token budget (indexes first if needed)",
  ],
  [
    "report [options] [request-id]",
    "show what a request did (the last one by default): budget by strategy, timings, every candidate and why it is in or out",
  ],
  ["search [options] <query...>", "rank indexed chunks by keyword relevance (BM25)"],
  [
    "symbols [options] <query>",
    "find definitions by name (exact, else without case; NAME* for a prefix)",
  ],
  ["refs [options] <symbol>", "a symbol's definitions and the places that use it"],
  [
    "map [options]",
    "the files and their most central definitions as signatures, ranked by the code graph, within a token budget",
  ],
  ["status [options]", "show what the index covers: roots, files, chunks, skipped files by reason"],
  [
    "eval [options] <dir>",
    "measure retrieval quality on a BEIR-format folder (corpus.jsonl, queries.jsonl, qrels/test.tsv)",
  ],
  [
    "migrate [options]",
    "copy an SQLite index (chunks, contexts, vectors, graph, history, plans) to a PostgreSQL server, paying for nothing again",
  ],
  [
    "languages [options]",
    "the languages ctx reads: extensions, how files are chunked, whether they join the code graph",
  ],
  ["strategies", "the retrieval strategies this project can use"],
  ["project", "this project's own settings, kept with its index"],
  ["plan", "plans and the decisions recorded in them (context for later work: ctx query --plan)"],
  [
    "serve [options]",
    "serve this project to agents over MCP: stdio by default, or Streamable HTTP with --http",
  ],
  [
    "watch [options]",
    "keep the index fresh without serving: index each saved file as it changes (Ctrl-C stops)",
  ],
  [
    "init [options] <agent>",
    "set an agent up to use ctx in this project: its MCP entry for ctx serve (merged into existing files, never clobbered)",
  ],
  [
    "trust [options] [path]",
    "let a project's ctx.toml choose code, credentials and destinations (custom strategies, model endpoints, API key variables, the store); any edit to the file takes it back",
  ],
  ["untrust [options] [path]", "take back the trust given to a project's ctx.toml"],
  [
    "hook [options] <agent>",
    "run as an agent's prompt hook (installed by ctx init claude-code --hook)",
  ],
];
