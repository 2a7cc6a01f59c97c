/**
 * A tile store in MBTiles layout on `node:sqlite`: `metadata(name, value)`
 * and `tiles(zoom_level, tile_column, tile_row, tile_data)` with TMS rows
 * (row 0 at the bottom), so any MBTiles reader opens it. One extra column,
 * `etag`, holds a content hash computed once at write time so serving a
 * cached tile (and answering 304s) costs one indexed lookup.
 *
 * Rows and columns in this API are ArcGIS/XYZ ones (row 0 at the top).
 *
 * @module
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { dirname } from "node:path";

/** A stored tile. */
export interface StoredTile {
  data: Uint8Array;
  etag: string;
}

/** FNV-1a 64-bit (as two 32-bit halves) over bytes, as a quoted strong ETag. */
export function etagOf(bytes: Uint8Array): string {
  let h1 = 0x811c9dc5, h2 = 0x01000193 ^ bytes.length;
  for (let i = 0; i < bytes.length; i++) {
    h1 = Math.imul(h1 ^ bytes[i], 0x01000193);
    h2 = Math.imul(h2 ^ bytes[i], 0x5bd1e995);
  }
  return `"${(h1 >>> 0).toString(16).padStart(8, "0")}${(h2 >>> 0).toString(16).padStart(8, "0")}"`;
}

/** TMS row of an XYZ row at `z` (MBTiles counts rows from the bottom). */
export function tmsRow(z: number, row: number): number {
  return 2 ** z - 1 - row;
}

/** Options of {@linkcode TileStore}. */
export interface TileStoreOptions {
  /**
   * Tiles kept when the store had to fall back to memory (default 2,000,
   * about 50-100 MB of PNG); the oldest go first.
   */
  memoryTiles?: number;
  /** Told once why the store lives in memory (default: a line on stderr). */
  onNotice?: (message: string) => void;
}

/** An MBTiles file, or a bounded in-memory store when the file cannot be written. */
export class TileStore {
  readonly path: string;
  readonly db: DatabaseSync;
  /** Tiles kept at most, when the store is in memory for want of a writable file. */
  readonly memoryTiles: number | null = null;
  #get: StatementSync;
  #put: StatementSync;
  #has: StatementSync;

  /**
   * Opens (creating when needed) the MBTiles file at `path`. A folder that
   * cannot be written (a read-only mount, say) must not stop the server from
   * drawing tiles: the store then lives in memory, bounded, and says so once.
   */
  constructor(path: string, opts: TileStoreOptions = {}) {
    this.path = path;
    let db: DatabaseSync;
    try {
      db = TileStore.#open(path);
    } catch (err) {
      if (path === ":memory:") throw err;
      db = TileStore.#open(":memory:");
      this.memoryTiles = opts.memoryTiles ?? 2000;
      (opts.onNotice ?? ((m: string) => console.error(`${new Date().toISOString()} ${m}`)))(
        `The tile store ${path} cannot be written (${(err as Error).message}): tiles are kept ` +
          `in memory for this run (at most ${this.memoryTiles}); pass --tiles-dir to choose a ` +
          `writable folder.`,
      );
    }
    this.db = db;
    this.#get = this.db.prepare(
      "SELECT tile_data, etag FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
    );
    this.#has = this.db.prepare(
      "SELECT 1 FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
    );
    this.#put = this.db.prepare(
      "INSERT OR REPLACE INTO tiles (zoom_level, tile_column, tile_row, tile_data, etag) VALUES (?, ?, ?, ?, ?)",
    );
  }

  static #open(path: string): DatabaseSync {
    if (path !== ":memory:") Deno.mkdirSync(dirname(path), { recursive: true });
    const db = new DatabaseSync(path);
    try {
      TileStore.#init(db);
    } catch (err) {
      db.close();
      throw err;
    }
    return db;
  }

  static #init(db: DatabaseSync): void {
    db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = NORMAL;
      PRAGMA busy_timeout = 5000;
      CREATE TABLE IF NOT EXISTS metadata (name TEXT NOT NULL, value TEXT);
      CREATE UNIQUE INDEX IF NOT EXISTS metadata_name ON metadata (name);
      CREATE TABLE IF NOT EXISTS tiles (
        zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, tile_row INTEGER NOT NULL,
        tile_data BLOB NOT NULL, etag TEXT NOT NULL);
      CREATE UNIQUE INDEX IF NOT EXISTS tile_index ON tiles (zoom_level, tile_column, tile_row);
    `);
  }

  /** The tile at XYZ (z, row, col), or null. */
  get(z: number, row: number, col: number): StoredTile | null {
    const r = this.#get.get(z, col, tmsRow(z, row)) as
      | { tile_data: Uint8Array; etag: string }
      | undefined;
    return r ? { data: r.tile_data, etag: r.etag } : null;
  }

  /** Whether the tile is stored. */
  has(z: number, row: number, col: number): boolean {
    return this.#has.get(z, col, tmsRow(z, row)) !== undefined;
  }

  /** Stores tiles in one transaction; returns their ETags in order. */
  putMany(tiles: { z: number; row: number; col: number; data: Uint8Array }[]): string[] {
    const tags: string[] = [];
    this.db.exec("BEGIN");
    try {
      for (const t of tiles) {
        const tag = etagOf(t.data);
        this.#put.run(t.z, t.col, tmsRow(t.z, t.row), t.data, tag);
        tags.push(tag);
      }
      if (this.memoryTiles !== null) {
        // Oldest first out (rowids grow with every put).
        this.db.prepare(
          "DELETE FROM tiles WHERE rowid IN (SELECT rowid FROM tiles ORDER BY rowid LIMIT max(0, (SELECT count(*) FROM tiles) - ?))",
        ).run(this.memoryTiles);
      }
      this.db.exec("COMMIT");
    } catch (e) {
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
      throw e;
    }
    return tags;
  }

  /** Deletes the tiles of level `z` inside the XYZ row/column range; returns how many. */
  deleteRange(z: number, row0: number, row1: number, col0: number, col1: number): number {
    const r = this.db.prepare(
      "DELETE FROM tiles WHERE zoom_level = ? AND tile_column BETWEEN ? AND ? AND tile_row BETWEEN ? AND ?",
    ).run(z, col0, col1, tmsRow(z, row1), tmsRow(z, row0));
    return Number(r.changes);
  }

  /** Deletes every tile. */
  clear(): void {
    this.db.exec("DELETE FROM tiles");
  }

  /** Number of stored tiles (optionally of one level). */
  count(z?: number): number {
    const r = z === undefined
      ? this.db.prepare("SELECT count(*) AS n FROM tiles").get()
      : this.db.prepare("SELECT count(*) AS n FROM tiles WHERE zoom_level = ?").get(z);
    return Number((r as { n: number }).n);
  }

  /** A metadata value, or undefined. */
  meta(name: string): string | undefined {
    const r = this.db.prepare("SELECT value FROM metadata WHERE name = ?").get(name) as
      | { value: string }
      | undefined;
    return r?.value;
  }

  /** Sets metadata values. */
  setMeta(values: Record<string, string>): void {
    const st = this.db.prepare("INSERT OR REPLACE INTO metadata (name, value) VALUES (?, ?)");
    for (const [k, v] of Object.entries(values)) st.run(k, v);
  }

  /** Closes the file. */
  close(): void {
    this.db.close();
  }
}
