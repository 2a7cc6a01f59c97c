/**
 * Just enough of the FlatBuffers binary format to read FlatGeobuf's
 * tables: scalars with defaults, strings, byte/uint32/float64 vectors,
 * sub-tables and vectors of tables. Every offset is checked against the
 * buffer, so a damaged file is an error, never a read past its end.
 *
 * @module
 */

/** A table inside a FlatBuffers buffer. */
export class FlatTable {
  readonly #view: DataView;
  readonly #bytes: Uint8Array;
  readonly #pos: number;
  readonly #vtable: number;
  readonly #vtableSize: number;

  constructor(bytes: Uint8Array, pos: number) {
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#pos = pos;
    this.#check(pos, 4);
    this.#vtable = pos - this.#view.getInt32(pos, true);
    this.#check(this.#vtable, 4);
    this.#vtableSize = this.#view.getUint16(this.#vtable, true);
    this.#check(this.#vtable, this.#vtableSize);
  }

  #check(at: number, n: number): void {
    if (at < 0 || at + n > this.#bytes.length) {
      throw new Error(
        `a FlatBuffers offset (${at}) points outside its ${this.#bytes.length} bytes`,
      );
    }
  }

  /** Position of field `i`, or 0 when the field is absent. */
  #field(i: number, size: number): number {
    const slot = 4 + 2 * i;
    if (slot + 2 > this.#vtableSize) return 0;
    const o = this.#view.getUint16(this.#vtable + slot, true);
    if (o === 0) return 0;
    this.#check(this.#pos + o, size);
    return this.#pos + o;
  }

  /** Target of the offset stored in field `i` (strings, vectors, tables), or 0. */
  #indirect(i: number): number {
    const at = this.#field(i, 4);
    if (at === 0) return 0;
    const target = at + this.#view.getUint32(at, true);
    this.#check(target, 4);
    return target;
  }

  /** Start and length of the vector in field `i` with elements of `size` bytes. */
  #vector(i: number, size: number): [number, number] {
    const at = this.#indirect(i);
    if (at === 0) return [0, 0];
    const n = this.#view.getUint32(at, true);
    this.#check(at + 4, n * size);
    return [at + 4, n];
  }

  /** An unsigned byte. */
  u8(i: number, def: number): number {
    const at = this.#field(i, 1);
    return at === 0 ? def : this.#view.getUint8(at);
  }

  /** A boolean. */
  bool(i: number, def: boolean): boolean {
    const at = this.#field(i, 1);
    return at === 0 ? def : this.#view.getUint8(at) !== 0;
  }

  /** An unsigned 16-bit integer. */
  u16(i: number, def: number): number {
    const at = this.#field(i, 2);
    return at === 0 ? def : this.#view.getUint16(at, true);
  }

  /** A signed 32-bit integer. */
  i32(i: number, def: number): number {
    const at = this.#field(i, 4);
    return at === 0 ? def : this.#view.getInt32(at, true);
  }

  /** An unsigned 64-bit integer. */
  u64(i: number, def: bigint): bigint {
    const at = this.#field(i, 8);
    return at === 0 ? def : this.#view.getBigUint64(at, true);
  }

  /** A UTF-8 string, or null when absent. */
  string(i: number): string | null {
    const [at, n] = this.#vector(i, 1);
    return at === 0 ? null : new TextDecoder().decode(this.#bytes.subarray(at, at + n));
  }

  /** A byte vector (a view into the buffer), or null when absent. */
  bytes(i: number): Uint8Array | null {
    const [at, n] = this.#vector(i, 1);
    return at === 0 ? null : this.#bytes.subarray(at, at + n);
  }

  /** A uint32 vector (copied: vectors need not be aligned). */
  u32s(i: number): Uint32Array {
    const [at, n] = this.#vector(i, 4);
    const out = new Uint32Array(n);
    for (let k = 0; k < n; k++) out[k] = this.#view.getUint32(at + 4 * k, true);
    return out;
  }

  /** A float64 vector (copied: vectors need not be aligned). */
  f64s(i: number): Float64Array {
    const [at, n] = this.#vector(i, 8);
    const out = new Float64Array(n);
    for (let k = 0; k < n; k++) out[k] = this.#view.getFloat64(at + 8 * k, true);
    return out;
  }

  /** A sub-table, or null when absent. */
  table(i: number): FlatTable | null {
    const at = this.#indirect(i);
    return at === 0 ? null : new FlatTable(this.#bytes, at);
  }

  /** A vector of tables (empty when absent). */
  tables(i: number): FlatTable[] {
    const [at, n] = this.#vector(i, 4);
    return Array.from({ length: n }, (_, k) => {
      const slot = at + 4 * k;
      return new FlatTable(this.#bytes, slot + this.#view.getUint32(slot, true));
    });
  }
}

/**
 * The root table of a FlatBuffers buffer (without a size prefix).
 *
 * @example
 * ```ts
 * const header = rootTable(new Uint8Array(await Deno.readFile("x.fgb")).subarray(12));
 * header.u8(2, 0); // geometry type
 * ```
 */
export function rootTable(bytes: Uint8Array): FlatTable {
  if (bytes.length < 8) throw new Error("a FlatBuffers table is truncated");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return new FlatTable(bytes, view.getUint32(0, true));
}
