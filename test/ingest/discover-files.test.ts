import { execFileSync } from "node:child_process";
import { chmodSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { emptySkipCounts } from "../../src/core/types.js";
import { DEFAULT_LIMITS, discoverFiles } from "../../src/ingest/hydrate/discover-files.js";
import { deepFile, LONGEST_PATH, longFolderNames, removeDeep } from "../helpers/deep-paths.js";
import { git, gitRepo, tempDir, writeFiles } from "../helpers/temp-dir.js";

const paths = (discovery: Awaited<ReturnType<typeof discoverFiles>>) =>
  discovery.files.map((file) => file.relPath);

describe("discoverFiles in a git checkout", () => {
  it("lists tracked and untracked files the way git does, and counts what it skips", async () => {
    const root = gitRepo({
      ".gitignore": "secret.log\n",
      "src/app.ts": "export const app = 1;\n",
      "node_modules/dep/index.js": "module.exports = 1;\n",
      "logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    });
    writeFiles(root, { "src/new.ts": "export const fresh = 2;\n", "secret.log": "token\n" });

    const discovery = await discoverFiles(root, DEFAULT_LIMITS);

    expect(discovery.kind).toBe("git");
    expect(paths(discovery)).toEqual([".gitignore", "src/app.ts", "src/new.ts"]);
    expect(discovery.skipped.binary).toBe(1); // logo.png, by extension
    expect(discovery.skipped.ignored).toBe(2); // secret.log (git) + node_modules/dep/index.js (skipped folder)
  });

  it("lists an untracked file under its own name even when the name mimics git's tracked entries", async () => {
    const root = gitRepo({ ".gitignore": "hidden.txt\n", "a.ts": "export const a = 1;\n" });
    const mimic = "H 160000 e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 0\thidden.txt";
    writeFiles(root, { [mimic]: "a file with a strange name\n", "hidden.txt": "ignored\n" });

    const discovery = await discoverFiles(root, DEFAULT_LIMITS);

    expect(paths(discovery)).toEqual([".gitignore", mimic, "a.ts"]);
    expect(discovery.skipped.ignored).toBe(1);
  });

  it("skips files named for secrets as 'secret', naming them, unless secrets are included", async () => {
    const root = gitRepo({
      "src/app.ts": "export const app = 1;\n",
      ".env.production": "API=1\n",
      "deploy/id_ed25519": "key\n",
      "certs/server.pem": "cert\n",
      ".npmrc": "registry=https://registry.npmjs.org/\n",
    });

    const discovery = await discoverFiles(root, DEFAULT_LIMITS);
    expect(paths(discovery)).toEqual(["src/app.ts"]);
    expect(discovery.skipped.secret).toBe(4);
    expect(discovery.secretFiles).toEqual([
      { path: ".env.production", found: "file name" },
      { path: ".npmrc", found: "file name" },
      { path: "certs/server.pem", found: "file name" },
      { path: "deploy/id_ed25519", found: "file name" },
    ]);

    const including = await discoverFiles(root, { ...DEFAULT_LIMITS, includeSecrets: true });
    expect(paths(including)).toHaveLength(5);
    expect(including.skipped.secret).toBe(0);
  });

  it("lists the files of checked-out submodules, and neither counts nor lists what is gone", async () => {
    const library = gitRepo({ "lib/parse.py": "def parse(text):\n    return text\n" });
    const root = gitRepo({
      "app.py": "def main():\n    pass\n",
      "old.py": "def old():\n    pass\n",
    });
    git(
      root,
      "-c",
      "protocol.file.allow=always",
      "submodule",
      "add",
      "--quiet",
      library,
      "vendor/library",
    );
    git(root, "commit", "--quiet", "--message", "add a submodule");
    // Deleted from the work tree but still tracked until the next commit.
    rmSync(join(root, "old.py"));

    const discovery = await discoverFiles(root, DEFAULT_LIMITS);
    expect(paths(discovery)).toEqual([".gitmodules", "app.py", "vendor/library/lib/parse.py"]);
    expect(discovery.skipped).toEqual({ ...emptySkipCounts() });

    // A clone whose submodule was never checked out lists it as a folder: nothing to read.
    const clone = tempDir("ctx-clone-");
    git(clone, "clone", "--quiet", root, ".");
    const cloned = await discoverFiles(clone, DEFAULT_LIMITS);
    expect(paths(cloned)).toEqual([".gitmodules", "app.py", "old.py"]);
    expect(cloned.skipped).toEqual({ ...emptySkipCounts() });
  });

  it("counts a file whose name is not UTF-8 as unreadable, in a checkout and in a plain folder", async () => {
    const name = Buffer.from("caf\xe9.py", "latin1");
    const root = gitRepo({ "ok.py": "x = 1\n" });
    writeFileSync(Buffer.concat([Buffer.from(`${root}/`), name]), "def cafe():\n    pass\n");
    git(root, "add", "--all");
    git(root, "commit", "--quiet", "--message", "a latin-1 name");
    const checkout = await discoverFiles(root, DEFAULT_LIMITS);
    expect(paths(checkout)).toEqual(["ok.py"]);
    expect(checkout.skipped.unreadable).toBe(1);

    const folder = tempDir();
    writeFiles(folder, { "ok.py": "x = 1\n" });
    writeFileSync(Buffer.concat([Buffer.from(`${folder}/`), name]), "def cafe():\n    pass\n");
    const walked = await discoverFiles(folder, DEFAULT_LIMITS);
    expect(paths(walked)).toEqual(["ok.py"]);
    expect(walked.skipped.unreadable).toBe(1);
  });

  it("applies .ctxignore on top of git's rules", async () => {
    const root = gitRepo({
      ".ctxignore": "fixtures/\n",
      "fixtures/big.json": "{}",
      "main.py": "print(1)\n",
    });
    const discovery = await discoverFiles(root, DEFAULT_LIMITS);
    expect(paths(discovery)).toEqual([".ctxignore", "main.py"]);
    expect(discovery.skipped.ignored).toBe(1);
  });
});

describe("discoverFiles in a plain folder", () => {
  it("honours nested .gitignore files, including re-inclusion, and skipped folders", async () => {
    const root = tempDir();
    writeFiles(root, {
      ".gitignore": "*.log\ngenerated/\n",
      "app/.gitignore": "!keep.log\n",
      "app/main.go": "package main\n",
      "app/debug.log": "x",
      "app/keep.log": "kept",
      "generated/out.go": "package gen\n",
      "__pycache__/x.pyc": "x",
      ".venv/lib.py": "x",
    });
    const discovery = await discoverFiles(root, DEFAULT_LIMITS);
    expect(discovery.kind).toBe("folder");
    expect(paths(discovery)).toEqual([
      ".gitignore",
      "app/.gitignore",
      "app/keep.log",
      "app/main.go",
    ]);
    // app/debug.log, generated/, __pycache__/, .venv/
    expect(discovery.skipped.ignored).toBe(4);
  });

  it("never follows a symbolic link out of the root, and keeps links that stay inside", async () => {
    const outside = tempDir("ctx-outside-");
    writeFiles(outside, { "secret.txt": "outside\n" });
    const root = tempDir();
    writeFiles(root, { "real.txt": "inside\n" });
    symlinkSync(join(outside, "secret.txt"), join(root, "escape.txt"));
    symlinkSync(outside, join(root, "escape-dir"));
    symlinkSync(join(root, "real.txt"), join(root, "alias.txt"));
    symlinkSync(join(root, "missing.txt"), join(root, "dangling.txt"));

    const discovery = await discoverFiles(root, DEFAULT_LIMITS);

    expect(paths(discovery)).toEqual(["alias.txt", "real.txt"]);
    expect(discovery.skipped["outside-root"]).toBe(2);
    expect(discovery.skipped.unreadable).toBe(1);
  });

  it("skips files over the per-file limit and stops at the total limit", async () => {
    const root = tempDir();
    writeFiles(root, {
      "a.txt": "a".repeat(100),
      "b.txt": "b".repeat(100),
      "big.txt": "c".repeat(1000),
    });
    const discovery = await discoverFiles(root, {
      ...DEFAULT_LIMITS,
      maxFileBytes: 500,
      maxTotalBytes: 150,
    });
    expect(paths(discovery)).toEqual(["a.txt"]);
    expect(discovery.skipped["too-large"]).toBe(1);
    expect(discovery.skipped["over-total-limit"]).toBe(1);
  });

  it("counts what is not a regular file as unreadable", async () => {
    const root = tempDir();
    writeFiles(root, { "ok.txt": "fine\n" });
    execFileSync("mkfifo", [join(root, "pipe")]);
    const discovery = await discoverFiles(root, DEFAULT_LIMITS);
    expect(paths(discovery)).toEqual(["ok.txt"]);
    expect(discovery.skipped.unreadable).toBe(1);
  });

  // Root reads any folder whatever its mode, so this case only exists for other users.
  it.skipIf(process.getuid?.() === 0)(
    "counts a folder it cannot enter as unreadable (not as root)",
    async () => {
      const root = tempDir();
      writeFiles(root, { "locked/a.txt": "x", "ok.txt": "fine\n" });
      chmodSync(join(root, "locked"), 0o000);
      try {
        const discovery = await discoverFiles(root, DEFAULT_LIMITS);
        expect(paths(discovery)).toEqual(["ok.txt"]);
        expect(discovery.skipped.unreadable).toBe(1);
      } finally {
        chmodSync(join(root, "locked"), 0o755);
      }
    },
  );
});

describe("discoverFiles with paths past the system's limit", () => {
  it("names the folder a walk cannot open, and counts it once as path-too-long", async () => {
    const root = tempDir();
    writeFiles(root, { "ok.ts": "export const ok = 1;\n" });
    const names = longFolderNames(20, "d");
    deepFile(root, names, "deep.ts");
    try {
      const discovery = await discoverFiles(root, DEFAULT_LIMITS);
      // The first folder whose whole path is past the limit: nothing below it can be listed.
      const depth = names.findIndex(
        (_, i) => Buffer.byteLength(join(root, ...names.slice(0, i + 1))) > LONGEST_PATH,
      );
      expect(paths(discovery)).toEqual(["ok.ts"]);
      expect(discovery.longPaths).toEqual([`${names.slice(0, depth + 1).join("/")}/`]);
      expect(discovery.skipped).toEqual({ ...emptySkipCounts(), "path-too-long": 1 });
    } finally {
      removeDeep(join(root, names[0] as string));
    }
  });

  it("names a tracked file too long to open and a folder git cannot list, in a checkout", async () => {
    const root = gitRepo({ "ok.ts": "export const ok = 1;\n" });
    // Under git's limit relative to the root, past the system's as a whole path.
    const tracked = longFolderNames(16, "t");
    const name = "f".repeat(LONGEST_PATH - 5 - Buffer.byteLength(`${tracked.join("/")}/`));
    deepFile(root, tracked, name);
    git(root, "add", "--all");
    git(root, "commit", "--quiet", "--message", "a long path");
    const trackedPath = `${tracked.join("/")}/${name}`;
    expect(Buffer.byteLength(join(root, trackedPath))).toBeGreaterThan(LONGEST_PATH);
    // Past even git's limit: it warns that it cannot open a folder, and lists nothing below.
    const untracked = longFolderNames(20, "u");
    deepFile(root, untracked, "deep.ts");
    try {
      const discovery = await discoverFiles(root, DEFAULT_LIMITS);
      expect(paths(discovery)).toEqual(["ok.ts"]);
      const [file, folder = ""] = discovery.longPaths;
      expect(file).toBe(trackedPath);
      // git's warning is cut at 4 KB: named by the deepest folder it holds whole.
      expect(folder.startsWith(`${untracked[0]}/`) && folder.endsWith("/")).toBe(true);
      expect(`${untracked.join("/")}/`.startsWith(folder)).toBe(true);
      expect(discovery.skipped).toEqual({ ...emptySkipCounts(), "path-too-long": 2 });
    } finally {
      removeDeep(join(root, tracked[0] as string));
      removeDeep(join(root, untracked[0] as string));
    }
  });
});
