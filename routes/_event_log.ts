/**
 * Rate-limited logging of connection events (accept errors, refused and
 * timed-out connections): a flood must not become a flood of log lines.
 *
 * @module
 */

/**
 * Logs the first event of a kind at once, then at most one line per
 * `intervalMs` with the count of events since.
 *
 * @example
 * ```ts
 * const events = new EventLog((line) => console.error(line), 10_000);
 * events.note("refused", "connection refused: over the cap of 100");
 * events.close();
 * ```
 */
export class EventLog {
  #pending = new Map<string, { count: number; last: string }>();
  #timer: ReturnType<typeof setInterval> | undefined;

  /** `write` gets whole lines; `intervalMs` is the shortest gap between two lines of a kind. */
  constructor(readonly write: (line: string) => void, readonly intervalMs: number) {}

  /** Records one event of `kind` described by `message`. */
  note(kind: string, message: string): void {
    const p = this.#pending.get(kind);
    if (p) {
      p.count++;
      p.last = message;
      return;
    }
    this.#pending.set(kind, { count: 0, last: message });
    this.#write(message);
    if (this.#timer === undefined) {
      const timer = setInterval(() => this.#flush(), this.intervalMs);
      Deno.unrefTimer(timer);
      this.#timer = timer;
    }
  }

  /** Writes what is still counted and stops the timer. */
  close(): void {
    this.#flush();
    this.#pending.clear();
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #flush(): void {
    for (const [kind, p] of this.#pending) {
      if (p.count === 0) {
        this.#pending.delete(kind);
        continue;
      }
      const secs = this.intervalMs / 1000;
      this.#write(`${p.last} (${p.count} more like this in the last ${secs} s)`);
      p.count = 0;
    }
    if (this.#pending.size === 0 && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  #write(message: string): void {
    this.write(`${new Date().toISOString()} ${message}`);
  }
}
