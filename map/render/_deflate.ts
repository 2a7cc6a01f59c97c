/**
 * zlib deflate fed a band of scanlines at a time, into an output buffer the
 * thread keeps: a PNG's rows need never exist all at once.
 *
 * Why: on the shared VMs this server is measured on, the first write to a
 * memory page after a pause costs 1-30 µs (the host write-protects idle
 * guest pages: 1,024 pages written after a 300 ms pause took 21-28 ms, reads
 * of them 0.4 ms). A map view follows a client's pause, so what it writes
 * counts as much as what it computes. Laying a 1024x768 PNG24's scanlines
 * out whole writes 576 pages (2.3 MB) even where the map drew nothing;
 * `deflateSync` then sets up a new stream and copies its output twice.
 * Bands of ~64 KB, deflated as they are packed, write the same few pages
 * over and over, and the output is written once, here.
 *
 * The stream is `node:zlib`'s own handle (`_handle.writeSync`, the call its
 * `deflateSync` makes), kept and reset between images. When a Deno release
 * no longer has it, {@link BandDeflater} gathers the bands and deflates
 * them with `deflateSync` at the end: the same bytes, without the saving.
 *
 * @module
 */
import { constants, createDeflate, deflateSync } from "node:zlib";

/** The native zlib handle under a `node:zlib` stream object (Node's internal API). */
interface ZlibHandle {
  writeSync(
    flush: number,
    input: Uint8Array,
    inOff: number,
    inLen: number,
    out: Uint8Array,
    outOff: number,
    outLen: number,
    state: Uint32Array,
  ): void;
  reset(): void;
  close(): void;
}

/** A kept zlib stream: the handle and where it reports what is left of its buffers. */
interface Stream {
  /** The `node:zlib` object owning the handle, kept alive with it (it never writes itself). */
  owner: object;
  handle: ZlibHandle;
  /** `[available output, available input]` after each write. */
  state: Uint32Array;
}

/** A deflate stream at `level` on `node:zlib`'s handle, or null when this runtime has none. */
function openStream(level: number): Stream | null {
  try {
    const d = createDeflate({ level }) as unknown as {
      _handle?: ZlibHandle;
      _writeState?: unknown;
    };
    const handle = d._handle, state = d._writeState;
    if (
      !handle || typeof handle.writeSync !== "function" || typeof handle.reset !== "function" ||
      !(state instanceof Uint32Array) || state.length < 2
    ) return null;
    return { owner: d, handle, state };
  } catch {
    return null;
  }
}

/** Output buffers larger than this are not kept between images (a 4096x4096 map's PNG). */
const KEEP_OUT_BYTES = 8 * 2 ** 20;

/**
 * Deflates an image's scanlines band by band into one zlib stream.
 *
 * @example
 * ```ts
 * const z = new BandDeflater();
 * z.begin(4);
 * z.write(new Uint8Array([0, 1, 2, 3]), false);
 * z.write(new Uint8Array([0, 4, 5, 6]), true);
 * const zlibBytes = z.bytes(); // valid until the next begin()
 * ```
 */
export class BandDeflater {
  readonly #streaming: boolean;
  readonly #initialBytes: number;
  readonly #streams = new Map<number, Stream>();
  #stream: Stream | null = null;
  #level = 4;
  #out: Uint8Array;
  #length = 0;
  /** Bands gathered for `deflateSync` when there is no stream. */
  #gathered: Uint8Array[] = [];
  #done = false;

  /**
   * `initialBytes`: the output buffer's first size (it doubles as needed);
   * `streaming: false` takes the `deflateSync` way (as when the runtime has
   * no zlib handle), for tests.
   */
  constructor(opts: { initialBytes?: number; streaming?: boolean } = {}) {
    this.#initialBytes = opts.initialBytes ?? 256 * 1024;
    this.#out = new Uint8Array(this.#initialBytes);
    this.#streaming = opts.streaming ?? true;
  }

  /** Whether bands go straight into a zlib stream (false: gathered for `deflateSync`). */
  get streaming(): boolean {
    return this.#stream !== null;
  }

  /** Starts a new zlib stream at `level` (0-9); what the last one wrote is dropped. */
  begin(level: number): void {
    this.#level = level;
    this.#length = 0;
    this.#gathered = [];
    this.#done = false;
    if (this.#out.length > KEEP_OUT_BYTES) this.#out = new Uint8Array(this.#initialBytes);
    let s = this.#streaming ? this.#streams.get(level) ?? null : null;
    if (this.#streaming && !s) {
      s = openStream(level);
      if (s) this.#streams.set(level, s);
    }
    this.#stream = s;
    if (s) {
      try {
        s.handle.reset();
      } catch {
        this.#drop(level);
      }
    }
  }

  /** Deflates the next band of scanlines; `last` ends the stream. */
  write(band: Uint8Array, last: boolean): void {
    if (this.#done) throw new Error("BandDeflater.write after the last band; call begin() first.");
    this.#done = last;
    const s = this.#stream;
    if (!s) {
      // Kept until the end: the caller reuses its band buffer.
      this.#gathered.push(band.slice());
      if (last) this.#deflateGathered();
      return;
    }
    const flush = last ? constants.Z_FINISH : constants.Z_NO_FLUSH;
    let inOff = 0, inLen = band.length;
    try {
      for (;;) {
        const room = this.#out.length - this.#length;
        s.handle.writeSync(flush, band, inOff, inLen, this.#out, this.#length, room, s.state);
        const outLeft = s.state[0], inLeft = s.state[1];
        this.#length += room - outLeft;
        inOff += inLen - inLeft;
        inLen = inLeft;
        // Done with this band once zlib took all of it and had room to spare (with Z_FINISH,
        // room to spare means the stream's end is written).
        if (outLeft > 0 && inLen === 0) return;
        if (outLeft === 0) this.#grow();
      }
    } catch (err) {
      // The stream may be left mid-image: the next begin() opens a fresh one.
      this.#drop(this.#level);
      throw err;
    }
  }

  /** The zlib stream written since {@link begin}: valid until the next `begin`. */
  bytes(): Uint8Array {
    if (!this.#done) throw new Error("BandDeflater.bytes before the last band was written.");
    return this.#out.subarray(0, this.#length);
  }

  #deflateGathered(): void {
    let n = 0;
    for (const b of this.#gathered) n += b.length;
    const all = new Uint8Array(n);
    n = 0;
    for (const b of this.#gathered) {
      all.set(b, n);
      n += b.length;
    }
    this.#gathered = [];
    const z = deflateSync(all, { level: this.#level });
    while (this.#out.length < z.length) this.#grow();
    this.#out.set(z);
    this.#length = z.length;
  }

  #grow(): void {
    const bigger = new Uint8Array(this.#out.length * 2);
    bigger.set(this.#out.subarray(0, this.#length));
    this.#out = bigger;
  }

  /**
   * Closes the zlib streams kept so far (each holds ~256 KB of native state
   * until closed: a deflater dropped without this leaks them). It may be
   * used again: the next {@link begin} opens a fresh stream.
   */
  close(): void {
    for (const level of [...this.#streams.keys()]) this.#drop(level);
  }

  #drop(level: number): void {
    const s = this.#streams.get(level);
    this.#streams.delete(level);
    if (s === this.#stream) this.#stream = null;
    try {
      s?.handle.close();
    } catch { /* already unusable */ }
  }
}
