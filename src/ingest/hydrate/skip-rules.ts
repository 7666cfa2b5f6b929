/** Folders never indexed: VCS metadata, dependency trees, caches, build output, our own index. */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set([
  ".git",
  ".hg",
  ".svn",
  "__pycache__",
  "node_modules",
  ".venv",
  "venv",
  ".nox",
  ".tox",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
  "dist",
  "build",
  ".eggs",
  ".ctx",
  ".next",
  ".nuxt",
  ".gradle",
  ".cache",
]);

/**
 * The agent config files `ctx init` writes or merges into, relative to the
 * project root: how an agent starts ctx, never an answer to a question (the
 * hook command they hold would otherwise come back as a fragment).
 */
export const AGENT_CONFIG_FILES: ReadonlySet<string> = new Set([
  ".mcp.json",
  ".cursor/mcp.json",
  ".codex/config.toml",
  ".claude/settings.json",
  ".claude/settings.local.json",
]);

/**
 * Extensions that are binary whatever their content looks like. Files with other
 * extensions are still checked by content, so this list is only a fast path.
 */
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set([
  ".pyc",
  ".pyo",
  ".so",
  ".o",
  ".a",
  ".dll",
  ".exe",
  ".dylib",
  ".lib",
  ".obj",
  ".class",
  ".jar",
  ".war",
  ".png",
  ".jpg",
  ".jpeg",
  ".gif",
  ".bmp",
  ".ico",
  ".webp",
  ".tiff",
  ".psd",
  ".pdf",
  ".zip",
  ".tar",
  ".gz",
  ".tgz",
  ".bz2",
  ".xz",
  ".zst",
  ".7z",
  ".rar",
  ".whl",
  ".egg",
  ".db",
  ".sqlite",
  ".sqlite3",
  ".wasm",
  ".woff",
  ".woff2",
  ".ttf",
  ".otf",
  ".eot",
  ".mp3",
  ".mp4",
  ".wav",
  ".ogg",
  ".flac",
  ".mov",
  ".avi",
  ".webm",
  ".mkv",
  ".bin",
  ".dat",
  ".pack",
  ".idx",
  ".npy",
  ".npz",
  ".pt",
  ".pth",
  ".onnx",
  ".safetensors",
  ".gguf",
  ".glb",
  ".fbx",
  ".ktx2",
  ".hdr",
  ".exr",
  ".blend",
  ".3ds",
]);

/** True when any folder on the relative path is one of the skipped directories. */
export function inSkippedDirectory(relPath: string, extra: ReadonlySet<string>): boolean {
  const segments = relPath.split("/");
  for (let i = 0; i < segments.length - 1; i++) {
    const segment = segments[i] as string;
    if (SKIPPED_DIRECTORIES.has(segment) || extra.has(segment)) return true;
  }
  return false;
}

export function hasBinaryExtension(relPath: string): boolean {
  const dot = relPath.lastIndexOf(".");
  if (dot < 0 || dot < relPath.lastIndexOf("/")) return false;
  return BINARY_EXTENSIONS.has(relPath.slice(dot).toLowerCase());
}
