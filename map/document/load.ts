/**
 * Loads map documents into MapService objects: validates the JSON with
 * the schema, opens each layer's source (resolving paths against the
 * document's folder, sharing one source between maps that use the same
 * data), applies aliases, checks every field the document names, parses
 * definition expressions, and derives extents and units.
 *
 * Every problem is a {@linkcode MapDocumentError} naming the file, the
 * JSON path and what is wrong.
 *
 * @module
 */
import { unionExtent } from "../geo/relate.ts";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { Extent } from "../types.ts";
import { canProject, normalizeWkid, projectExtent, unitsOfWkid } from "../geo/projection.ts";
import { type MapDocument, MapDocumentSchema, type MapSpec } from "./schema.ts";
import type { MapFrame, MapLayer, MapService } from "./types.ts";
import { DEFAULT_DOCUMENT } from "./default.ts";
import { buildLayer, type LoadContext, type LoadOptions, MapDocumentError } from "./_layer.ts";

export { type LoadOptions, MapDocumentError } from "./_layer.ts";

function jsonPath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i ? "." : ""}${String(p)}`))
    .join("");
}

function dataExtent(layers: MapLayer[], wkid: number): Extent {
  let e: Extent | null = null;
  for (const l of layers) {
    const le = l.source.extent();
    if (!le || l.source.wkid === 0) continue;
    e = unionExtent(e, projectExtent(le, l.source.wkid, wkid));
  }
  if (e && e.xmax > e.xmin && e.ymax > e.ymin) return e;
  // Nothing (or a single point) to frame: show the world, or pad the point.
  if (e) {
    const pad = unitsOfWkid(wkid) === "esriDecimalDegrees" ? 0.5 : 50_000;
    return { xmin: e.xmin - pad, ymin: e.ymin - pad, xmax: e.xmax + pad, ymax: e.ymax + pad };
  }
  return projectExtent({ xmin: -180, ymin: -85, xmax: 180, ymax: 85 }, 4326, wkid);
}

async function buildMap(
  spec: MapSpec,
  index: number,
  doc: MapDocument,
  ctx: LoadContext,
  fail: (path: string, problem: string) => never,
): Promise<MapFrame> {
  const at = `maps[${index}]`;
  const wkid = normalizeWkid(spec.wkid);
  if (!canProject(wkid, 4326)) {
    fail(`${at}.wkid`, `spatial reference ${spec.wkid} is not supported (use 4326 or 3857)`);
  }
  const layers: MapLayer[] = [];
  for (let i = 0; i < spec.layers.length; i++) {
    const layer = await buildLayer(spec.layers[i], i, spec, ctx, (p, m) => fail(`${at}.${p}`, m));
    const clash = layers.find((l) => l.id === layer.id);
    if (clash) {
      fail(`${at}.layers[${i}].id`, `layer id ${layer.id} is already used by "${clash.name}"`);
    }
    layers.push(layer);
  }
  const fullExtent = spec.fullExtent ?? dataExtent(layers, wkid);
  return {
    name: spec.name,
    description: spec.description,
    copyrightText: spec.copyright ?? doc.copyright,
    wkid,
    fullExtent,
    initialExtent: spec.initialExtent ?? fullExtent,
    units: spec.units ?? unitsOfWkid(wkid),
    backgroundColor: spec.backgroundColor,
    tiling: spec.tiling,
    layers,
  };
}

function resolveSources(doc: MapDocument, baseDir: string): MapDocument {
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(join(baseDir, p)));
  return {
    ...doc,
    maps: doc.maps.map((m) => ({
      ...m,
      layers: m.layers.map((l) => ({
        ...l,
        source: "path" in l.source ? { ...l.source, path: abs(l.source.path) } : l.source,
      })),
    })),
  };
}

/** The flag that lets documents read data outside the maps folder. */
export const OUTSIDE_PATHS_FLAG = "--allow-map-paths-outside";

/** The real path (symlinks and `..` resolved) of a file, or of the nearest folder that exists. */
function realPath(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realPath(parent), relative(parent, path));
  }
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * Refuses source paths that leave the maps folder (after `..` and symlinks): whoever may drop
 * a document in the folder must not thereby publish any file the server can read.
 */
function checkInside(
  doc: MapDocument,
  baseDir: string,
  root: string,
  fail: (path: string, problem: string) => never,
): void {
  doc.maps.forEach((m, i) =>
    m.layers.forEach((l, j) => {
      if (!("path" in l.source)) return;
      const real = realPath(resolve(baseDir, l.source.path));
      if (isInside(root, real)) return;
      fail(
        `maps[${i}].layers[${j}].source.path`,
        `"${l.source.path}" is outside the maps folder ${root}` +
          (real !== l.source.path ? `: it resolves to ${real}` : "") +
          `; move the data into the folder, or start the server with ${OUTSIDE_PATHS_FLAG}`,
      );
    })
  );
}

async function buildService(
  value: unknown,
  origin: string,
  baseDir: string,
  ctx: LoadContext,
): Promise<MapService> {
  const parsed = MapDocumentSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MapDocumentError(origin, jsonPath(issue.path), issue.message);
  }
  const doc = resolveSources(parsed.data, baseDir);
  const fail = (path: string, problem: string): never => {
    throw new MapDocumentError(origin, path, problem);
  };
  if (ctx.pathRoot !== undefined) checkInside(parsed.data, baseDir, ctx.pathRoot, fail);
  const names = new Set<string>();
  doc.maps.forEach((m, i) => {
    if (names.has(m.name.toLowerCase())) {
      fail(`maps[${i}].name`, `map name "${m.name}" is used twice`);
    }
    names.add(m.name.toLowerCase());
  });
  const before = new Set(ctx.sources.keys());
  const maps: MapFrame[] = [];
  for (let i = 0; i < doc.maps.length; i++) {
    maps.push(await buildMap(doc.maps[i], i, doc, ctx, fail));
  }
  const defaultMap = doc.defaultMap ?? maps[0].name;
  if (!maps.some((m) => m.name === defaultMap)) {
    fail(
      "defaultMap",
      `no map is called "${defaultMap}"; maps: ${maps.map((m) => m.name).join(", ")}`,
    );
  }
  const own = [...ctx.sources.entries()].filter(([k]) => !before.has(k)).map(([, s]) => s);
  return {
    name: doc.name,
    description: doc.description,
    copyrightText: doc.copyright,
    maps,
    defaultMapName: defaultMap,
    documentInfo: doc.documentInfo,
    limits: doc.limits,
    origin,
    close() {
      for (const s of own) s.close?.();
    },
  };
}

/**
 * Loads one map-document file (JSON) into a service; source paths are
 * relative to the file.
 *
 * @example
 * ```ts
 * const service = await loadMapDocument("maps/cities.json");
 * ```
 */
export async function loadMapDocument(path: string, opts: LoadOptions = {}): Promise<MapService> {
  return await loadDocument(path, { opts, sources: new Map(), catalog: opts.catalog });
}

async function loadDocument(path: string, ctx: LoadContext): Promise<MapService> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    throw new MapDocumentError(path, "", "the file does not exist or cannot be read");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new MapDocumentError(path, "", `not valid JSON (${(e as Error).message})`);
  }
  return await buildService(value, path, dirname(resolve(path)), ctx);
}

/**
 * Builds a service from a document value already in memory (e.g. the
 * embedded default); relative paths resolve against `baseDir`.
 *
 * @example
 * ```ts
 * import type { CompetitionCatalog } from "../sources/mod.ts";
 * declare const json: unknown, catalog: CompetitionCatalog;
 * const service = await loadMapDocumentValue(json, { catalog });
 * ```
 */
export async function loadMapDocumentValue(
  value: unknown,
  opts: LoadOptions & { origin?: string; baseDir?: string } = {},
): Promise<MapService> {
  return await buildService(
    value,
    opts.origin ?? "(inline document)",
    opts.baseDir ?? Deno.cwd(),
    { opts, sources: new Map(), catalog: opts.catalog },
  );
}

/** Options of {@linkcode loadServices}. */
export interface LoadServicesOptions extends LoadOptions {
  /** Folder whose `*.json` map documents are served; default the embedded service. */
  mapsDir?: string;
  /**
   * Let documents name data outside `mapsDir` (`--allow-map-paths-outside`). By default a
   * source path that resolves outside the folder (after `..` and symlinks) is refused.
   */
  allowPathsOutside?: boolean;
}

/**
 * The services to publish: every `*.json` document in `mapsDir` (sorted
 * by file name), or the embedded default service. Arguments are plain
 * data (a catalogue path works in a worker). Service names must be unique.
 *
 * @example
 * ```ts
 * import type { CompetitionCatalog } from "../sources/mod.ts";
 * declare const catalog: CompetitionCatalog;
 * const services = await loadServices({ catalog });
 * services[0].name; // "Recruitment"
 * ```
 */
export async function loadServices(opts: LoadServicesOptions = {}): Promise<MapService[]> {
  const ctx: LoadContext = { opts, sources: new Map(), catalog: opts.catalog };
  if (!opts.mapsDir) {
    return [await buildService(DEFAULT_DOCUMENT, "(embedded default service)", Deno.cwd(), ctx)];
  }
  let files: string[];
  try {
    files = [...Deno.readDirSync(opts.mapsDir)]
      .filter((e) => e.isFile && e.name.toLowerCase().endsWith(".json"))
      .map((e) => join(opts.mapsDir!, e.name))
      .sort();
  } catch {
    throw new MapDocumentError(
      opts.mapsDir,
      "",
      "the maps folder does not exist or cannot be read",
    );
  }
  if (files.length === 0) {
    throw new MapDocumentError(opts.mapsDir, "", "the maps folder holds no .json map documents");
  }
  if (!opts.allowPathsOutside) ctx.pathRoot = realPath(resolve(opts.mapsDir));
  const services: MapService[] = [];
  try {
    for (const file of files) {
      const s = await loadDocument(file, ctx);
      const clash = services.find((x) => x.name.toLowerCase() === s.name.toLowerCase());
      if (clash) {
        throw new MapDocumentError(
          file,
          "name",
          `service name "${s.name}" is also used by ${clash.origin}`,
        );
      }
      services.push(s);
    }
  } catch (err) {
    // Nobody gets the services of the documents before the bad one: close every source opened.
    for (const source of ctx.sources.values()) source.close?.();
    throw err;
  }
  return services;
}

/** Parses a document without opening sources (for editors and tests): the validated value. */
export function validateMapDocument(value: unknown, origin = "(inline document)"): MapDocument {
  const parsed = MapDocumentSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MapDocumentError(origin, jsonPath(issue.path), issue.message);
  }
  return parsed.data;
}
