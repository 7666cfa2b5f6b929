// Saves o200k's token table and its word vocabulary beside the compiled counter
// (part of `npm run build`), so each thread reads two files instead of parsing
// gpt-tokenizer's ranks and hashing its 200k tokens.
import { writeFileSync } from "node:fs";
import { O200kTable, o200kRanks, TABLE_FILE } from "../dist/tokens/o200k-table.js";
import { o200kWordsFromTable, WORDS_FILE, wordsFile } from "../dist/tokens/o200k-words.js";

writeFileSync(TABLE_FILE, O200kTable.fromRanks(o200kRanks()).toFile());
writeFileSync(WORDS_FILE, wordsFile(o200kWordsFromTable()));
