/**
 * A small Chrome DevTools Protocol client for the browser tests: starts
 * Debian's headless Chromium on a loopback debugging port with a fresh
 * profile, opens one page over a WebSocket, and offers what the tests need
 * (navigate, evaluate, wait for a condition, click, screenshot, viewport)
 * plus every console error and uncaught exception of the page.
 *
 * No npm browser driver: the protocol is JSON over a WebSocket, which Deno
 * has built in.
 */
import { CHROMIUM_PATH } from "./_optional.ts";

/** The flags every test browser starts with (no network beyond loopback, no GPU). */
export const CHROMIUM_FLAGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--hide-scrollbars",
  "--disable-breakpad",
  "--remote-debugging-address=127.0.0.1",
  "--remote-debugging-port=0",
];

interface Pending {
  resolve(v: Record<string, unknown>): void;
  reject(e: Error): void;
}

/** One page of a running Chromium. */
export class CdpPage {
  /** Console errors, failed loads and uncaught exceptions, as text. */
  readonly errors: string[] = [];
  #ws: WebSocket;
  #next = 1;
  #pending = new Map<number, Pending>();
  #listeners = new Map<string, ((params: Record<string, unknown>) => void)[]>();

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.onmessage = (e) => {
      const msg = JSON.parse(String(e.data));
      if (msg.id !== undefined) {
        const p = this.#pending.get(msg.id);
        this.#pending.delete(msg.id);
        if (msg.error) p?.reject(new Error(`${msg.error.message} (${msg.error.code})`));
        else p?.resolve(msg.result ?? {});
      } else {
        for (const fn of this.#listeners.get(msg.method) ?? []) fn(msg.params ?? {});
      }
    };
  }

  /** Connects to a page's debugging WebSocket and starts collecting errors. */
  static async open(wsUrl: string): Promise<CdpPage> {
    const ws = new WebSocket(wsUrl);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error(`cannot connect to ${wsUrl}`));
    });
    const page = new CdpPage(ws);
    page.on("Runtime.consoleAPICalled", (p) => {
      if (p.type === "error" || p.type === "assert") {
        const args = p.args as { value?: unknown; description?: string }[];
        page.errors.push(
          `console.${p.type}: ${args.map((a) => a.value ?? a.description).join(" ")}`,
        );
      }
    });
    page.on("Runtime.exceptionThrown", (p) => {
      const d = p.exceptionDetails as { text: string; exception?: { description?: string } };
      page.errors.push(`exception: ${d.exception?.description ?? d.text}`);
    });
    page.on("Log.entryAdded", (p) => {
      const e = p.entry as { level: string; text: string; url?: string };
      if (e.level === "error") page.errors.push(`log: ${e.text} ${e.url ?? ""}`.trim());
    });
    await page.send("Runtime.enable");
    await page.send("Log.enable");
    await page.send("Page.enable");
    return page;
  }

  /** Sends one protocol command and returns its result. */
  send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const id = this.#next++;
    this.#ws.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject }));
  }

  /** Calls `fn` with the parameters of every `method` event. */
  on(method: string, fn: (params: Record<string, unknown>) => void): void {
    this.#listeners.set(method, [...(this.#listeners.get(method) ?? []), fn]);
  }

  /** Sets the viewport (CSS pixels); `mobile` also turns on touch (a coarse pointer). */
  async viewport(width: number, height: number, mobile = false): Promise<void> {
    await this.send("Emulation.setDeviceMetricsOverride", {
      width,
      height,
      deviceScaleFactor: 1,
      mobile,
    });
    await this.send("Emulation.setTouchEmulationEnabled", { enabled: mobile });
  }

  /** Opens `url` and waits for its load event. */
  async goto(url: string): Promise<void> {
    const loaded = new Promise<void>((resolve) => this.on("Page.loadEventFired", () => resolve()));
    await this.send("Page.navigate", { url });
    await loaded;
  }

  /** The value of a JavaScript expression in the page (awaited when it is a promise). */
  async evaluate<T = unknown>(expression: string): Promise<T> {
    const r = await this.send("Runtime.evaluate", {
      expression,
      returnByValue: true,
      awaitPromise: true,
    });
    const ex = r.exceptionDetails as { text: string } | undefined;
    if (ex) throw new Error(`${expression}: ${ex.text}`);
    return (r.result as { value: T }).value;
  }

  /**
   * Polls `expression` until it is truthy; fails with `what` and the
   * page's errors after `limitMs` (a generous bound against hanging, not a
   * speed requirement).
   */
  async waitFor(expression: string, what: string, limitMs = 60_000): Promise<void> {
    const end = Date.now() + limitMs;
    while (!(await this.evaluate<boolean>(`!!(${expression})`))) {
      if (Date.now() > end) {
        throw new Error(`gave up waiting for ${what}; page errors: ${this.errors.join(" | ")}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** A left click (press and release) at CSS pixel (x, y). */
  async click(x: number, y: number): Promise<void> {
    for (const type of ["mousePressed", "mouseReleased"]) {
      await this.send("Input.dispatchMouseEvent", { type, x, y, button: "left", clickCount: 1 });
    }
  }

  /** A PNG of the viewport. */
  async screenshot(): Promise<Uint8Array> {
    const r = await this.send("Page.captureScreenshot", { format: "png" });
    return Uint8Array.from(atob(r.data as string), (c) => c.charCodeAt(0));
  }

  /** Closes the connection. */
  close(): void {
    this.#ws.close();
  }
}

/** A headless Chromium process with its debugging endpoint. */
export class Chromium {
  #child: Deno.ChildProcess;
  #port: number;
  #pages: CdpPage[] = [];
  #drained: Promise<void>;

  private constructor(child: Deno.ChildProcess, port: number, drained: Promise<void>) {
    this.#child = child;
    this.#port = port;
    this.#drained = drained;
  }

  /** Starts Chromium with a fresh profile in `profileDir`. */
  static async launch(profileDir: string): Promise<Chromium> {
    const child = new Deno.Command(CHROMIUM_PATH, {
      args: [...CHROMIUM_FLAGS, `--user-data-dir=${profileDir}`, "about:blank"],
      stdout: "null",
      stderr: "piped",
    }).spawn();
    // Chromium prints "DevTools listening on ws://127.0.0.1:PORT/..." on stderr.
    const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    let port = 0;
    while (!port) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`chromium exited before listening: ${seen.slice(-500)}`);
      seen += value;
      port = Number(seen.match(/DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//)?.[1] ?? 0);
    }
    // Keep draining stderr so Chromium never blocks on a full pipe. The pipe ends only when
    // every Chromium process that inherited it has exited, which close() waits for.
    const drained = (async () => {
      while (!(await reader.read()).done) { /* discard */ }
    })().catch(() => {});
    return new Chromium(child, port, drained);
  }

  /** Connects to the first open page (the `about:blank` started with). */
  async page(): Promise<CdpPage> {
    const targets = await (await fetch(`http://127.0.0.1:${this.#port}/json/list`)).json() as {
      type: string;
      webSocketDebuggerUrl: string;
    }[];
    const target = targets.find((t) => t.type === "page");
    if (!target) throw new Error("chromium has no page open");
    const page = await CdpPage.open(target.webSocketDebuggerUrl);
    this.#pages.push(page);
    return page;
  }

  /**
   * Closes the pages and stops the browser. Waits (up to 5 s) for Chromium's helper
   * processes too, so that its profile folder can be removed afterwards.
   */
  async close(): Promise<void> {
    for (const p of this.#pages) p.close();
    try {
      this.#child.kill("SIGTERM");
    } catch {
      // already gone
    }
    await this.#child.status;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      this.#drained,
      new Promise<void>((resolve) => timer = setTimeout(resolve, 5_000)),
    ]);
    clearTimeout(timer);
  }
}

/**
 * Removes a browser profile folder. A helper process that outlived the browser can still be
 * writing into it for a moment, so "directory not empty" is retried for up to 5 s.
 */
export async function removeProfile(dir: string): Promise<void> {
  for (let attempt = 0;; attempt++) {
    try {
      await Deno.remove(dir, { recursive: true });
      return;
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return;
      if (attempt >= 50) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
