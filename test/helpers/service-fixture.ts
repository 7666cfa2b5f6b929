/**
 * A small service: a handler calls the router (imported through a barrel
 * file), the router calls path helpers; an unrelated module stands apart.
 */
export const SERVICE = {
  "src/util/paths.ts":
    'export function splitPath(path: string): string[] {\n  return path.split("/").filter(Boolean);\n}\n\nexport function joinPath(parts: string[]): string {\n  return parts.join("/");\n}\n',
  "src/http/router.ts":
    'import { splitPath } from "../util/paths";\n\nexport interface Route {\n  pattern: string;\n}\n\nexport function matchRoute(routes: Route[], url: string): Route | undefined {\n  const parts = splitPath(url);\n  return routes.find((route) => splitPath(route.pattern).length === parts.length);\n}\n',
  "src/index.ts": 'export { matchRoute, type Route } from "./http/router";\n',
  "src/server.ts":
    'import { matchRoute, type Route } from "./index";\n\nconst routes: Route[] = [];\n\n/** Answers one incoming request. */\nexport function handleRequest(url: string): number {\n  const route = matchRoute(routes, url);\n  return route ? 200 : 404;\n}\n',
  "src/files.ts":
    'import { joinPath, splitPath } from "./util/paths";\n\nexport function parentFolder(path: string): string {\n  return joinPath(splitPath(path).slice(0, -1));\n}\n',
  "src/colors.ts":
    "export function mixColors(a: number, b: number): number {\n  return (a + b) / 2;\n}\n\nexport function darken(color: number): number {\n  return mixColors(color, 0);\n}\n",
  "pkg/helpers.py": "def normalize(text):\n    return text.strip().lower()\n",
  "pkg/core.py":
    "from .helpers import normalize\n\n\ndef tokens(text):\n    return normalize(text).split()\n",
};
