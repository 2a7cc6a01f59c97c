/**
 * Raw-TCP clients for the connection tests: idle, half-sent and trickling
 * senders that `fetch` cannot play.
 *
 * @module
 */

/** What a connection received before it closed (or the wait ran out). */
export interface Received {
  text: string;
  /** True when the server closed the connection (EOF or reset) within the wait. */
  closed: boolean;
  /** Milliseconds from the start of the wait to the close. */
  ms: number;
}

/** Opens a TCP connection to the server at `url` (an `http://host:port` URL). */
export async function connectTo(url: string): Promise<Deno.TcpConn> {
  const u = new URL(url);
  return await Deno.connect({ hostname: u.hostname, port: Number(u.port) });
}

/** Writes `text` (ASCII) on `conn`. */
export async function send(conn: Deno.Conn, text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  while (at < bytes.length) at += await conn.write(bytes.subarray(at));
}

/**
 * Reads until the server closes the connection or `waitMs` pass; with
 * `untilText`, stops as soon as the text received so far contains it.
 */
export async function receive(
  conn: Deno.Conn,
  waitMs: number,
  untilText?: string,
): Promise<Received> {
  const t0 = performance.now();
  const buf = new Uint8Array(64 * 1024);
  const dec = new TextDecoder();
  let text = "";
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      conn.close();
    } catch { /* closed already */ }
  }, waitMs);
  let closed = false;
  try {
    while (true) {
      const n = await conn.read(buf);
      if (n === null) {
        closed = true;
        break;
      }
      text += dec.decode(buf.subarray(0, n), { stream: true });
      if (untilText !== undefined && text.includes(untilText)) break;
    }
  } catch {
    closed = !timedOut;
  }
  clearTimeout(timer);
  return { text, closed, ms: performance.now() - t0 };
}

/** Closes `conn`, ignoring a connection already closed. */
export function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch { /* closed already */ }
}
