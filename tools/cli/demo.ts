/**
 * `main.ts demo`: writes the demo catalogue (agencies, vacancies,
 * competitions) into a new database.
 *
 * @module
 */
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { createDemoDatabase, progressBar } from "../../data/mod.ts";
import { defineCommand } from "./command.ts";
import { DB_FLAG, numberFlag, switchFlag, UsageError } from "./flags.ts";

/** `main.ts demo`. */
export const demoCommand = defineCommand({
  name: "demo",
  summary: "Creates the demo database.",
  flags: {
    db: DB_FLAG,
    scale: numberFlag("VACANCIES", "Vacancies to generate (default: the demo's own count).", {
      whole: true,
      min: 1,
      must: "a positive whole number of vacancies",
    }),
    force: switchFlag("Replace the database if it exists."),
  },
  docs: "docs/data.md",
  async run(values) {
    if (existsSync(values.db)) {
      if (!values.force) throw new UsageError(`${values.db} exists; pass --force to replace it.`);
      for (const suffix of ["", "-wal", "-shm"]) {
        await Deno.remove(values.db + suffix).catch(() => {});
      }
    }
    mkdirSync(dirname(values.db), { recursive: true });
    const t0 = performance.now();
    const bar = progressBar("demo data");
    const report = createDemoDatabase(values.db, {
      vacancies: values.scale,
      onProgress: (done, total) => bar.update(done, total),
    });
    bar.finish();
    console.log(
      `Created ${values.db}: ${report.agencies} agencies, ${report.vacancies} vacancies, ` +
        `${report.competitions} competitions, ${(report.bytes / 2 ** 20).toFixed(1)} MiB in ` +
        `${((performance.now() - t0) / 1000).toFixed(1)} s.`,
    );
    return 0;
  },
});
