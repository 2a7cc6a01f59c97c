/**
 * The first page of a search combined with a filter, cold (issue 10's goal:
 * <= 50 ms on the 1M database): a fresh server with its response cache off,
 * each combination asked once, end to end over HTTP on 127.0.0.1, then the
 * same request again (warm). Prints a Markdown table.
 *
 * ```
 * deno run -A bench/api_cold_search.ts [--db var/bench/catalog-1m.db] [--root DIR]
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { startProcess } from "./_load.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    db: { type: "string", default: "var/bench/catalog-1m.db" },
    root: { type: "string" },
    port: { type: "string", default: "18720" },
  },
});
const main = values.root
  ? `${values.root.replace(/\/$/, "")}/main.ts`
  : new URL("../main.ts", import.meta.url).pathname;

// Rare to very common (отдел is in every vacancy of the 1M database).
const words = ["специалист", "отдел", "эксперт", "аудит"];
// Every filter of the vacancy list with a search, and combinations of two.
const filters = [
  "agency=3",
  "group=2",
  "status=1",
  "industry=4",
  "agency=3&group=2",
  "salary_min=80000",
  "salary_max=60000",
  "salary_min=250000",
  "publish_date_from=2024-01-01",
  "publish_date_to=2023-03-31",
  "publish_date_from=2024-06-01&publish_date_to=2024-06-30",
  "salary_min=80000&publish_date_from=2024-01-01",
  "agency=3&salary_min=80000",
  "industry=4&publish_date_to=2023-06-30",
  "status=1&salary_max=100000",
];
// Competitions have their own date filter (the deadline).
const competitionFilters = [
  "deadline_from=2024-06-01",
  "deadline_to=2023-12-31&agency=3",
];

const server = await startProcess(
  [main, "serve", "--db", values.db, "--host", "127.0.0.1", "--port", values.port].concat([
    "--response-cache-mb",
    "0",
  ]),
  /Serving/,
  `http://127.0.0.1:${values.port}`,
);
async function timed(path: string): Promise<{ ms: number; count: number }> {
  const t0 = performance.now();
  const res = await fetch(server.url + path);
  const body = await res.json() as { count: number };
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  return { ms, count: body.count };
}
const rows: string[] = [];
try {
  await timed("/api/v1/vacancies/?page=2"); // opens the connection, warms nothing relevant
  const cases = words.flatMap((word) => [
    ...filters.map((filter) => ["vacancies", word, filter]),
    ...competitionFilters.map((filter) => ["competitions", word, filter]),
  ]);
  for (const [list, word, filter] of cases) {
    const path = `/api/v1/${list}/?search=${encodeURIComponent(word)}&${filter}`;
    const cold = await timed(path);
    const warm = await timed(path);
    rows.push(
      `| ${list} | ${word} | \`${filter}\` | ${cold.count} | ${cold.ms.toFixed(1)} | ${
        warm.ms.toFixed(1)
      } |`,
    );
  }
} finally {
  await server.stop();
}
console.log(
  [
    `Cold search + filter, first page, ${new Date().toISOString().slice(0, 16)}Z, load average ` +
    `${Deno.loadavg().map((n) => n.toFixed(1)).join(" ")}, fresh server, cache off.`,
    "",
    "| list | search | filter | count | cold ms | warm ms |",
    "| --- | --- | --- | ---: | ---: | ---: |",
    ...rows,
  ].join("\n"),
);
