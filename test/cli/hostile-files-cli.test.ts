import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, spawnCli } from "../helpers/run-cli.js";
import { git, tempDir, writeFiles } from "../helpers/temp-dir.js";

/** Each command gets this long: a hang on a pipe, or reading /dev/zero, runs past it. */
const COMMAND_TIMEOUT_MS = 10_000;
/** Peak memory a command may reach: a tiny tree indexes in about 100 MB; /dev/zero read whole takes GBs. */
const MAX_RSS_MB = 400;

const sockets: Server[] = [];
afterAll(() => {
  for (const socket of sockets) socket.close();
});

/** Reports the process's peak memory on stderr as it exits. */
const rssProbe = join(tempDir("ctx-rss-"), "report-rss.cjs");
writeFileSync(
  rssProbe,
  'process.on("exit", () => require("node:fs").writeSync(2, "\\npeak-rss-kb " + process.resourceUsage().maxRSS + "\\n"));\n',
);

function ctx(
  args: string[],
  cwd: string,
): { code: number | null; stdout: string; stderr: string; rssMb: number } {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: "utf8",
    timeout: COMMAND_TIMEOUT_MS,
    killSignal: "SIGKILL",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: cwd,
      XDG_CONFIG_HOME: cwd,
      NODE_OPTIONS: `--require ${rssProbe}`,
    },
  });
  const rss = /peak-rss-kb (\d+)/.exec(result.stderr ?? "");
  return {
    code: result.status,
    stdout: result.stdout ?? "",
    stderr: result.stderr ?? "",
    rssMb: rss ? Number(rss[1]) / 1024 : Number.POSITIVE_INFINITY,
  };
}

function mkfifo(path: string): void {
  execFileSync("mkfifo", [path]);
}

async function unixSocket(path: string): Promise<void> {
  const server = createServer();
  sockets.push(server);
  await new Promise<void>((resolve) => server.listen(path, resolve));
}

const SOURCE = {
  "src/app.ts": "export function hostileTreeSurvivor(): number {\n  return 7;\n}\n",
};

/**
 * Folder mode: FIFOs, a socket and links to /dev/zero under every config-like
 * name ctx reads, and under the pinned and hot files' names.
 */
async function hostileFolder(): Promise<string> {
  const root = tempDir("ctx-hostile-folder-");
  writeFiles(root, SOURCE);
  mkfifo(join(root, ".ctxignore"));
  mkfifo(join(root, ".gitignore"));
  mkfifo(join(root, "jsconfig.json"));
  mkfifo(join(root, "AGENTS.md"));
  symlinkSync("/dev/zero", join(root, "tsconfig.json"));
  symlinkSync("/dev/zero", join(root, "README.md"));
  mkdirSync(join(root, "lib"));
  symlinkSync("/dev/zero", join(root, "lib", ".gitignore"));
  await unixSocket(join(root, "CLAUDE.md"));
  return root;
}

/** Git mode: the links to /dev/zero committed, FIFOs and a socket beside them untracked. */
async function hostileCheckout(): Promise<string> {
  const root = tempDir("ctx-hostile-git-");
  git(root, "init", "--quiet", "--initial-branch=main");
  writeFiles(root, SOURCE);
  for (const name of [".ctxignore", ".gitignore", "tsconfig.json", "README.md", "AGENTS.md"])
    symlinkSync("/dev/zero", join(root, name));
  git(root, "add", "--all");
  git(root, "commit", "--quiet", "--message", "hostile links");
  mkfifo(join(root, "jsconfig.json"));
  await unixSocket(join(root, "CLAUDE.md"));
  return root;
}

describe.each([
  ["folder", hostileFolder],
  ["git", hostileCheckout],
] as const)("a hostile tree in %s mode", (mode, make) => {
  it("ctx index and ctx query finish, in bounded memory, skipping the special files with a warning", async () => {
    const root = await make();
    const indexed = ctx(["index"], root);
    expect(indexed.code, indexed.stderr).toBe(0);
    expect(indexed.rssMb).toBeLessThan(MAX_RSS_MB);
    expect(indexed.stdout).toMatch(/Indexed .*: 1 files/);
    expect(indexed.stderr).toMatch(
      /^ctx: skipped \S+\/\.ctxignore: it is a (FIFO|character device)/m,
    );
    expect(indexed.stderr).toMatch(/^ctx: skipped \S+\/tsconfig\.json: it is a character device/m);
    expect(indexed.stderr).toMatch(/^ctx: skipped \S+\/jsconfig\.json: it is a FIFO/m);
    if (mode === "folder") {
      expect(indexed.stderr).toMatch(/^ctx: skipped \S+\/\.gitignore: it is a FIFO/m);
      expect(indexed.stderr).toMatch(/^ctx: skipped \S+\/lib\/\.gitignore: it is a character/m);
    }
    const queried = ctx(["query", "hostileTreeSurvivor"], root);
    expect(queried.code, queried.stderr).toBe(0);
    expect(queried.rssMb).toBeLessThan(MAX_RSS_MB);
    expect(queried.stdout).toContain("src/app.ts");
  }, 30_000);

  it("a ctx.toml that is a FIFO or a link to /dev/zero is a clear error, exit 1", async () => {
    const root = await make();
    mkfifo(join(root, "ctx.toml"));
    const fifo = ctx(["query", "anything"], root);
    expect(fifo.code).toBe(1);
    expect(fifo.stderr).toMatch(
      /ctx\.toml: cannot read: it is a FIFO \(named pipe\), not a regular file; replace it with a plain TOML file/,
    );
    execFileSync("rm", [join(root, "ctx.toml")]);
    symlinkSync("/dev/zero", join(root, "ctx.toml"));
    if (mode === "git") {
      git(root, "add", "ctx.toml");
      git(root, "commit", "--quiet", "--message", "zero config");
    }
    const zero = ctx(["index"], root);
    expect(zero.code).toBe(1);
    expect(zero.rssMb).toBeLessThan(MAX_RSS_MB);
    expect(zero.stderr).toMatch(/ctx\.toml: cannot read: it is a character device/);
  }, 30_000);
});

describe("a ctx.toml linked to a file outside the project", () => {
  it("is refused, naming the file and what to do", () => {
    const root = tempDir("ctx-toml-link-");
    writeFiles(root, SOURCE);
    const elsewhere = join(tempDir("ctx-toml-elsewhere-"), "settings.toml");
    writeFileSync(elsewhere, "[tiers]\nhot = []\n");
    symlinkSync(elsewhere, join(root, "ctx.toml"));
    const result = ctx(["index"], root);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /ctx\.toml: cannot read: it leads outside .*; copy the settings into a plain ctx\.toml/,
    );
  });
});

describe("an index file that is a FIFO (as a repository could ship it)", () => {
  it("is a clear error, not a hang", () => {
    const root = tempDir("ctx-index-fifo-");
    writeFiles(root, SOURCE);
    mkdirSync(join(root, ".ctx"));
    mkfifo(join(root, ".ctx", "index.db"));
    const result = ctx(["query", "hostileTreeSurvivor"], root);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/index\.db: the index is not a regular file/);
  });
});

describe("ctx serve --http with a watcher", () => {
  it("keeps answering after a FIFO .ctxignore appears under it, and stops on SIGTERM", async () => {
    const root = tempDir("ctx-serve-fifo-");
    writeFiles(root, SOURCE);
    const served = spawnCli(["serve", "--http", "127.0.0.1:0", "--verbose"], root);
    let stderr = "";
    let exitCode: number | null = null;
    served.process.stderr?.on("data", (data: Buffer) => {
      stderr += data.toString();
    });
    const waitFor = async (pattern: RegExp): Promise<RegExpExecArray> => {
      for (let waited = 0; waited < COMMAND_TIMEOUT_MS; waited += 50) {
        const found = pattern.exec(stderr);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no ${pattern} on stderr: ${stderr}`);
    };
    try {
      const url = (await waitFor(/serving .* at (http:\S+)/))[1] as string;
      await waitFor(/watching .* for changes/);
      mkfifo(join(root, ".ctxignore"));
      await waitFor(/skipped \S+\/\.ctxignore: it is a FIFO/);
      const client = new Client({ name: "fifo-test", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      try {
        const answer = (await client.callTool({
          name: "get_context",
          arguments: { task: "hostileTreeSurvivor", budget_tokens: 800 },
        })) as CallToolResult;
        const part = answer.content[0];
        expect(part?.type === "text" ? part.text : "").toContain("src/app.ts");
      } finally {
        await client.close();
      }
    } finally {
      served.process.kill("SIGTERM");
      // A server frozen on a read ignores SIGTERM: it is killed, and the test fails on its code.
      const killer = setTimeout(() => served.process.kill("SIGKILL"), 5000);
      exitCode = (await served.result).code;
      clearTimeout(killer);
    }
    expect(exitCode).toBe(0);
  }, 30_000);
});

describe("ctx init with agent config files that are links or pipes", () => {
  it("refuses to read or write through a link out of the project, a dangling link or a FIFO", () => {
    const elsewhere = tempDir("ctx-init-elsewhere-");
    const userFile = join(elsewhere, "settings.json");
    writeFileSync(userFile, '{"mine": true}\n');
    const cases: [string, (root: string) => void, RegExp][] = [
      [
        "a link out",
        (root) => symlinkSync(userFile, join(root, ".mcp.json")),
        /\.mcp\.json: cannot use it: it leads outside/,
      ],
      [
        "a dangling link",
        (root) => symlinkSync(join(elsewhere, "created.json"), join(root, ".mcp.json")),
        /\.mcp\.json: is a symbolic link to a missing file/,
      ],
      [
        "a FIFO",
        (root) => mkfifo(join(root, ".mcp.json")),
        /\.mcp\.json: cannot use it: it is a FIFO/,
      ],
    ];
    for (const [, plant, message] of cases) {
      const root = tempDir("ctx-init-hostile-");
      writeFiles(root, SOURCE);
      plant(root);
      const result = ctx(["init", "claude-code"], root);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toMatch(/nothing was written/);
    }
    expect(readFileSync(userFile, "utf8")).toBe('{"mine": true}\n');
    expect(existsSync(join(elsewhere, "created.json"))).toBe(false);
  });
});
