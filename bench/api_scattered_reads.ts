/**
 * What a page of ten records costs SQLite when the records are adjacent (a
 * default-order page: what `bench/_floor_server.ts` reads for every list
 * request, filtered or not) and when they are scattered over the table (a
 * page of a filter, a search or another ordering: what our server must
 * read), in this process, on the same database and page cache as the
 * server's read-only connection (16 MiB unless `--cache-kib`).
 *
 * Each way is timed over the same `--pages` random pages, in turns
 * (`--rounds`, the first one a warm-up), as one `IN (...)` statement and as
 * ten single-row lookups. Prints a Markdown table.
 *
 * ```
 * deno run -A bench/api_scattered_reads.ts [--db var/bench/catalog-200k.db] [--pages 4000]
 *   [--rounds 4] [--cache-kib 16384] [--seed 1]
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { DatabaseSync } from "node:sqlite";
import { prng } from "./_random.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    db: { type: "string", default: "var/bench/catalog-200k.db" },
    pages: { type: "string", default: "4000" },
    rounds: { type: "string", default: "4" },
    "cache-kib": { type: "string", default: "16384" },
    seed: { type: "string", default: "1" },
  },
});
const PAGE = 10;
const db = new DatabaseSync(values.db, { readOnly: true });
db.exec(`PRAGMA cache_size = -${Number(values["cache-kib"])}`);
db.exec("PRAGMA mmap_size = 0");
// One read transaction, as the floor holds: no statement pays for the WAL read lock.
db.exec("BEGIN");
const listed = (db.prepare("SELECT id FROM vacancy_list ORDER BY seq").all() as { id: number }[])
  .map((r) => r.id);
const random = prng(Number(values.seed));
const pick = (n: number) => Math.floor(random() * n);
const count = Number(values.pages);
const adjacent = Array.from({ length: count }, () => {
  const start = pick(listed.length - PAGE);
  return listed.slice(start, start + PAGE);
});
const scattered = Array.from(
  { length: count },
  () => Array.from({ length: PAGE }, () => listed[pick(listed.length)]).sort((a, b) => a - b),
);
const inList = db.prepare(
  `SELECT r.id AS id, CAST(r.doc AS BLOB) AS doc FROM vacancy AS r WHERE r.id IN (${
    Array(PAGE).fill("?").join(", ")
  })`,
);
const one = db.prepare("SELECT CAST(r.doc AS BLOB) AS doc FROM vacancy AS r WHERE r.id = ?");
const ways: Record<string, (ids: number[]) => unknown> = {
  "one IN (...) statement": (ids) => inList.all(...ids),
  "ten single-row lookups": (ids) => ids.map((id) => one.get(id)),
};
const sets = { adjacent, scattered };
const totals = new Map<string, number>();
const rounds = Number(values.rounds);
for (let round = 0; round < rounds; round++) {
  for (const [way, read] of Object.entries(ways)) {
    for (const [name, pages] of Object.entries(sets)) {
      const t0 = performance.now();
      for (const ids of pages) read(ids);
      const us = (performance.now() - t0) * 1000 / pages.length;
      if (round > 0) totals.set(`${way}|${name}`, (totals.get(`${way}|${name}`) ?? 0) + us);
    }
  }
}
const mean = (key: string) => totals.get(key)! / (rounds - 1);
console.log(
  [
    `${values.db}, ${count} pages of ${PAGE} published vacancies, page cache ${
      values["cache-kib"]
    } KiB, ${rounds - 1} timed rounds, load ${Deno.loadavg()[0].toFixed(1)} (1 min).`,
    "",
    "| read | adjacent records, us a page | scattered records, us a page | scattered / adjacent |",
    "| ---- | --------------------------: | ---------------------------: | -------------------: |",
    ...Object.keys(ways).map((way) => {
      const a = mean(`${way}|adjacent`), s = mean(`${way}|scattered`);
      return `| ${way} | ${a.toFixed(1)} | ${s.toFixed(1)} | ${(s / a).toFixed(2)}x |`;
    }),
  ].join("\n"),
);
db.close();
