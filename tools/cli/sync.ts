/**
 * `main.ts sync`: copies another server's catalogue (its `/api/v1/`) into
 * the database.
 *
 * @module
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { ImportError, sync, SYNC_DEFAULTS, SyncError, WriterBusyError } from "../../data/mod.ts";
import { defineCommand } from "./command.ts";
import { DB_FLAG, numberFlag, UsageError } from "./flags.ts";
import { isSqliteError } from "./failures.ts";

const POSITIVE = { whole: true, min: 1, must: "a positive whole number" };

/** `main.ts sync`. */
export const syncCommand = defineCommand({
  name: "sync",
  summary: "Copies the catalogue of another server (its /api/v1/) into the database.",
  positionals: "URL",
  flags: {
    db: DB_FLAG,
    "max-pages": numberFlag("N", "Pages read at most.", POSITIVE, {
      default: String(SYNC_DEFAULTS.maxPages),
    }),
    "max-records": numberFlag("N", "Records read at most.", POSITIVE, {
      default: String(SYNC_DEFAULTS.maxRecords),
    }),
  },
  docs: "docs/data.md",
  async run(values, positionals) {
    if (positionals.length !== 1) throw new UsageError("sync needs exactly one URL.");
    const url = positionals[0];
    if (!/^https?:\/\/[^\s/]+/.test(url)) {
      throw new UsageError(`sync needs an http(s) URL, got "${url}".`);
    }
    mkdirSync(dirname(values.db), { recursive: true });
    try {
      const r = await sync(url, {
        target: values.db,
        progress: true,
        maxPages: values["max-pages"],
        maxRecords: values["max-records"],
      });
      const read = Object.entries(r.records as Record<string, number>).map(([c, n]) => `${n} ${c}`);
      console.log(
        `Synced ${read.join(", ")} from ${url} into ${values.db}: ${r.inserted} inserted, ` +
          `${r.updated} updated, ${r.unchanged} unchanged (revision ${r.revision}).`,
      );
      return 0;
    } catch (err) {
      if (err instanceof SyncError && err.committed > 0) {
        console.error(`Sync stopped: ${err.message}`);
        return 1;
      }
      if (
        err instanceof SyncError || err instanceof ImportError || err instanceof WriterBusyError ||
        isSqliteError(err)
      ) {
        console.error(`Sync failed, nothing was written: ${(err as Error).message}`);
        return 1;
      }
      throw err;
    }
  },
});
