/**
 * The test runner behind `deno task test`: runs `deno test --allow-all
 * --parallel` (extra arguments are passed on), then ends the output with one
 * line naming every reference test that was skipped and why, and a plain
 * `N passed, N failed, N skipped` line. Exits with `deno test`'s status.
 *
 * Skips are collected through the `TEST_SKIP_LOG` file that
 * `tests/_optional.ts` appends to (test files run in parallel, so each one
 * writes its own lines); the counts come from `deno test`'s JUnit report.
 *
 * @module
 */
import { SKIP_LOG_VARIABLE, type SkipRecord, STRICT_VARIABLE } from "./_optional.ts";

/** Counts of a JUnit report: test steps (`parent > step`) are not counted. */
export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

const unescape = (s: string) =>
  s.replaceAll("&quot;", '"').replaceAll("&apos;", "'").replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">").replaceAll("&amp;", "&");

/**
 * Counts the top-level tests of a `deno test --junit-path` report.
 *
 * @example
 * ```ts
 * countJunit('<testcase name="a" classname="x"></testcase>'); // { passed: 1, failed: 0, skipped: 0 }
 * ```
 */
export function countJunit(xml: string): Counts {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  const names = new Set<string>();
  const cases: { name: string; body: string }[] = [];
  for (
    const m of xml.matchAll(
      /<testcase name="([^"]*)" classname="([^"]*)"[^>]*>([\s\S]*?)<\/testcase>/g,
    )
  ) {
    const name = `${m[2]}\u0000${unescape(m[1])}`;
    names.add(name);
    cases.push({ name, body: m[3] });
  }
  for (const c of cases) {
    const cut = c.name.lastIndexOf(" > ");
    if (cut > 0 && names.has(c.name.slice(0, cut))) continue; // a step of a counted test
    if (/<failure|<error/.test(c.body)) counts.failed++;
    else if (/<skipped/.test(c.body)) counts.skipped++;
    else counts.passed++;
  }
  return counts;
}

/**
 * The one-line summary of the skip log: every reference that was missing,
 * with how to enable it and how many tests it cost.
 *
 * @example
 * ```ts
 * skipSummary([]); // "Skipped reference tests: none."
 * ```
 */
export function skipSummary(records: SkipRecord[]): string {
  if (records.length === 0) return "Skipped reference tests: none.";
  const byRef = new Map<string, { tests: Set<string>; missing: string; enable: string }>();
  for (const r of records) {
    const e = byRef.get(r.reference) ??
      { tests: new Set<string>(), missing: r.missing, enable: r.enable };
    e.tests.add(r.test);
    byRef.set(r.reference, e);
  }
  const tests = new Set(records.map((r) => r.test)).size;
  const parts = [...byRef].sort(([a], [b]) => a.localeCompare(b)).map(([name, e]) =>
    `${name} x${e.tests.size} (${e.missing}; ${e.enable})`
  );
  const strict = records.some((r) => r.requiredInCi !== false)
    ? ` ${STRICT_VARIABLE}=required turns these skips into failures.`
    : "";
  return `Skipped reference tests: ${tests} — ${parts.join(", ")}.${strict}`;
}

if (import.meta.main) {
  const dir = await Deno.makeTempDir({ prefix: "deno-test-run-" });
  const log = `${dir}/skips.jsonl`;
  const junit = `${dir}/junit.xml`;
  await Deno.writeTextFile(log, "");
  const status = await new Deno.Command(Deno.execPath(), {
    args: ["test", "--allow-all", "--parallel", `--junit-path=${junit}`, ...Deno.args],
    env: { [SKIP_LOG_VARIABLE]: log },
    stdin: "null",
  }).spawn().status;
  const records = (await Deno.readTextFile(log)).split("\n").filter((l) => l.trim())
    .map((l) => JSON.parse(l) as SkipRecord);
  let report: string | undefined;
  try {
    report = await Deno.readTextFile(junit);
  } catch {
    // deno test stopped before writing its report (e.g. a type error): its exit status says so
  }
  await Deno.remove(dir, { recursive: true });
  console.log("");
  console.log(skipSummary(records));
  if (report !== undefined) {
    const c = countJunit(report);
    console.log(`${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
  }
  Deno.exit(status.code);
}
