// Saves o200k's token table beside the compiled counter (part of `npm run build`),
// so each thread reads one file instead of parsing gpt-tokenizer's ranks.
import { writeFileSync } from "node:fs";
import { O200kTable, o200kRanks, TABLE_FILE } from "../dist/tokens/o200k-table.js";

writeFileSync(TABLE_FILE, O200kTable.fromRanks(o200kRanks()).toFile());
