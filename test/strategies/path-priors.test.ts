import { describe, expect, it } from "vitest";
import { fileRoleOf, rolesAskedFor } from "../../src/core/file-roles.js";
import { pathRulesFor } from "../../src/rank/path-priors.js";
import { fileStemOf, fileWordsOf } from "../../src/text/named-files.js";
import { indexedEngine } from "../helpers/indexed-engine.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

const NAMED = /^file named in the task \+\d+\.\d\d$/;

type Engine = Awaited<ReturnType<typeof indexedEngine>>;

/** The paths of a keyword search's answer, best first. */
async function pathsInOrder(engine: Engine, task: string): Promise<string[]> {
  const result = await engine.query({
    task,
    budget: 4000,
    format: "json",
    strategies: ["simple-keyword"],
  });
  return result.fragments.map((f) => (f.source.kind === "file" ? f.source.path : ""));
}

/** What --explain says moved the score of a file's first fragment. */
async function rankingOf(engine: Engine, task: string, path: string) {
  const explained = await engine.query({
    task,
    budget: 4000,
    format: "json",
    explain: true,
    strategies: ["simple-keyword"],
  });
  const parsed = JSON.parse(explained.output) as {
    fragments: { path: string; ranking?: string[] }[];
  };
  return parsed.fragments.find((f) => f.path === path)?.ranking;
}

describe("file roles", () => {
  it("tells the code from its tests, docs, examples, benchmarks and vendored files by path", () => {
    const roles = Object.fromEntries(
      [
        "src/session/cookie.ts",
        "src/session/cookie.test.ts",
        "src/session/cookie.spec.tsx",
        "packages/core/__tests__/cookie.ts",
        "tests/test_cookie.py",
        "pkg/cookie_test.go",
        "src/test/java/CookieTest.java",
        "tests/fixtures/big.json",
        "conftest.py",
        "README.md",
        "docs/guide/cookies.ts",
        "CHANGELOG",
        "examples/basic/server.js",
        "bench/cookie.ts",
        "vendor/lib/jquery.js",
        "src/pip/_vendor/rich/console.py",
        "sklearn/externals/_arff.py",
        "astropy/extern/ply/lex.py",
        "src/poetry/packages/locker.py",
        "sympy/external/importtools.py",
        "deps/hiredis/sds.c",
        "external/glfw/include/glfw3.h",
        "src/external/api.ts",
        "public/app.min.js",
        "deno_dist/utils/jwt/jwt.ts",
        "src/testing_utils.py",
        "src/contest.ts",
        "src/Polly.Specs/Retry/RetrySpecs.cs",
        "test/Polly.Core.Tests/Retry/RetryHelper.cs",
        "okio/src/jvmTest/kotlin/okio/Buffers.kt",
        "Tests/ArgumentParserUnitTests/Parsing.swift",
        "src/Polly.Core.Benchmarks/RetryBenchmark.cs",
        "src/latest/index.ts",
        "src/Attest/Signer.cs",
        "eng/analyzers/Library.globalconfig",
        "src/Polly/Polly.csproj",
        "build.cake",
        "eng/update-baselines.ps1",
        ".github/workflows/ci.yml",
        "package.json",
        ".gitignore",
        "CMakeLists.txt",
        "karma.sauce.conf.js",
        "vite.config.ts",
        "packages/app/rollup.config.mjs",
        "gulpfile.js",
        "src/config.ts",
        "src/core/config/loader.js",
        "api/v1/user.pb.go",
        "api/v1/user.pb.gw.go",
        "pkg/apis/v1/zz_generated.deepcopy.go",
        "proto/user_pb2.py",
        "proto/user_pb2_grpc.py",
        "web/user_grpc_pb.js",
        "src/user.pb.h",
        "App/MainForm.Designer.cs",
        "src/Parser.g.cs",
        "lib/user.g.dart",
        "lib/user.freezed.dart",
        "src/schema.generated.ts",
        "src/protobuf.go",
        "src/pb.go",
        "src/designer.cs",
        "lib/config.dart",
        "logos/Polly-Logo.svg",
        "src/assets/icons/close.svg",
        "fonts/terminus.bdf",
        "docs/img/diagram.svg",
      ].map((path) => [path, fileRoleOf(path)]),
    );
    expect(roles).toEqual({
      "src/session/cookie.ts": "source",
      "src/session/cookie.test.ts": "test",
      "src/session/cookie.spec.tsx": "test",
      "packages/core/__tests__/cookie.ts": "test",
      "tests/test_cookie.py": "test",
      "pkg/cookie_test.go": "test",
      "src/test/java/CookieTest.java": "test",
      "tests/fixtures/big.json": "test",
      "conftest.py": "test",
      "README.md": "docs",
      "docs/guide/cookies.ts": "docs",
      CHANGELOG: "docs",
      "examples/basic/server.js": "example",
      "bench/cookie.ts": "bench",
      "vendor/lib/jquery.js": "vendor",
      // Libraries copied in whole.
      "src/pip/_vendor/rich/console.py": "vendor",
      "sklearn/externals/_arff.py": "vendor",
      "astropy/extern/ply/lex.py": "vendor",
      // A package's own `packages/` or `external/` is its code (requests' old
      // `requests/packages/urllib3/` is a copy, but that a path cannot tell).
      "src/poetry/packages/locker.py": "source",
      "sympy/external/importtools.py": "source",
      // A C or C++ project's libraries; in another language the folder names say less.
      "deps/hiredis/sds.c": "vendor",
      "external/glfw/include/glfw3.h": "vendor",
      "src/external/api.ts": "source",
      "public/app.min.js": "generated",
      "deno_dist/utils/jwt/jwt.ts": "generated",
      "src/testing_utils.py": "source",
      "src/contest.ts": "source",
      "src/Polly.Specs/Retry/RetrySpecs.cs": "test",
      "test/Polly.Core.Tests/Retry/RetryHelper.cs": "test",
      "okio/src/jvmTest/kotlin/okio/Buffers.kt": "test",
      "Tests/ArgumentParserUnitTests/Parsing.swift": "test",
      "src/Polly.Core.Benchmarks/RetryBenchmark.cs": "bench",
      "src/latest/index.ts": "source",
      "src/Attest/Signer.cs": "source",
      "eng/analyzers/Library.globalconfig": "config",
      "src/Polly/Polly.csproj": "config",
      // A Cake build script, and .NET's engineering folder of build scripts.
      "build.cake": "config",
      "eng/update-baselines.ps1": "config",
      ".github/workflows/ci.yml": "config",
      "package.json": "config",
      ".gitignore": "config",
      "CMakeLists.txt": "config",
      // Tool settings written as code are settings; code that configures is code.
      "karma.sauce.conf.js": "config",
      "vite.config.ts": "config",
      "packages/app/rollup.config.mjs": "config",
      "gulpfile.js": "config",
      "src/config.ts": "source",
      "src/core/config/loader.js": "source",
      // Written by a tool, by the names the tools give them; code about them is code.
      "api/v1/user.pb.go": "generated",
      "api/v1/user.pb.gw.go": "generated",
      "pkg/apis/v1/zz_generated.deepcopy.go": "generated",
      "proto/user_pb2.py": "generated",
      "proto/user_pb2_grpc.py": "generated",
      "web/user_grpc_pb.js": "generated",
      "src/user.pb.h": "generated",
      "App/MainForm.Designer.cs": "generated",
      "src/Parser.g.cs": "generated",
      "lib/user.g.dart": "generated",
      "lib/user.freezed.dart": "generated",
      "src/schema.generated.ts": "generated",
      "src/protobuf.go": "source",
      "src/pb.go": "source",
      "src/designer.cs": "source",
      "lib/config.dart": "source",
      // Pictures and fonts written as text.
      "logos/Polly-Logo.svg": "asset",
      "src/assets/icons/close.svg": "asset",
      "fonts/terminus.bdf": "asset",
      "docs/img/diagram.svg": "docs",
    });
  });

  it("reads them off the title of a task of several lines", () => {
    const issue = [
      "Retry drops jobs after a timeout",
      "",
      "```js",
      "expect(retry(job)).toBe(true) // jest",
      "```",
      "- Version: 1.8.15, installed with npm install",
    ].join("\n");
    const rules = pathRulesFor(issue);
    expect(rules("test/retry.test.js").reasons).toContain(
      "test file ×0.5 (the task does not ask for test files)",
    );
    expect(rules("package.json").reasons[0]).toMatch(/^config file/);
    const asking = pathRulesFor("Add a test for retry timeouts\n\nJobs time out.");
    expect(asking("test/retry.test.js").rules.map(({ rule }) => rule)).not.toContain("other-role");
  });

  it("reads which of them a task asks for", () => {
    expect([...rolesAskedFor("session cookie is not renewed")]).toEqual(["source"]);
    expect([...rolesAskedFor("add a test for the expired session cookie")]).toEqual([
      "source",
      "test",
    ]);
    expect([...rolesAskedFor("Document the cookie options in the README")]).toEqual([
      "source",
      "docs",
    ]);
    expect([...rolesAskedFor("benchmark cookie parsing; update the example")]).toEqual([
      "source",
      "example",
      "bench",
    ]);
    expect([...rolesAskedFor("Update NuGet packages to their latest versions")]).toEqual([
      "source",
      "config",
    ]);
    expect([...rolesAskedFor("UserRequest lost its email field in the protobuf stubs")]).toEqual([
      "source",
      "generated",
    ]);
    expect([...rolesAskedFor("The close icon is cut off in dark mode")]).toEqual([
      "source",
      "asset",
    ]);
  });

  it("reads the name a task would call a file by", () => {
    expect(
      [
        "src/utils/jwt/jwt.ts",
        "src/utils/jwt/index.ts",
        "pkg/__init__.py",
        "src/vShow.ts",
        "a/common.case.test.ts",
      ].map(fileStemOf),
    ).toEqual(["jwt", "jwt", "pkg", "vshow", "common"]);
    expect([...fileWordsOf("fix(jwt): set vShow on a `ts` node")]).toEqual([
      "fix",
      "jwt",
      "set",
      "vshow",
      "node",
    ]);
  });

  it("puts the code before its test and its docs unless the task asks for those", async () => {
    const root = tempDir();
    const words = "session cookie renew expiry maxAge refresh";
    writeFiles(root, {
      "src/session.ts": `export function renewSessionCookie(maxAge: number) {\n  // renew the cookie before expiry\n  return maxAge * 2;\n}\n`,
      // Each says the task's words more often than the code does.
      "test/session.test.ts": `// ${words} ${words}\nit("renews the session cookie before expiry", () => { renewSessionCookie(1); });\n`,
      "README.md": `# Sessions\n\nThe session cookie: ${words}, ${words}.\n`,
    });
    const engine = await indexedEngine(root);
    const order = async (task: string) =>
      (
        await engine.query({ task, budget: 4000, format: "json", strategies: ["simple-keyword"] })
      ).fragments.map((fragment) => (fragment.source.kind === "file" ? fragment.source.path : ""));

    expect((await order("renew the session cookie before its maxAge expiry"))[0]).toBe(
      "src/session.ts",
    );
    expect((await order("test that the session cookie is renewed before expiry"))[0]).toBe(
      "test/session.test.ts",
    );
    expect((await order("the readme on session cookie expiry"))[0]).toBe("README.md");
    // --explain says why a fragment's score moved.
    const explained = await engine.query({
      task: "renew the session cookie before its maxAge expiry",
      budget: 4000,
      format: "json",
      explain: true,
      strategies: ["simple-keyword"],
    });
    const rankings = Object.fromEntries(
      (
        JSON.parse(explained.output) as { fragments: { path: string; ranking: string[] }[] }
      ).fragments.map((fragment) => [fragment.path, fragment.ranking]),
    );
    // The parts are the learned ranking's (its log-odds), whatever the weights trained to.
    expect(rankings["src/session.ts"]).toEqual([expect.stringMatching(NAMED)]);
    expect(rankings["test/session.test.ts"]).toEqual([
      expect.stringMatching(/^test file −\d+\.\d\d \(the task does not ask for test files\)$/),
      expect.stringMatching(NAMED),
    ]);
    // A file the task names is not held back.
    expect((await order("session.test.ts: the cookie renew expiry case"))[0]).toBe(
      "test/session.test.ts",
    );
  });

  it("puts the code before build and tool settings that share more of the task's words", async () => {
    const root = tempDir();
    const rule = (id: number) =>
      `# Title: the retry delay must not be negative; use an exponential backoff delay\ndotnet_diagnostic.CA${id}.severity = warning\n`;
    writeFiles(root, {
      "src/Retry/RetryHelper.cs": `public static class RetryHelper\n{\n    // the retry delay grows with an exponential backoff\n    public static TimeSpan GetRetryDelay(int attempt) => TimeSpan.FromSeconds(Math.Pow(2, attempt));\n}\n`,
      // An analyzer's settings: every rule with its description, the task's words many times.
      "eng/analyzers/Library.globalconfig": Array.from({ length: 40 }, (_, i) =>
        rule(1000 + i),
      ).join(""),
      ".github/workflows/build.yml": `name: retry delay exponential backoff negative\non: push\n`,
    });
    const engine = await indexedEngine(root);

    expect(
      (await pathsInOrder(engine, "Fix retry delay going negative for exponential backoff"))[0],
    ).toBe("src/Retry/RetryHelper.cs");
    const reasons = (task: string) => rankingOf(engine, task, "eng/analyzers/Library.globalconfig");
    expect(await reasons("Fix retry delay going negative for exponential backoff")).toContainEqual(
      expect.stringMatching(/^config file −\d+\.\d\d \(the task does not ask for config files\)$/),
    );
    // Named, or asked for, it is not held back as a file the task does not want.
    for (const task of [
      "Library.globalconfig: the retry delay negative exponential backoff rule",
      "configure the analyzer rule on retry delay going negative",
    ])
      expect(await reasons(task)).not.toContainEqual(expect.stringMatching(/does not ask for/));
  });

  it("holds back a picture written as text unless the task asks for one", async () => {
    const root = tempDir();
    writeFiles(root, {
      "src/Polly.Core/ResilienceStrategy.cs": `namespace Polly;\n\n// Since v8: one strategy type for sync and async callbacks.\npublic abstract class ResilienceStrategy\n{\n    public abstract ValueTask ExecuteAsync(Func<ValueTask> callback);\n}\n`,
      // A logo on one line: path data where \`v8\` is a vertical line of 8 units.
      "logos/Polly-Logo.svg": `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><path d="${Array.from({ length: 60 }, (_, i) => `M${i} 4v8h8v8l${i % 7} 3`).join("")}"/></svg>\n`,
    });
    const engine = await indexedEngine(root);

    expect((await pathsInOrder(engine, "Introduce unit-tests for issues fixed in v8"))[0]).toBe(
      "src/Polly.Core/ResilienceStrategy.cs",
    );
    const reasons = (task: string) => rankingOf(engine, task, "logos/Polly-Logo.svg");
    expect(await reasons("Introduce unit-tests for issues fixed in v8")).toContainEqual(
      expect.stringMatching(/^asset file −\d+\.\d\d \(the task does not ask for asset files\)$/),
    );
    // A task about the logo asks for it.
    expect(await reasons("the v8 logo is cut off")).not.toContainEqual(
      expect.stringMatching(/does not ask for/),
    );
  });

  it("puts a file the task names before one that only shares more of its words", async () => {
    const root = tempDir();
    writeFiles(root, {
      "src/utils/jwt/index.ts": `export function verifyHeader(header: { typ?: string }) {\n  return header.typ === undefined || header.typ === "JWT";\n}\n`,
      // The task's words, more often than the file it names has them.
      "src/router.ts": `// header typ optional header typ optional header typ optional\nexport function route(header: string) { return header; }\n`,
    });
    const engine = await indexedEngine(root);
    const result = await engine.query({
      task: "fix(jwt): make the header typ field optional",
      budget: 4000,
      format: "json",
      explain: true,
      strategies: ["simple-keyword"],
    });
    const fragments = JSON.parse(result.output) as {
      fragments: { path: string; ranking: string[] }[];
    };
    expect(fragments.fragments.map((fragment) => fragment.path)).toEqual([
      "src/utils/jwt/index.ts",
      "src/router.ts",
    ]);
    expect(fragments.fragments[0]?.ranking).toEqual([expect.stringMatching(NAMED)]);
  });
});
