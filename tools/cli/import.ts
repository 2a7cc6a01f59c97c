/**
 * `main.ts import`: loads JSON/NDJSON files into the catalogue, each file
 * whole or not at all.
 *
 * @module
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import {
  type CollectionName,
  ImportError,
  importFiles,
  progressBar,
  WriterBusyError,
} from "../../data/mod.ts";
import { defineCommand } from "./command.ts";
import { DB_FLAG, type Flag, UsageError } from "./flags.ts";
import { isSqliteError } from "./failures.ts";

const COLLECTION_ALIASES: Record<string, CollectionName> = {
  agency: "agencies",
  agencies: "agencies",
  vacancy: "vacancies",
  vacancies: "vacancies",
  competition: "competitions",
  competitions: "competitions",
};

/** `--collection agency|vacancy|competition`. */
const COLLECTION_FLAG: Flag<CollectionName | undefined> = {
  arg: "agency|vacancy|competition",
  help: "The collection the files hold (default: told by each record).",
  read(text) {
    if (text === undefined) return undefined;
    const name = COLLECTION_ALIASES[text];
    if (!name) {
      throw new UsageError(
        `--collection must be agencies, vacancies or competitions, got "${text}".`,
      );
    }
    return name;
  },
};

/** `main.ts import`. */
export const importCommand = defineCommand({
  name: "import",
  summary: "Imports JSON or NDJSON files into the database (a file with a bad record: nothing).",
  positionals: "FILE...",
  flags: { db: DB_FLAG, collection: COLLECTION_FLAG },
  docs: "docs/data.md",
  async run(values, files) {
    if (files.length === 0) throw new UsageError("import needs at least one FILE.");
    mkdirSync(dirname(values.db), { recursive: true });
    try {
      const bar = progressBar("import");
      const r = await importFiles(values.db, files, {
        collection: values.collection,
        onProgress: (n) => bar.update(n, 0, "records"),
      }).then((r) => (bar.finish(), r), (err) => {
        bar.stop();
        throw err;
      });
      const read = Object.entries(r.records as Record<string, number>).filter(([, n]) => n > 0)
        .map(([c, n]) => `${n} ${c}`);
      console.log(
        `Imported ${read.join(", ") || "nothing"} into ${values.db}: ${r.inserted} inserted, ` +
          `${r.updated} updated, ${r.unchanged} unchanged (revision ${r.revision}).`,
      );
      return 0;
    } catch (err) {
      if (err instanceof ImportError) {
        console.error(`Import rejected, nothing was written: ${err.message}`);
        return 1;
      }
      if (err instanceof WriterBusyError) {
        console.error(`Import rejected: ${err.message}`);
        return 1;
      }
      if (isSqliteError(err)) {
        // e.g. "database or disk is full": SQLite rolled the transaction back.
        console.error(`Import failed, nothing was written: ${(err as Error).message}.`);
        return 1;
      }
      throw err;
    }
  },
});
