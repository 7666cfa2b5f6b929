import { cpSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "./temp-dir.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * ctx as `npm install context-engine` lays it out, without any optional peer
 * dependency: the built package in an app's node_modules beside its runtime
 * dependencies (links to ours), so Node finds exactly what an install without
 * the optional packages has. Returns the path of its `ctx` binary.
 */
export function installedWithoutOptionalPackages(): string {
  const app = tempDir("ctx-installed-");
  const modules = join(app, "node_modules");
  const own = join(modules, "context-engine");
  mkdirSync(own, { recursive: true });
  cpSync(join(ROOT, "dist"), join(own, "dist"), { recursive: true });
  cpSync(join(ROOT, "package.json"), join(own, "package.json"));
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  for (const name of Object.keys(manifest.dependencies)) {
    const link = join(modules, name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(ROOT, "node_modules", name), link, "dir");
  }
  return join(own, "dist", "cli", "main.js");
}
