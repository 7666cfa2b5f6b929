import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load-config.js";
import { ConfigError } from "../../src/core/errors.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

describe("loadConfig", () => {
  it("uses defaults without any file", async () => {
    const root = tempDir();
    const config = await loadConfig(root, { XDG_CONFIG_HOME: root });
    expect(config.hydration.maxFileBytes).toBe(256 * 1024);
    expect(config.chunking.maxTokens).toBe(800);
    expect(config.tokens.counter).toBe("o200k");
    expect(config.sources).toEqual([]);
  });

  it("lets the project file override the user file key by key", async () => {
    const home = tempDir();
    const root = tempDir();
    writeFiles(home, { "ctx/config.toml": "[chunking]\nmax_tokens = 500\nmin_tokens = 10\n" });
    writeFiles(root, {
      "ctx.toml": '[chunking]\nmax_tokens = 300\n\n[hydration]\nskip_directories = ["vendor"]\n',
    });
    const config = await loadConfig(root, { XDG_CONFIG_HOME: home });
    expect(config.chunking).toMatchObject({ maxTokens: 300, minTokens: 10 });
    expect(config.hydration.skipDirectories).toEqual(["vendor"]);
    expect(config.sources).toEqual([join(home, "ctx/config.toml"), join(root, "ctx.toml")]);
  });

  it("names the file and the unknown key", async () => {
    const root = tempDir();
    writeFiles(root, { "ctx.toml": "[chunking]\nmax_tokenz = 300\n" });
    await expect(loadConfig(root, { XDG_CONFIG_HOME: root })).rejects.toThrow(ConfigError);
    await expect(loadConfig(root, { XDG_CONFIG_HOME: root })).rejects.toThrow(
      /ctx\.toml: unknown key "chunking\.max_tokenz"/,
    );
  });

  it("names the file and key of a value of the wrong type", async () => {
    const root = tempDir();
    writeFiles(root, { "ctx.toml": '[hydration]\nmax_file_bytes = "big"\n' });
    await expect(loadConfig(root, { XDG_CONFIG_HOME: root })).rejects.toThrow(
      /ctx\.toml: "hydration\.max_file_bytes": /,
    );
  });

  it("names the file and line of broken TOML", async () => {
    const root = tempDir();
    writeFiles(root, { "ctx.toml": "[chunking]\nmax_tokens = = 3\n" });
    await expect(loadConfig(root, { XDG_CONFIG_HOME: root })).rejects.toThrow(
      /ctx\.toml: line 2, column \d+: not valid TOML/,
    );
  });
});
