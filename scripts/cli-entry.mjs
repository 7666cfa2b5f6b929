#!/usr/bin/env node
// The CLI's entry point, copied to dist/cli/main.js by scripts/bundle-cli.mjs
// beside the bundle it starts (dist/cli/run.js). Before loading anything else
// it asks Node (22.1 and later) to keep the code it compiles for the CLI's
// modules between runs, so that a command's start does not compile the same
// half-megabyte of JavaScript each time. The cache lives under the user's own
// cache folder, made private: cached code runs as the user, so it never goes
// in a folder other users can write (Node's default is the shared temp dir).
// A user's own NODE_COMPILE_CACHE (or NODE_DISABLE_COMPILE_CACHE) wins.
import { mkdirSync } from "node:fs";
import module from "node:module";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

if (typeof module.enableCompileCache === "function" && !process.env.NODE_COMPILE_CACHE) {
  try {
    const xdg = process.env.XDG_CACHE_HOME;
    const base = xdg && isAbsolute(xdg) ? xdg : join(homedir(), ".cache");
    const folder = join(base, "context-engine", "compile-cache");
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    module.enableCompileCache(folder);
  } catch {
    // No cache (a read-only home, say): the CLI runs the same, compiling as it goes.
  }
}
await import("./run.js");
