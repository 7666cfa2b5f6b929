// Preload (`node --import`) that records every module file the process loads into the file
// named by CTX_LOADED_MODULES: ES modules through a resolve hook, CommonJS through require's
// cache at exit. Tests use it to check what a command pulls in, without timing anything.
import { appendFileSync, writeFileSync } from "node:fs";
import { createRequire, register } from "node:module";

const list = process.env.CTX_LOADED_MODULES;
if (list) {
  writeFileSync(list, "");
  const hooks = `
    import { appendFileSync } from "node:fs";
    export async function resolve(specifier, context, next) {
      const resolved = await next(specifier, context);
      if (resolved.url.startsWith("file:")) appendFileSync(${JSON.stringify(list)}, resolved.url + "\\n");
      return resolved;
    }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
  const require = createRequire(import.meta.url);
  process.on("exit", () => {
    const cjs = Object.keys(require.cache).map((file) => `file://${file}`);
    appendFileSync(list, cjs.map((url) => `${url}\n`).join(""));
  });
}
