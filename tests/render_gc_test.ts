/**
 * Render workers collect their garbage between jobs once it passed the
 * pool's budget, when the process runs with `--v8-flags=--expose-gc` (as
 * `deno task start` does), and never without it (bench/README.md history in git, "Soak
 * memory").
 */
import assert from "node:assert/strict";

interface ProbeStats {
  collections: number;
  jobsBehindCollection: number;
  jobs: number[];
  warmedWorkers: number;
}

/** The probe's printed stats: the last line, and all of them. */
async function probeLines(
  v8Flags: string[],
  workers = 1,
  opts?: Record<string, number>,
): Promise<ProbeStats[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...v8Flags,
      "--allow-all",
      new URL("./_gc_probe.ts", import.meta.url).pathname,
      String(workers),
      ...(opts ? [JSON.stringify(opts)] : []),
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return text.trim().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
}

/**
 * One worker under --expose-gc whose every job passes a tiny budget and none its limit, so it
 * collects only once idle for `gcIdleMs`: its stats right after `jobs` back-to-back jobs, then
 * once it collected.
 */
function idleProbe(gcIdleMs: number, jobs: number): Promise<ProbeStats[]> {
  return probeLines(["--v8-flags=--expose-gc"], 1, {
    gcBudgetMb: 1 / 1024,
    gcLimitMb: 100_000,
    gcIdleMs,
    waitIdleMs: 30_000,
    jobs,
  });
}

async function probe(v8Flags: string[], workers = 1): Promise<ProbeStats> {
  return (await probeLines(v8Flags, workers)).at(-1)!;
}

Deno.test("render workers collect garbage between jobs under --expose-gc", async () => {
  const stats = await probe(["--v8-flags=--expose-gc"]);
  assert.ok(stats.collections >= 1, `collections: ${stats.collections}`);
});

Deno.test("a job is not sent to a worker collecting its garbage while another is idle", async () => {
  // Each job leaves more garbage than the 1 MiB budget, so each worker collects after each job;
  // the next job, sent as soon as the last one is answered, must go to the other worker. Before,
  // every job of a one-at-a-time client went to the first worker and waited for its collection.
  const stats = await probe(["--v8-flags=--expose-gc"], 2);
  assert.equal(stats.warmedWorkers, 2);
  assert.equal(stats.jobs.length, 2);
  assert.ok(stats.jobs.every((n) => n >= 1), `jobs per worker: ${stats.jobs}`);
});

Deno.test("a worker past its budget but under its limit collects once idle, not between jobs", async () => {
  // Every job leaves more than the tiny budget, none reaches the limit: the four jobs follow each
  // other without a collection (one would overlap the next request, bench/README.md history in git), and the
  // worker collects once it has been idle a second.
  const [afterJobs, idle] = await idleProbe(1000, 4);
  assert.deepEqual(afterJobs.jobs, [4]);
  assert.equal(afterJobs.collections, 0, "no collection between back-to-back jobs");
  assert.ok(idle.collections >= 1, `collections once idle: ${idle.collections}`);
});

Deno.test("an idle collection never holds up a job: the worker collects only with the pool's leave", async () => {
  // No quiet time before an idle collection is due and a budget every job passes: the worker's
  // timer fires right after each reply, while the pool is already posting the next job (sent as
  // soon as the last one is answered). Without leave from the pool, such jobs reached a worker
  // busy collecting and waited for it.
  const [afterJobs, idle] = await idleProbe(0, 12);
  assert.deepEqual(afterJobs.jobs, [12]);
  assert.equal(idle.jobsBehindCollection, 0);
  assert.ok(idle.collections >= 1, `collections once idle: ${idle.collections}`);
});

Deno.test("render workers never collect on their own without --expose-gc", async () => {
  const stats = await probe([]);
  assert.equal(stats.collections, 0);
});

Deno.test("deno task start runs the server with --expose-gc and an 8 MB young generation", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  assert.match(config.tasks.start, /--v8-flags=--expose-gc\b/);
  // Issue 10's memory goal (bench/README.md history in git, "Cold search with filters and memory").
  assert.match(config.tasks.start, /--v8-flags=\S*--max-semi-space-size=8\b/);
  const docker = await Deno.readTextFile(new URL("../Dockerfile", import.meta.url));
  assert.match(docker, /--v8-flags=--expose-gc,--max-semi-space-size=8/);
});

Deno.test("deno task start and the Dockerfile run the server with two malloc arenas", async () => {
  // Issue 10's memory goal (bench/README.md history in git, "Uncached API traffic (issue 10, fourth step)").
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  assert.match(config.tasks.start, /^MALLOC_ARENA_MAX=2 deno run /);
  const docker = await Deno.readTextFile(new URL("../Dockerfile", import.meta.url));
  assert.match(docker, /^ENV MALLOC_ARENA_MAX=2$/m);
});
