import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const PG_BIN = "/usr/lib/postgresql/15/bin";

/** Whether this machine can start a cluster of its own (the server binaries, and root to run them as postgres). */
export const canStartCluster = existsSync(join(PG_BIN, "pg_ctl")) && process.getuid?.() === 0;

export interface PrivateCluster {
  readonly url: string;
  /** Restarts the server as an administrator would (fast shutdown: open connections are cut). */
  restart(): void;
  stop(): void;
}

function asPostgres(command: string): void {
  execFileSync("su", ["postgres", "-s", "/bin/bash", "-c", command], { stdio: "ignore" });
}

/**
 * A PostgreSQL cluster of one test's own, on a loopback port of its own, so the
 * test may restart it without touching the server other tests share.
 */
export function startPrivateCluster(): PrivateCluster {
  const dir = mkdtempSync(join(tmpdir(), "ctx-private-pg-"));
  chownSync(dir, Number(execFileSync("id", ["-u", "postgres"]).toString()), 0);
  const port = 56000 + Math.floor(Math.random() * 4000);
  const data = join(dir, "data");
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  asPostgres(`${PG_BIN}/initdb -D ${data} -U postgres -A trust --no-sync >/dev/null`);
  const start = () =>
    asPostgres(`${PG_BIN}/pg_ctl -D ${data} -o "${options}" -l ${dir}/log -w start`);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart() {
      asPostgres(`${PG_BIN}/pg_ctl -D ${data} -o "${options}" -l ${dir}/log -m fast -w restart`);
    },
    stop() {
      try {
        asPostgres(`${PG_BIN}/pg_ctl -D ${data} -m immediate stop`);
      } finally {
        // An immediate stop may leave a server process finishing a write for a moment.
        rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      }
    },
  };
}
