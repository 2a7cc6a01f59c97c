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

/** What {@link sendStreamed} saw. */
export interface StreamedAnswer {
  /** The answer's head and whatever of its body came with it ("" when none came). */
  text: string;
  /** Body bytes written when the answer's head arrived (or when the server stopped taking them). */
  sentAtAnswer: number;
  /** Body bytes the server took in all. */
  sent: number;
}

/**
 * Sends `head` (a request head ending in a blank line) and then a body of
 * `total` bytes made of `prefix`, filler bytes and `suffix`, generated as it
 * goes (never held whole), chunked when the head says so; reads the answer
 * meanwhile and stops sending once its head arrived or the server closed
 * (everything is given up after 60 s).
 */
export async function sendStreamed(
  url: string,
  head: string,
  body: { prefix: string; suffix: string; total: number },
): Promise<StreamedAnswer> {
  const conn = await connectTo(url);
  // A server that neither reads nor answers must not hang the test.
  const late = setTimeout(() => closeQuietly(conn), 60_000);
  const chunked = /transfer-encoding:\s*chunked/i.test(head);
  const enc = new TextEncoder();
  const filler = new Uint8Array(256 * 1024).fill(0x61);
  let sent = 0;
  let sentAtAnswer = -1;
  let text = "";
  const reading = (async () => {
    const buf = new Uint8Array(64 * 1024);
    const dec = new TextDecoder();
    try {
      while (!text.includes("\r\n\r\n")) {
        const n = await conn.read(buf);
        if (n === null) break;
        text += dec.decode(buf.subarray(0, n), { stream: true });
      }
    } catch { /* reset */ }
    sentAtAnswer = sent;
  })();
  const write = async (bytes: Uint8Array) => {
    let at = 0;
    while (at < bytes.length) at += await conn.write(bytes.subarray(at));
  };
  try {
    await send(conn, head);
    const pre = enc.encode(body.prefix);
    const post = enc.encode(body.suffix);
    let left = body.total - pre.length - post.length;
    const pieces = function* () {
      yield pre;
      while (left > 0) {
        const n = Math.min(left, filler.length);
        left -= n;
        yield filler.subarray(0, n);
      }
      yield post;
    };
    for (const piece of pieces()) {
      if (sentAtAnswer >= 0) break;
      if (chunked) await write(enc.encode(`${piece.length.toString(16)}\r\n`));
      await write(piece);
      if (chunked) await write(enc.encode("\r\n"));
      sent += piece.length;
    }
    if (chunked && sentAtAnswer < 0) await write(enc.encode("0\r\n\r\n"));
  } catch { /* the server closed the connection: it stopped taking the body */ }
  await reading;
  clearTimeout(late);
  closeQuietly(conn);
  return { text, sentAtAnswer, sent };
}
