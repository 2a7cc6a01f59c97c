/**
 * Reads the one file of a single-entry ZIP archive (KMZ) in process, with
 * `node:zlib` for the deflate stream, so tests need no `unzip` program. It
 * follows the local header and checks the entry's CRC-32 against zlib's.
 *
 * @module
 */
import { crc32, inflateRawSync } from "node:zlib";

/**
 * The name and bytes of the first entry of `zip`.
 *
 * @example
 * ```ts
 * declare const kmzBytes: Uint8Array;
 * const { name, data } = unzipFirst(kmzBytes); // "doc.kml", the KML bytes
 * ```
 */
export function unzipFirst(zip: Uint8Array): { name: string; data: Uint8Array } {
  const v = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  if (v.getUint32(0, true) !== 0x04034b50) throw new Error("not a ZIP archive (no local header)");
  const flags = v.getUint16(6, true);
  const method = v.getUint16(8, true);
  const crc = v.getUint32(14, true);
  const size = v.getUint32(18, true);
  const nameLength = v.getUint16(26, true);
  const extraLength = v.getUint16(28, true);
  if (flags & 0x08) throw new Error("entries with a data descriptor are not supported here");
  const name = new TextDecoder().decode(zip.subarray(30, 30 + nameLength));
  const start = 30 + nameLength + extraLength;
  const raw = zip.subarray(start, start + size);
  let data: Uint8Array;
  if (method === 0) data = raw;
  else if (method === 8) data = new Uint8Array(inflateRawSync(raw));
  else throw new Error(`compression method ${method} is not supported here`);
  if ((crc32(data) >>> 0) !== crc) throw new Error(`CRC-32 of ${name} does not match its header`);
  return { name, data };
}
