/**
 * The server as users run it: `main.ts serve` in a child process on a
 * loopback port, with its stderr collected, for the tests that need the
 * real process (its exit, its signals, its open-file limit).
 *
 * @module
 */
import { createDemoDatabase } from "../data/mod.ts";

/** The server's entry point. */
export const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** A server process with its stderr collected as it comes. */
export interface ServerProcess {
  child: Deno.ChildProcess;
  url: string;
  /** What it printed on stdout up to its "Serving ... at URL" line, that line included. */
  startOutput: string;
  stderr(): string;
}

/**
 * Starts `main.ts serve` on a free loopback port with the demo database in
 * `dir` (render workers off) and `extra` flags, under `ulimit -n fileLimit`
 * when given, with `env` added to the environment; resolves once it listens.
 */
export async function startServerProcess(
  dir: string,
  extra: string[] = [],
  fileLimit?: number,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const args = [
    "run",
    "--allow-all",
    MAIN,
    "serve",
    "--host",
    "127.0.0.1",
    "--port",
    "0",
    "--db",
    `${dir}/catalog.db`,
    "--render-workers",
    "0",
    ...extra,
  ];
  const quoted = [Deno.execPath(), ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`);
  const child = fileLimit === undefined
    ? new Deno.Command(Deno.execPath(), { args, env, stdout: "piped", stderr: "piped" }).spawn()
    : new Deno.Command("bash", {
      args: ["-c", `ulimit -n ${fileLimit} && exec ${quoted.join(" ")}`],
      env,
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  let err = "";
  (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) err += chunk;
  })();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (true) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the server ended before listening: ${out}\n${err}`);
    out += value;
    const m = out.match(/Serving .* at (http:\/\/127\.0\.0\.1:\d+)\//);
    if (m) {
      // Keep draining stdout so the server never blocks on a full pipe.
      (async () => {
        while (!(await reader.read()).done) { /* drop */ }
      })();
      return { child, url: m[1], startOutput: out, stderr: () => err };
    }
  }
}

/** A temporary folder with a demo catalogue in it (`catalog.db`). */
export async function demoDir(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "http-process-" });
  await createDemoDatabase(`${dir}/catalog.db`);
  return dir;
}

/** GETs `url` until it answers 200 or `ms` pass; returns the last status (0 = no answer). */
export async function getUntilOk(url: string, ms: number): Promise<number> {
  const until = performance.now() + ms;
  let status = 0;
  while (performance.now() < until) {
    const res = await fetch(url, { headers: { connection: "close" } }).catch(() => null);
    status = res?.status ?? 0;
    await res?.body?.cancel();
    if (status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return status;
}

/** Waits for the child to exit; kills it and throws after `ms`. */
export async function exitWithin(
  child: Deno.ChildProcess,
  ms: number,
): Promise<Deno.CommandStatus> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((r) => timer = setTimeout(() => r(null), ms));
  const st = await Promise.race([child.status, late]);
  clearTimeout(timer);
  if (st === null) {
    child.kill("SIGKILL");
    await child.status;
    throw new Error(`the server was still running ${ms} ms after the signal`);
  }
  return st;
}

/** Kills the server (if it still runs), waits for it and removes its folder `dir`. */
export async function killServerProcess(server: ServerProcess, dir: string): Promise<void> {
  try {
    server.child.kill("SIGKILL");
  } catch { /* exited */ }
  await server.child.status;
  await Deno.remove(dir, { recursive: true });
}

/**
 * Reads `stream` (a child's stdout) until `re` matches what was read; resolves
 * with the match and releases the stream.
 */
export async function waitForLine(
  stream: ReadableStream<Uint8Array>,
  re: RegExp,
): Promise<RegExpMatchArray> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  while (true) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended before ${re}; got: ${buf}`);
    buf += value;
    const m = buf.match(re);
    if (m) {
      reader.releaseLock();
      return m;
    }
  }
}
