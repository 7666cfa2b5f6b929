// One index run in this thread (no workers), for counting its instructions under
// valgrind: `node --single-threaded bench/index-one-thread.mjs TREE DB GRAPH`.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ContextEngine } from "../dist/index.js";

const [tree, db, graph] = process.argv.slice(2);
if (!tree || !db || !graph) throw new Error("usage: index-one-thread.mjs TREE DB true|false");
writeFileSync(join(tree, "ctx.toml"), `[index]\ngraph = ${graph}\nworkers = 0\n`);
const engine = await ContextEngine.open({
  start: tree,
  db,
  env: { XDG_CONFIG_HOME: dirname(tree) },
});
await engine.index([tree]);
await engine.close();
