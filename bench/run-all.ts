/** `npm run bench`: every benchmark, one after the other, figures printed. */
console.log("== indexing and queries: three.js ==");
await import("./index-and-query.js");
console.log("\n== strategy pipeline overhead: three.js ==");
await import("./pipeline-overhead.js");
