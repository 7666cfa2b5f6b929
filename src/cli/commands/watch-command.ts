import type { Command } from "commander";
import { writeErr } from "../output.js";
import { startWatching, untilSignal } from "../watching.js";
import { dbFlag, dbOption, withEngine } from "../with-engine.js";

interface WatchFlags {
  db?: string;
  refresh: boolean;
}

export function registerWatchCommand(
  program: Command,
  run: (action: () => Promise<number>) => Promise<void>,
): void {
  program
    .command("watch")
    .description(
      "keep the index fresh without serving: index each saved file as it changes (Ctrl-C stops)",
    )
    .option("--no-refresh", "do not refresh the index before watching")
    .addOption(dbFlag())
    .action((flags: WatchFlags) =>
      run(() =>
        withEngine(dbOption(flags), async (engine) => {
          if (engine.store.readOnly !== null) {
            writeErr(
              `ctx: ${engine.indexPath}: cannot watch: the index was opened read-only: ${engine.store.readOnly}\n`,
            );
            return 1;
          }
          const signal = untilSignal();
          try {
            if (flags.refresh) {
              // A signal stops the first refresh between files, keeping what it wrote.
              const stop = new AbortController();
              void signal.stopped.then(() => stop.abort());
              const report = await engine.refresh({ signal: stop.signal }).catch((error) => {
                if (stop.signal.aborted) return null;
                throw error;
              });
              if (!report) return 0;
              writeErr(
                `ctx: index up to date: ${report.added} added, ${report.changed} changed, ${report.removed} removed\n`,
              );
            }
            const watcher = await startWatching(engine, true, flags.refresh);
            if (!watcher) return 1;
            await signal.stopped;
            await watcher.close();
            writeErr("ctx: stopped watching\n");
            return 0;
          } finally {
            signal.dispose();
          }
        }),
      ),
    );
}
