/**
 * Stops the server when the `npx` that started it is gone.
 *
 * `npx -y deno@2.9.6 task start` runs `npm exec` -> `sh -c deno task ...` ->
 * `deno task` -> `deno run main.ts serve`. A SIGTERM or SIGINT sent to the
 * npx process reaches only npm and the `sh` it forwards it to: both exit, and
 * `deno task` and the server, orphaned, would go on serving. So a server
 * started by npm (npm puts `npm_command` in the environment) watches every
 * process between itself and that npm process and shuts down like on
 * SIGTERM once one of them has gone. Servers started any other way (deno
 * directly, `deno task`, nohup, systemd, docker) watch nothing: losing a
 * parent shell must not stop them.
 *
 * @module
 */

/** What identifies a process: its pid and start time (pids are reused). */
interface ProcessId {
  pid: number;
  start: string;
}

interface ProcessInfo extends ProcessId {
  ppid: number;
  command: string;
}

/** How often the launcher chain is checked. */
const POLL_MS = 500;

/**
 * What reading a process said: its details, `"gone"` when it no longer
 * exists, or `"unknown"` when it could not be read just now (no file
 * descriptor left at the open-file limit, say), which must never be taken
 * for an exit.
 */
type ProcessRead = ProcessInfo | "gone" | "unknown";

function readProcLinux(pid: number): ProcessRead {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // Fields after the command name, which may itself contain spaces and ")".
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const command = Deno.readTextFileSync(`/proc/${pid}/cmdline`).replaceAll("\0", " ").trim();
    return { pid, ppid: Number(rest[1]), start: rest[19], command };
  } catch (err) {
    return err instanceof Deno.errors.NotFound ? "gone" : "unknown";
  }
}

function readProcPs(pid: number): ProcessRead {
  try {
    const out = new Deno.Command("ps", {
      args: ["-o", "ppid=", "-o", "lstart=", "-o", "command=", "-p", String(pid)],
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    const line = new TextDecoder().decode(out.stdout).trim();
    // lstart is five words: "Tue Nov 24 09:13:17 2026".
    const m = /^(\d+)\s+(\S+\s+\S+\s+\S+\s+\S+\s+\S+)\s+(.*)$/.exec(line);
    // ps exits 1 with no line for a pid that does not exist.
    if (!m) return out.code === 1 && line === "" ? "gone" : "unknown";
    return { pid, ppid: Number(m[1]), start: m[2], command: m[3] };
  } catch {
    return "unknown";
  }
}

const readProc = Deno.build.os === "linux" ? readProcLinux : readProcPs;

/** True for the npm process itself: `npm exec ...` (its title) or node running npm/npx. */
function isNpm(command: string): boolean {
  return /^npm(\s|$)/.test(command) || /[/\\]np[mx]-cli\.js(\s|$)/.test(command) ||
    /(^|[/\\])np[mx](\.cmd)?\s/.test(command);
}

/**
 * The processes from our parent up to and including the npm process that
 * started us, or an empty list when npm did not start us (or cannot be found
 * within a few generations).
 */
export function launcherChain(env: Record<string, string> = Deno.env.toObject()): ProcessId[] {
  if (env.npm_command === undefined && env.npm_execpath === undefined) return [];
  const chain: ProcessId[] = [];
  const self = readProc(Deno.pid);
  let pid = typeof self === "object" ? self.ppid : undefined;
  for (let depth = 0; pid !== undefined && pid > 1 && depth < 8; depth++) {
    const p = readProc(pid);
    if (typeof p !== "object") return [];
    chain.push({ pid: p.pid, start: p.start });
    if (isNpm(p.command)) return chain;
    pid = p.ppid;
  }
  return [];
}

/**
 * Calls `onGone` once when a process of the launcher chain has exited.
 * Returns a function that stops watching; does nothing when npm did not
 * start this process.
 *
 * @example
 * ```ts
 * const server = Deno.serve(() => new Response());
 * const stopWatching = watchLauncher(() => server.shutdown());
 * ```
 */
export function watchLauncher(onGone: (pid: number) => void): () => void {
  const chain = launcherChain();
  if (chain.length === 0) return () => {};
  const timer = setInterval(() => {
    for (const p of chain) {
      const now = readProc(p.pid);
      // "unknown" is no news: look again at the next tick.
      if (now === "unknown") continue;
      if (now === "gone" || now.start !== p.start) {
        clearInterval(timer);
        onGone(p.pid);
        return;
      }
    }
  }, POLL_MS);
  Deno.unrefTimer(timer);
  return () => clearInterval(timer);
}
