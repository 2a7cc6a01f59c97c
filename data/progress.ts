/**
 * The one progress display of the long commands (demo, sync, seed-tiles):
 * a bar redrawn in place on a terminal; in a log (stdout or stderr not a
 * terminal) one plain line every few seconds and a final summary, so logs
 * stay readable.
 *
 * @module
 */

/** Where progress goes: stderr, or a test's collector. */
export interface ProgressOutput {
  writeSync(p: Uint8Array): number;
  isTerminal(): boolean;
}

/** Options of {@linkcode progressBar}. */
export interface ProgressOptions {
  /** Where to write (default `Deno.stderr`). */
  out?: ProgressOutput;
  /** Draw the bar in place (default: both stdout and stderr are terminals). */
  tty?: boolean;
  /** Milliseconds between plain lines when not drawing in place (default 5000). */
  intervalMs?: number;
  /** The clock, in milliseconds (default `performance.now`). */
  now?: () => number;
}

/** A running progress display. */
export interface Progress {
  /** Reports `done` of `total` (a total of 0 means unknown), with an optional detail. */
  update(done: number, total: number, detail?: string): void;
  /** Ends the display with a summary line (default: the last counts and the time taken). */
  finish(summary?: string): void;
  /** Ends the display without a summary (the work failed): only ends a drawn bar's line. */
  stop(): void;
}

const WIDTH = 30;
/** Redraws on a terminal at most this often, so drawing never slows the work. */
const TTY_REDRAW_MS = 100;

function defaultTty(): boolean {
  try {
    return Deno.stderr.isTerminal() && Deno.stdout.isTerminal();
  } catch {
    return false;
  }
}

/**
 * A progress display labelled `label`.
 *
 * @example
 * ```ts
 * const bar = progressBar("demo data");
 * bar.update(500, 1000);
 * bar.finish();
 * ```
 */
export function progressBar(label: string, opts: ProgressOptions = {}): Progress {
  const out = opts.out ?? Deno.stderr;
  const tty = opts.tty ?? (opts.out ? opts.out.isTerminal() : defaultTty());
  const interval = opts.intervalMs ?? 5000;
  const now = opts.now ?? (() => performance.now());
  const enc = new TextEncoder();
  const started = now();
  let lastWrite = tty ? -Infinity : started;
  let last = { done: 0, total: 0, detail: "" };
  let drawn = false;
  let finished = false;

  const counts = (done: number, total: number) => {
    if (total <= 0) return `${done}`;
    const pct = Math.floor(100 * Math.min(1, done / total));
    return `${done}/${total} (${pct}%)`;
  };
  const bar = (done: number, total: number) => {
    const frac = total > 0 ? Math.min(1, done / total) : 0;
    const filled = Math.round(frac * WIDTH);
    return `[${"#".repeat(filled)}${".".repeat(WIDTH - filled)}]`;
  };
  const write = (text: string) => out.writeSync(enc.encode(text));

  return {
    update(done, total, detail = "") {
      if (finished) return;
      last = { done, total, detail };
      const t = now();
      if (t - lastWrite < (tty ? TTY_REDRAW_MS : interval)) return;
      lastWrite = t;
      const tail = detail ? `${total > 0 ? "  " : " "}${detail}` : "";
      if (tty) {
        // Clear to the end of the line: a shorter line must not leave old text.
        write(`\r${label} ${bar(done, total)} ${counts(done, total)}${tail}\x1b[K`);
        drawn = true;
      } else {
        write(`${label}: ${counts(done, total)}${tail}\n`);
      }
    },
    finish(summary) {
      if (finished) return;
      finished = true;
      const secs = ((now() - started) / 1000).toFixed(1);
      const tail = last.detail ? `${last.total > 0 ? "  " : " "}${last.detail}` : "";
      const text = summary ?? `${label}: ${counts(last.done, last.total)}${tail}, ${secs} s`;
      if (tty && drawn) write(`\r${text}\x1b[K\n`);
      else write(`${text}\n`);
    },
    stop() {
      if (finished) return;
      finished = true;
      if (tty && drawn) write("\n");
    },
  };
}
