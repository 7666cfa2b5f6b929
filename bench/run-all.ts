/** `npm run bench`: every benchmark, one after the other, figures printed. */
console.log("== indexing and queries: three.js ==");
await import("./index-and-query.js");
