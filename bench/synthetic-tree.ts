/**
 * A generated source tree of any size, the same for the same size: small files
 * in several languages (TypeScript, JavaScript, Python, Go, Rust, Markdown) in
 * nested folders, each defining a few functions named from a shared vocabulary
 * (common verbs, rarer nouns that grow with the tree, as in real code) and
 * importing a neighbour. Used to time queries on 2,000 and 200,000 files.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const VERBS = [
  "load",
  "parse",
  "render",
  "validate",
  "resolve",
  "format",
  "fetch",
  "merge",
  "compute",
  "schedule",
  "encode",
  "decode",
  "register",
  "dispatch",
  "normalize",
  "cache",
];
const SYLLABLES = [
  "ka",
  "ro",
  "mi",
  "tel",
  "va",
  "dor",
  "sen",
  "qui",
  "bal",
  "fe",
  "nor",
  "zu",
  "pal",
  "gri",
  "mon",
  "les",
  "tav",
  "ur",
  "hil",
  "cos",
];
const LANGUAGES = ["ts", "js", "py", "go", "rs", "md"] as const;
type Extension = (typeof LANGUAGES)[number];
/** Files per folder, and folders per folder above the leaves. */
const FILES_PER_FOLDER = 40;
const FOLDERS_PER_FOLDER = 12;

/** A small deterministic generator (mulberry32), so a size always gives the same tree. */
function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The i-th noun: a made-up word of two to four syllables, distinct for each i. */
function noun(i: number): string {
  let word = "";
  let n = i;
  do {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  } while (n > 0);
  return word.length < 4 ? `${word}ra` : word;
}

function capital(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The folder of the i-th file: nested FOLDERS_PER_FOLDER wide, FILES_PER_FOLDER files per leaf. */
function folderOf(i: number, files: number): string {
  const leaves = Math.ceil(files / FILES_PER_FOLDER);
  let leaf = Math.floor(i / FILES_PER_FOLDER);
  const parts: string[] = [];
  for (let span = leaves; span > 1; span = Math.ceil(span / FOLDERS_PER_FOLDER)) {
    parts.unshift(`${noun(leaf % FOLDERS_PER_FOLDER)}${parts.length}`);
    leaf = Math.floor(leaf / FOLDERS_PER_FOLDER);
  }
  return ["src", ...parts].join("/");
}

/** The path of the i-th file, relative to the root. */
export function syntheticPath(i: number, files: number): string {
  const ext = LANGUAGES[i % LANGUAGES.length] as Extension;
  return `${folderOf(i, files)}/${noun(i + 7)}_${i}.${ext}`;
}

/** The names the i-th file defines: a verb and a noun (nouns are shared by about ten files). */
function definedNames(files: number, random: () => number): [string, string][] {
  const nouns = Math.max(50, Math.floor(files / 10));
  const count = 2 + Math.floor(random() * 3);
  const names: [string, string][] = [];
  for (let k = 0; k < count; k++) {
    const verb = VERBS[Math.floor(random() * VERBS.length)] as string;
    names.push([verb, noun(Math.floor(random() * nouns) + 400)]);
  }
  return names;
}

function fileText(i: number, files: number): string {
  const random = randomFrom(i * 2654435761 + files);
  const names = definedNames(files, random);
  const ext = LANGUAGES[i % LANGUAGES.length] as Extension;
  const neighbour = syntheticPath((i + 1) % files, files);
  const base = neighbour.slice(neighbour.lastIndexOf("/") + 1, neighbour.lastIndexOf("."));
  const body = (verb: string, thing: string) =>
    `${thing}.items.filter((item) => item.${verb}Ready).map((item) => item.id)`;
  switch (ext) {
    case "ts":
    case "js": {
      const typed = ext === "ts";
      const lines = [`import { helper } from "./${base}";`, ""];
      for (const [verb, thing] of names) {
        lines.push(
          `/** ${capital(verb)}s the ${thing} records kept by this module. */`,
          `export function ${verb}${capital(thing)}(${thing}${typed ? `: ${capital(thing)}State` : ""}) {`,
          `  const ready = ${body(verb, thing)};`,
          `  return helper(ready, "${thing}");`,
          "}",
          "",
        );
      }
      return lines.join("\n");
    }
    case "py": {
      const lines = [`from .${base} import helper`, ""];
      for (const [verb, thing] of names) {
        lines.push(
          `def ${verb}_${thing}(${thing}):`,
          `    """${capital(verb)} the ${thing} records kept by this module."""`,
          `    ready = [item.id for item in ${thing}.items if item.${verb}_ready]`,
          `    return helper(ready, "${thing}")`,
          "",
          "",
        );
      }
      return lines.join("\n");
    }
    case "go": {
      const lines = [`package ${noun(Math.floor(i / FILES_PER_FOLDER))}`, ""];
      for (const [verb, thing] of names) {
        lines.push(
          `// ${capital(verb)}${capital(thing)} ${verb}s the ${thing} records kept by this package.`,
          `func ${capital(verb)}${capital(thing)}(${thing} *${capital(thing)}State) []int {`,
          "\tready := []int{}",
          `\tfor _, item := range ${thing}.Items {`,
          `\t\tif item.${capital(verb)}Ready {`,
          "\t\t\tready = append(ready, item.ID)",
          "\t\t}",
          "\t}",
          "\treturn ready",
          "}",
          "",
        );
      }
      return lines.join("\n");
    }
    case "rs": {
      const lines = [`use super::${base}::helper;`, ""];
      for (const [verb, thing] of names) {
        lines.push(
          `/// ${capital(verb)}s the ${thing} records kept by this module.`,
          `pub fn ${verb}_${thing}(${thing}: &${capital(thing)}State) -> Vec<u32> {`,
          `    let ready: Vec<u32> = ${thing}.items.iter().filter(|item| item.${verb}_ready).map(|item| item.id).collect();`,
          `    helper(&ready, "${thing}")`,
          "}",
          "",
        );
      }
      return lines.join("\n");
    }
    case "md": {
      const lines = [`# ${capital(names[0]?.[1] ?? "notes")}`, ""];
      for (const [verb, thing] of names) {
        lines.push(
          `## ${capital(verb)} ${thing}`,
          "",
          `To ${verb} the ${thing} records, call \`${verb}${capital(thing)}\` with the ${thing} state;`,
          `it keeps the items that are ready and hands them to the helper in ${base}.`,
          "",
        );
      }
      return lines.join("\n");
    }
  }
}

/**
 * Questions about the tree, in the words its code uses: each names a verb and a
 * noun some file defines a function for.
 */
export function syntheticQuestions(files: number, count: number): string[] {
  const questions: string[] = [];
  for (let q = 0; q < count; q++) {
    const i = Math.floor((q * files) / count);
    const [verb, thing] = definedNames(files, randomFrom(i * 2654435761 + files))[0] ?? [];
    questions.push(`how do we ${verb} the ${thing} records before the helper gets them`);
  }
  return questions;
}

export interface SyntheticTree {
  readonly root: string;
  readonly files: number;
}

/** Files added per commit of the generated history: many small commits, as a project grows. */
const FILES_PER_COMMIT = 2000;

/**
 * Writes the tree of `files` files under `parent` (once: a marker beside the
 * root says it is complete), as a git checkout when `git` is true (its files
 * added over commits of FILES_PER_COMMIT files, at fixed dates), else as a plain folder.
 */
export function syntheticTree(parent: string, files: number, git: boolean): SyntheticTree {
  const root = join(parent, `tree-${files}${git ? "-git" : ""}`);
  const done = `${root}.done`;
  if (existsSync(done)) return { root, files };
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const run = (args: string[], input?: string, date?: string) =>
    execFileSync("git", args, {
      cwd: root,
      input,
      stdio: ["pipe", "ignore", "inherit"],
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "bench",
        GIT_AUTHOR_EMAIL: "bench@example.com",
        GIT_COMMITTER_NAME: "bench",
        GIT_COMMITTER_EMAIL: "bench@example.com",
        ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}),
      },
    });
  if (git) run(["init", "-q"]);
  let madeFolder = "";
  let batch: string[] = [];
  for (let i = 0; i < files; i++) {
    const path = syntheticPath(i, files);
    const folder = join(root, path.slice(0, path.lastIndexOf("/")));
    if (folder !== madeFolder) {
      mkdirSync(folder, { recursive: true });
      madeFolder = folder;
    }
    writeFileSync(join(root, path), fileText(i, files));
    batch.push(path);
    if (git && (batch.length === FILES_PER_COMMIT || i === files - 1)) {
      run(["add", "--pathspec-from-file=-"], batch.join("\n"));
      const date = new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();
      // No automatic gc between commits: it would repack the growing history again and again.
      run(["-c", "gc.auto=0", "commit", "-q", "-m", `add files up to ${i + 1}`], undefined, date);
      batch = [];
    }
  }
  writeFileSync(done, "");
  return { root, files };
}
