import { homedir } from "node:os";
import { join } from "node:path";

/** The user-level config file: `$XDG_CONFIG_HOME/ctx/config.toml` or `~/.config/ctx/config.toml`. */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.length > 0
      ? env.XDG_CONFIG_HOME
      : join(homedir(), ".config");
  return join(base, "ctx", "config.toml");
}
