/** What a file is for, from its path: the code itself, or something about the code. */
export type FileRole =
  | "source"
  | "test"
  | "docs"
  | "example"
  | "bench"
  | "vendor"
  | "generated"
  | "config"
  | "asset";

const FOLDERS: Readonly<Record<string, FileRole>> = {
  test: "test",
  tests: "test",
  __tests__: "test",
  __mocks__: "test",
  spec: "test",
  specs: "test",
  testing: "test",
  e2e: "test",
  fixtures: "test",
  fixture: "test",
  __fixtures__: "test",
  __snapshots__: "test",
  testdata: "test",
  testfixtures: "test",
  docs: "docs",
  doc: "docs",
  documentation: "docs",
  example: "example",
  examples: "example",
  demo: "example",
  demos: "example",
  sample: "example",
  samples: "example",
  playground: "example",
  bench: "bench",
  benches: "bench",
  benchmark: "bench",
  benchmarks: "bench",
  jmh: "bench",
  vendor: "vendor",
  // A library copied in whole under its own licence: pip's and setuptools'
  // `_vendor/`, scikit-learn's `externals/`, astropy's `extern/`, a C
  // project's `3rdparty/`. (`external/` only for C and C++: sympy's is its own code.)
  _vendor: "vendor",
  vendored: "vendor",
  third_party: "vendor",
  "third-party": "vendor",
  thirdparty: "vendor",
  "3rdparty": "vendor",
  extern: "vendor",
  externals: "vendor",
  node_modules: "vendor",
  bower_components: "vendor",
  dist: "generated",
  generated: "generated",
  __generated__: "generated",
  ".github": "config",
  ".circleci": "config",
  ".devcontainer": "config",
  ".vscode": "config",
  ".idea": "config",
  // .NET's engineering folder: build, versioning and CI scripts.
  eng: "config",
};
/**
 * Where C and C++ projects keep the libraries they build with (redis's `deps/`,
 * a CMake project's `external/`): in another language such a folder may well be
 * the project's own code (sympy's `external/`).
 */
const C_VENDOR_FOLDERS = new Set(["deps", "external", "bundled"]);
const C_FILE = /\.(c|h|cc|cpp|cxx|c\+\+|hpp|hh|hxx|inl|ipp)$/i;
/** `deno_dist/`, `esm-dist/`: a build's copy of the sources, committed. */
const DIST_FOLDER = /[_-]dist$/;
/**
 * A project of tests named after what it tests, as .NET and Gradle name them:
 * `Polly.Core.Tests/`, `Polly.Specs/`, `UnitTests/`, `commonTest/`, `jvmTest/`,
 * `ArgumentParserTests/` (a word boundary or a capital, so `latest/` is not one).
 */
const TEST_PROJECT = /(^|[._-])(unit|integration)?(tests?|specs?)$/i;
const TEST_PROJECT_CAMEL = /[a-z0-9](Tests?|Specs?)$/;
const BENCH_PROJECT = /(^|[._-])benchmarks?$/i;
const BENCH_PROJECT_CAMEL = /[a-z0-9]Benchmarks?$/;

const TEST_FILE =
  /(\.|_|-)(test|spec|tests)\.[a-z0-9]+$|^test_[^/]*\.py$|^conftest\.py$|(Tests?|Specs?)\.(java|cs|kt|swift|scala|groovy|php)$|_test\.go$/;
const DOCS_FILE =
  /\.(md|mdx|markdown|rst|adoc|txt)$|^(readme|changelog|contributing|license)(\.|$)/i;
const MINIFIED = /[.-]min\.[cm]?js$/;
/**
 * Written by a tool, by the names the tools give them: protocol buffers and
 * gRPC stubs (`api.pb.go`, `api_pb2.py`, `api.pb.h`, `api_pb.js`), Kubernetes'
 * `zz_generated.deepcopy.go`, .NET's designer and source-generator files
 * (`Form1.Designer.cs`, `Parser.g.cs`), Dart's builders (`user.g.dart`,
 * `user.freezed.dart`), and any `*.generated.*`. They share a task's words
 * (every message and field) without being the code a task changes.
 */
const GENERATED_FILE =
  /\.pb(\.[a-z]+)?\.go$|^zz_generated[^/]*\.go$|\.pb\.(cc|h|swift)$|_pb2(_grpc)?\.pyi?$|(_grpc)?_pb\.(js|d\.ts)$|\.(designer|g|g\.i)\.cs$|\.(g|freezed)\.dart$|\.generated\.[a-z0-9]+$/i;
/**
 * How a project is built, checked and packaged rather than what it does:
 * manifests, lock files, tool and CI settings (also those written as code:
 * `karma.conf.js`, `vite.config.ts`, `gulpfile.js`, Cake's `build.cake`), project
 * and solution files.
 * Such files share a task's words (an analyzer's settings list every rule with
 * its description) without being the code a task reads or changes.
 */
const CONFIG_FILE =
  /\.(json|jsonc|json5|ya?ml|toml|ini|cfg|conf|config|globalconfig|editorconfig|props|targets|csproj|fsproj|vbproj|sln|slnx|nuspec|ruleset|cake|xml|properties|plist|lock|gradle|gradle\.kts|env|gemspec|podspec|cabal)$|^\.[a-z0-9_.-]+$|^(dockerfile|makefile|gemfile|rakefile|podfile|vagrantfile|procfile|cmakelists\.txt|meson\.build|build\.bazel|workspace|go\.mod|go\.sum|requirements[^/]*\.txt)$|\.(conf|config|rc)\.[cm]?[jt]s$|^(gulpfile|gruntfile)\.[cm]?[jt]s$/i;

/**
 * Pictures and fonts written as text: an SVG logo or icon is markup of path
 * coordinates that shares a task's words by its ids and titles (Polly's
 * `logos/Polly-Logo.svg` took 2,100 tokens of four 8,000-token answers about
 * the code), PostScript and the plain-text bitmap and font formats likewise.
 */
const ASSET_FILE = /\.(svg|eps|ps|xpm|xbm|pbm|pgm|ppm|pnm|bdf|sfd|afm|gltf)$/i;

/** A minified bundle (`app.min.js`): one line of thousands of names. */
export function isMinified(path: string): boolean {
  return MINIFIED.test(path);
}

/** Code lines longer than this on average are a machine's, not a person's (hand-written code averages 20–60). */
const MINIFIED_LINE_CHARS = 300;
/** A short file of one long line is more often a person's one-liner than a bundle. */
const MINIFIED_MIN_CHARS = 2000;

/**
 * Minified or generated whatever its name (an emscripten decoder, a bundled
 * library, a table of numbers): its lines of code average hundreds of
 * characters. Comment lines are left out, so a long comment in a hand-written
 * file does not make it look minified.
 */
export function looksMinified(content: string): boolean {
  if (content.length < MINIFIED_MIN_CHARS) return false;
  let codeChars = 0;
  let codeLines = 0;
  for (let start = 0; start <= content.length; ) {
    let end = content.indexOf("\n", start);
    if (end < 0) end = content.length;
    if (!isCommentLine(content, start, end)) {
      codeChars += end - start;
      codeLines++;
    }
    start = end + 1;
  }
  return (
    codeChars >= MINIFIED_MIN_CHARS && codeChars / Math.max(1, codeLines) > MINIFIED_LINE_CHARS
  );
}

/** A line that starts (past its indentation) with `//`, `/*`, `*` or `#`. */
function isCommentLine(content: string, start: number, end: number): boolean {
  let at = start;
  while (at < end && (content.charCodeAt(at) === 32 || content.charCodeAt(at) === 9)) at++;
  const first = content.charCodeAt(at);
  if (first === 35 || first === 42) return true; // # *
  return first === 47 && (content.charCodeAt(at + 1) === 47 || content.charCodeAt(at + 1) === 42);
}

/**
 * Roles already read, by path: ranking reads the role of every candidate's
 * file, and a project's paths come back query after query (reading one again
 * took about two microseconds, a tenth of a millisecond a query). Emptied when full.
 */
const rolesRead = new Map<string, FileRole>();
const MAX_ROLES_READ = 50_000;

/**
 * What each of a project's files is for, by its relative path: as its path
 * says (`fileRoleOf`), or as the project itself marks it.
 */
export type FileRoles = (path: string) => FileRole;

/** The role of the file at a (forward-slash, relative) path. */
export function fileRoleOf(path: string): FileRole {
  const known = rolesRead.get(path);
  if (known) return known;
  const role = roleOfPath(path);
  if (rolesRead.size >= MAX_ROLES_READ) rolesRead.clear();
  rolesRead.set(path, role);
  return role;
}

function roleOfPath(path: string): FileRole {
  const parts = path.split("/");
  const name = parts[parts.length - 1] ?? "";
  const cFile = C_FILE.test(name);
  for (const folder of parts.slice(0, -1)) {
    const role = FOLDERS[folder.toLowerCase()];
    if (role) return role;
    if (cFile && C_VENDOR_FOLDERS.has(folder.toLowerCase())) return "vendor";
    if (DIST_FOLDER.test(folder)) return "generated";
    if (TEST_PROJECT.test(folder) || TEST_PROJECT_CAMEL.test(folder)) return "test";
    if (BENCH_PROJECT.test(folder) || BENCH_PROJECT_CAMEL.test(folder)) return "bench";
  }
  if (TEST_FILE.test(name)) return "test";
  if (GENERATED_FILE.test(name)) return "generated";
  if (CONFIG_FILE.test(name)) return "config";
  if (DOCS_FILE.test(name)) return "docs";
  if (ASSET_FILE.test(name)) return "asset";
  if (isMinified(name)) return "generated";
  return "source";
}

/** Words by which a task asks for files of a role. */
const ASKING: readonly [FileRole, RegExp][] = [
  [
    "test",
    /\b(tests?|testing|tested|specs?|e2e|fixtures?|mocks?|mocking|coverage|snapshots?|pytest|jest|vitest|mocha|conftest)\b/i,
  ],
  ["docs", /\b(docs?|documentation|documented|readme|changelog|guide|tutorial|docstrings?)\b/i],
  ["example", /\b(examples?|demos?|samples?|playground)\b/i],
  ["bench", /\b(bench|benches|benchmarks?|benchmarking)\b/i],
  ["vendor", /\b(vendor|vendored|third[ -]party)\b/i],
  [
    "asset",
    /\b(svgs?|icons?|logos?|images?|pictures?|illustrations?|sprites?|assets?|fonts?|glyphs?|postscript)\b/i,
  ],
  ["generated", /\b(dist|generated|codegen|minified|bundled?|protobufs?|protoc|grpc)\b/i],
  [
    "config",
    /\b(config|configs|configuration|configure|configured|settings|build|builds|ci|workflows?|pipelines?|dependency|dependencies|deps|packages?|packaging|versions?|upgrade|bump|install|installation|release|docker|dockerfile|makefile|cmake|gradle|maven|nuget|npm|yarn|pnpm|pip|lint|linter|linting|analy[sz]ers?|eslint|prettier|tsconfig|pyproject|manifest|yaml|toml|json|msbuild|csproj|sdk|target|targets|framework)\b/i,
  ],
];

/** The roles a task asks for by name, besides the code itself. */
export function rolesAskedFor(task: string): Set<FileRole> {
  const asked = new Set<FileRole>(["source"]);
  for (const [role, words] of ASKING) if (words.test(task)) asked.add(role);
  return asked;
}
