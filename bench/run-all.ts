/** `npm run bench`: every benchmark, one after the other, figures printed. */
console.log("== start-up: ctx --version, a query and the prompt hook against a bare node ==");
await import("./start-up.js");
console.log("");
console.log("== indexing and queries: three.js ==");
await import("./index-and-query.js");
console.log("\n== query speed at ~100k chunks: eight npm packages ==");
await import("./query-speed.js");
console.log("\n== code graph: three.js ==");
await import("./graph.js");
console.log("\n== git history: 10,000 generated commits, and vuejs/core ==");
await import("./history.js");
console.log("\n== index speed per language: one thread, beside the parse floor ==");
await import("./languages.js");
console.log("\n== hostile files: a 1 MB identifier, o200k on long pieces, a 300 MB file ==");
await import("./hostile-files.js");
console.log(
  "\n== speed tricks on and off: parser shortcuts, pruned and split search (three.js) ==",
);
await import("./speed-tricks.js");
console.log("\n== strategy pipeline overhead: three.js ==");
await import("./pipeline-overhead.js");
console.log("\n== MCP: 50 concurrent get_context during refresh_index ==");
await import("./mcp-load.js");
console.log("\n== MCP: 32 agents on one cold ctx serve --http, then 10,000 sessions left open ==");
await import("./mcp-agents.js");
console.log("\n== watching: save-to-searchable latency, three.js ==");
await import("./watch-latency.js");
console.log("\n== vectors: exact (sqlite-vec) and ANN (usearch) at 100k; embedding throughput ==");
await import("./vectors.js");
console.log("\n== PostgreSQL beside SQLite: three.js, 150 queries, 16 concurrent clients ==");
await import("./postgres.js");
console.log(
  "\n== PostgreSQL at scale: npm package releases as projects of one database, to 1M chunks ==",
);
await import("./postgres-scale.js");
console.log(
  "\n== big trees: queries at 2,000 and 200,000 generated files (CTX_BENCH_BIG_TREE: the larger size) ==",
);
await import("./big-tree.js");
