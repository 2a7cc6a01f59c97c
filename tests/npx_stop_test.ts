/**
 * The README's way of running, `npx -y deno@2.9.6 task start`, stops
 * completely when the npx process is signalled (issue 7, item 4): no
 * `deno task` or server may be left answering. Linux only (the process tree
 * is read from /proc); skipped where npx is not installed.
 */
import assert from "node:assert/strict";

const ROOT = new URL("..", import.meta.url).pathname;

function hasNpx(): boolean {
  try {
    return new Deno.Command("npx", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

/** Every live pid whose ancestry includes `root` (and `root` itself). */
function processTree(root: number): number[] {
  const parent = new Map<number, number>();
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      parent.set(Number(e.name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch { /* exited meanwhile */ }
  }
  return [...parent.keys()].filter((pid) => {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root) return true;
    }
    return false;
  });
}

function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

async function answers(url: string): Promise<boolean> {
  const res = await fetch(url, { headers: { connection: "close" } }).catch(() => null);
  await res?.body?.cancel();
  return res !== null;
}

async function startThroughNpx(
  dir: string,
  fileLimit?: number,
): Promise<{ child: Deno.ChildProcess; url: string }> {
  // setsid makes npx the leader of its own process group, as a terminal's
  // job would be, so that the group can be signalled like Ctrl-C does.
  const limit = fileLimit === undefined ? [] : ["prlimit", `--nofile=${fileLimit}`];
  const child = new Deno.Command(limit.length ? limit[0] : "setsid", {
    args: [
      ...limit.slice(1),
      ...(limit.length ? ["setsid"] : []),
      "npx",
      "-y",
      "deno@2.9.6",
      "task",
      "start",
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--db",
      `${dir}/catalog.db`,
      "--output-dir",
      `${dir}/output`,
    ],
    cwd: ROOT,
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (true) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`npx ended before the server listened: ${out}`);
    out += value;
    const m = out.match(/Serving .* at (http:\/\/127\.0\.0\.1:\d+)\//);
    if (m) {
      (async () => {
        while (!(await reader.read()).done) { /* drop */ }
      })();
      return { child, url: m[1] };
    }
  }
}

async function stopsCompletely(signal: "SIGTERM" | "SIGINT", toGroup: boolean): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "npx-stop-" });
  const { child, url } = await startThroughNpx(dir);
  const tree = processTree(child.pid);
  try {
    assert.ok(tree.length >= 3, `npx, deno task and the server run: ${tree}`);
    assert.ok(await answers(`${url}/api/v1/`));
    Deno.kill(toGroup ? -child.pid : child.pid, signal);
    const until = performance.now() + 8000;
    while (performance.now() < until && tree.some(alive)) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(tree.filter(alive), [], "no process of the tree is left");
    assert.equal(await answers(`${url}/api/v1/`), false, "the port no longer answers");
  } finally {
    for (const pid of tree.filter(alive)) Deno.kill(pid, "SIGKILL");
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
}

const ignore = Deno.build.os !== "linux" || !hasNpx();

Deno.test({
  name: "npx: SIGTERM to the npx process stops deno task and the server",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () => stopsCompletely("SIGTERM", false),
});

Deno.test({
  name: "npx: SIGINT to npx's process group (Ctrl-C) stops everything",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () => stopsCompletely("SIGINT", true),
});

Deno.test({
  name: "npx: at its open-file limit the server is not mistaken for orphaned",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // Reading /proc fails with EMFILE while the connections hold every
    // descriptor; the launcher watch must take that for "unknown", not "gone".
    const dir = await Deno.makeTempDir({ prefix: "npx-stop-" });
    const { child, url } = await startThroughNpx(dir, 256);
    const tree = processTree(child.pid);
    const conns: Deno.Conn[] = [];
    try {
      const { hostname, port } = new URL(url);
      for (let i = 0; i < 300; i++) {
        conns.push(await Deno.connect({ hostname, port: Number(port) }));
      }
      await new Promise((r) => setTimeout(r, 2000));
      for (const c of conns.splice(0)) c.close();
      let ok = false;
      for (let i = 0; i < 100 && !ok; i++) {
        ok = await answers(`${url}/api/v1/`);
        if (!ok) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(ok, "the server answers after the connections closed");
      assert.deepEqual(tree.filter((pid) => !alive(pid)), [], "every process is still running");
    } finally {
      for (const c of conns) c.close();
      Deno.kill(child.pid, "SIGTERM");
      for (let i = 0; i < 80 && tree.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
      for (const pid of tree.filter(alive)) Deno.kill(pid, "SIGKILL");
      await child.status;
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "npx: a server started without npm outlives the shell that started it (nohup-style)",
  ignore: Deno.build.os !== "linux",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "npx-stop-" });
    const log = `${dir}/server.log`;
    const main = new URL("../main.ts", import.meta.url).pathname;
    // bash starts the server in the background and exits at once; no npm_*
    // variables, as under nohup, systemd or docker.
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(Deno.env.toObject())) {
      if (!k.startsWith("npm_")) env[k] = v;
    }
    const script = `'${Deno.execPath()}' run -A '${main}' serve --host 127.0.0.1 --port 0 ` +
      `--db '${dir}/catalog.db' --output-dir '${dir}/output' > '${log}' 2>&1 & echo $!`;
    const out = await new Deno.Command("bash", { args: ["-c", script], env, clearEnv: true })
      .output();
    const pid = Number(new TextDecoder().decode(out.stdout).trim());
    try {
      let url = "";
      for (let i = 0; i < 300 && !url; i++) {
        await new Promise((r) => setTimeout(r, 100));
        url = (await Deno.readTextFile(log).catch(() => "")).match(
          /Serving .* at (http:\/\/127\.0\.0\.1:\d+)\//,
        )?.[1] ?? "";
      }
      assert.ok(url, "the server started");
      await new Promise((r) => setTimeout(r, 1500));
      assert.ok(alive(pid), "the server is still running after its shell exited");
      assert.ok(await answers(`${url}/api/v1/`));
    } finally {
      if (alive(pid)) Deno.kill(pid, "SIGTERM");
      for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
      await Deno.remove(dir, { recursive: true });
    }
  },
});
