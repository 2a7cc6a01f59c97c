/**
 * Shared load-test machinery: start a server process, drive it with wrk (or
 * autocannon when wrk is missing) for a bounded time on 127.0.0.1, read
 * requests/s, p99 latency and the server's resident memory.
 *
 * @module
 */

/** One measured run. */
export interface LoadResult {
  rps: number;
  p99Ms: number;
  p50Ms: number;
  errors: number;
  /** Requests completed (wrk only). */
  requests?: number;
}

/** A process started for benchmarking. */
export interface BenchProcess {
  child: Deno.ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts `deno run -A <args>` and waits until stdout prints a line matching
 * `ready`. The process's stderr goes to ours, or appended to `stderrFile`.
 * `url` is the server's, or read from the match (a server started on port 0
 * prints the port it got).
 */
export async function startProcess(
  args: string[],
  ready: RegExp,
  url: string | ((match: RegExpExecArray) => string),
  stderrFile?: string,
  env?: Record<string, string>,
): Promise<BenchProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", ...args],
    env,
    stdout: "piped",
    stderr: stderrFile ? "piped" : "inherit",
  }).spawn();
  if (stderrFile) {
    const log = await Deno.open(stderrFile, { create: true, append: true });
    child.stderr.pipeTo(log.writable).catch(() => {});
  }
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  let match: RegExpExecArray | null;
  while ((match = ready.exec(buf)) === null) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`process exited before it was ready: ${buf}`);
    buf += value;
  }
  // Keep draining stdout so the process never blocks on a full pipe.
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })().catch(() => {});
  return {
    child,
    url: typeof url === "string" ? url : url(match),
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
    },
  };
}

/**
 * CPU time a process has used so far (user + system, all its threads), in
 * ms, from /proc: taken around a run, it tells the server's cost per request
 * even when other processes share the cores.
 *
 * @example
 * ```ts
 * import { cpuMs } from "./_load.ts";
 * cpuMs(Deno.pid); // e.g. 1234.5
 * ```
 */
export function cpuMs(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 1000 / CLOCK_TICKS;
}

/** Linux's USER_HZ: /proc counts CPU time in hundredths of a second. */
const CLOCK_TICKS = 100;

/**
 * MiB the kernel has read from block devices since boot (`pgpgin` of
 * /proc/vmstat), NaN where /proc lacks it. The difference over a run shows
 * whether a server read its file from disk rather than the page cache.
 *
 * @example
 * ```ts
 * import { diskReadMiB } from "./_load.ts";
 * const before = diskReadMiB();
 * // ... a run ...
 * console.log(`${(diskReadMiB() - before).toFixed(1)} MiB read from disk`);
 * ```
 */
export function diskReadMiB(): number {
  try {
    const m = Deno.readTextFileSync("/proc/vmstat").match(/^pgpgin (\d+)$/m);
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/**
 * Reads `path` from start to end and drops the bytes, so that its pages are
 * in the OS page cache when a run begins (a file left alone for a while may
 * have been paged out, and whichever server reads it first would pay for
 * the disk). A missing file is skipped.
 *
 * @example
 * ```ts
 * import { readThrough } from "./_load.ts";
 * await readThrough("var/bench/catalog-200k.db");
 * ```
 */
export async function readThrough(path: string): Promise<void> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return;
    throw err;
  }
  try {
    const buf = new Uint8Array(1 << 20);
    while ((await file.read(buf)) !== null) { /* the page cache keeps what was read */ }
  } finally {
    file.close();
  }
}

/** Resident set size and its peak, in MiB, from /proc. */
export function rssMiB(pid: number): { rss: number; peak: number } {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = (key: string) => Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

function hasWrk(): boolean {
  try {
    // `wrk --version` exits 1; that it ran at all is the answer.
    new Deno.Command("wrk", { args: ["--version"], stdout: "null", stderr: "null" }).outputSync();
    return true;
  } catch {
    return false;
  }
}

function ms(text: string): number {
  const m = text.match(/^([\d.]+)(us|ms|s)$/);
  if (!m) return NaN;
  const v = Number(m[1]);
  return m[2] === "us" ? v / 1000 : m[2] === "s" ? v * 1000 : v;
}

/** Options of {@linkcode load}. */
export interface LoadOptions {
  /** wrk threads (default 1: the machine has two cores, the other is the server's). */
  threads?: number;
  /** A wrk Lua script that chooses each request (wrk only). */
  script?: string;
  /** Extra environment for wrk (read by the script with `os.getenv`). */
  env?: Record<string, string>;
}

/**
 * Drives `url` for `seconds` with `connections` keep-alive connections from
 * one thread (the machine has two cores; the other belongs to the server).
 */
export async function load(
  url: string,
  seconds: number,
  connections = 32,
  opts: LoadOptions = {},
): Promise<LoadResult> {
  if (opts.script && !hasWrk()) {
    throw new Error("This benchmark needs wrk (Debian package wrk) to run its request script.");
  }
  if (hasWrk()) {
    const out = await new Deno.Command("wrk", {
      args: [
        `-t${opts.threads ?? 1}`,
        `-c${connections}`,
        `-d${seconds}s`,
        "--latency",
        ...(opts.script ? ["-s", opts.script] : []),
        url,
      ],
      env: opts.env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    const rps = Number(text.match(/Requests\/sec:\s+([\d.]+)/)?.[1]);
    const p99 = ms(text.match(/\s99%\s+(\S+)/)?.[1] ?? "");
    const p50 = ms(text.match(/\s50%\s+(\S+)/)?.[1] ?? "");
    const non2xx = Number(text.match(/Non-2xx or 3xx responses:\s+(\d+)/)?.[1] ?? 0);
    const sockErr = text.match(
      /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/,
    );
    const errors = non2xx + (sockErr ? sockErr.slice(1).reduce((a, b) => a + Number(b), 0) : 0);
    const requests = Number(text.match(/(\d+) requests in/)?.[1]);
    return { rps, p99Ms: p99, p50Ms: p50, errors, requests };
  }
  const { default: autocannon } = await import("autocannon");
  // deno-lint-ignore no-explicit-any
  const r: any = await autocannon({ url, connections, duration: seconds });
  return {
    rps: r.requests.average,
    p99Ms: r.latency.p99,
    p50Ms: r.latency.p50,
    errors: r.errors + r.non2xx,
  };
}

/**
 * The `--v8-flags=...` argument `deno task start` runs the server with (read
 * from deno.json), so benchmarks start our server as users do.
 *
 * @example
 * ```ts
 * import { startV8Flags } from "./_load.ts";
 * const args = ["run", startV8Flags(), "-A", "main.ts", "serve"];
 * ```
 */
export function startV8Flags(): string {
  const flag = startTask().split(/\s+/).find((a) => a.startsWith("--v8-flags="));
  if (!flag) throw new Error("deno.json's start task has no --v8-flags.");
  return flag;
}

/**
 * The environment deno.json's start task sets for the server (its leading
 * `NAME=value` words), so benchmarks run it as `deno task start` does.
 *
 * @example
 * ```ts
 * import { startEnv } from "./_load.ts";
 * startEnv(); // { MALLOC_ARENA_MAX: "2" }
 * ```
 */
export function startEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const word of startTask().split(/\s+/)) {
    const m = word.match(/^([A-Z_][A-Z0-9_]*)=(.*)$/);
    if (!m) break;
    env[m[1]] = m[2];
  }
  return env;
}

function startTask(): string {
  const config = JSON.parse(Deno.readTextFileSync(new URL("../deno.json", import.meta.url))) as {
    tasks: { start: string };
  };
  return config.tasks.start;
}
