/**
 * The request list of the JSON API mix (`bench/api_mix.ts`,
 * `bench/api_floor.ts`), drawn from a seed and the database's own counts so
 * every request is valid (200) and two runs send the same sequence:
 *
 * | share | request |
 * | ----: | ------- |
 * | 40% | a random page of the vacancy list |
 * | 20% | an agency filter and a random page of it |
 * | 10% | a search and a random page of it (first 1,000 pages) |
 * | 10% | ordering by salary (either direction) and a random page |
 * | 10% | a random published vacancy's detail |
 * | 10% | a random competitions page |
 *
 * @module
 */
import { openCatalog } from "../data/mod.ts";
import { prng } from "./_random.ts";

/** Which requests: the mix above, only default-order vacancy pages, or only details. */
export type Workload = "mix" | "pages" | "details";

/**
 * `count` request paths of `workload` against the database at `dbPath`.
 *
 * @example
 * ```ts
 * import { mixPaths } from "./_api_mix_paths.ts";
 * const paths = mixPaths("var/bench/catalog-200k.db", 20_000, 1, "mix");
 * ```
 */
export function mixPaths(
  dbPath: string,
  count: number,
  seed: number,
  workload: Workload,
): string[] {
  const random = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const catalog = openCatalog(dbPath, { readonly: true });
  try {
    const pages = (n: number) => Math.max(1, Math.ceil(n / 10));
    const vacancyPages = Math.min(100_000, pages(catalog.count("vacancies")));
    const competitionPages = pages(catalog.count("competitions"));
    const agencies = catalog.agencies().map((doc) => JSON.parse(doc).id as number)
      .map((id) => ({ id, pages: pages(catalog.count("vacancies", { agency: [id] })) }))
      .filter((a) => a.pages > 0);
    const words = ["специалист", "эксперт", "консультант", "инженер", "аудит", "отдел"]
      .map((word) => ({
        word,
        pages: Math.min(1000, pages(catalog.count("vacancies", { search: word }))),
      }))
      .filter((w) => w.pages > 1);
    const salaryPages = pages(
      catalog.count("vacancies", { ordering: [{ field: "salary_from", desc: false }] }),
    );
    const seqToId = catalog.db.prepare("SELECT id FROM vacancy_list WHERE seq = ?");
    const maxSeq = catalog.count("vacancies");
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      const r = workload === "pages" ? 0 : workload === "details" ? 85 : random() * 100;
      if (r < 40) out.push(`/api/v1/vacancies/?page=${int(1, vacancyPages)}`);
      else if (r < 60) {
        const a = agencies[int(0, agencies.length - 1)];
        out.push(`/api/v1/vacancies/?agency=${a.id}&page=${int(1, a.pages)}`);
      } else if (r < 70) {
        const w = words[int(0, words.length - 1)];
        out.push(`/api/v1/vacancies/?search=${encodeURIComponent(w.word)}&page=${int(1, w.pages)}`);
      } else if (r < 80) {
        const order = random() < 0.5 ? "salary_from" : "-salary_from";
        out.push(`/api/v1/vacancies/?ordering=${order}&page=${int(1, salaryPages)}`);
      } else if (r < 90) {
        const row = seqToId.get(int(1, maxSeq)) as { id: number };
        out.push(`/api/v1/vacancies/${row.id}/`);
      } else out.push(`/api/v1/competitions/?page=${int(1, competitionPages)}`);
    }
    return out;
  } finally {
    catalog.close();
  }
}

/** The kinds of request of the mix (the rows of the table above). */
export const MIX_KINDS = [
  "page",
  "agency",
  "search",
  "ordering",
  "detail",
  "competitions",
] as const;

/** One kind of request of the mix. */
export type MixKind = typeof MIX_KINDS[number];

/**
 * Which row of the mix a path of {@linkcode mixPaths} is, so one kind can be
 * measured alone (the floor ignores filters, search and ordering: a kind
 * alone shows what honouring them costs).
 *
 * @example
 * ```ts
 * import { mixKind } from "./_api_mix_paths.ts";
 * mixKind("/api/v1/vacancies/?agency=3&page=2"); // "agency"
 * ```
 */
export function mixKind(path: string): MixKind {
  if (path.startsWith("/api/v1/competitions/")) return "competitions";
  if (path.includes("agency=")) return "agency";
  if (path.includes("search=")) return "search";
  if (path.includes("ordering=")) return "ordering";
  if (!path.includes("?")) return "detail";
  return "page";
}

/**
 * Writes `paths` as the Lua table `bench/_api_mix.lua` reads (`API_MIX_PATHS`).
 *
 * @example
 * ```ts
 * import { writeLuaPaths } from "./_api_mix_paths.ts";
 * await writeLuaPaths("var/bench/paths.lua", ["/api/v1/vacancies/"]);
 * ```
 */
export async function writeLuaPaths(file: string, paths: readonly string[]): Promise<void> {
  await Deno.writeTextFile(
    file,
    `return {\n${paths.map((p) => `  ${JSON.stringify(p)},`).join("\n")}\n}\n`,
  );
}
