/**
 * The layering, kept from regressing: the map engine (operations, renderer,
 * tiles, sources, queries) imports no protocol face; the map server's front
 * (`map/mod.ts`) is protocol-neutral and the faces stand side by side over
 * it, none importing another; nothing in `map/` reaches into `data/` or
 * `routes/` (the application hands the map server what it needs);
 * operations take and return typed values rather than open records; and
 * nothing is configured through process-wide `configure*` functions.
 */
import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(join(ROOT, dir))) {
    const path = join(dir, e.name);
    if (e.isDirectory) out.push(...sources(path));
    else if (e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) out.push(path);
  }
  return out;
}

/** Repo-relative paths of the modules `file` imports by a relative specifier. */
function importsOf(file: string): string[] {
  const text = Deno.readTextFileSync(join(ROOT, file));
  const specs = [...text.matchAll(/(?:import|export)[^;]*?from\s+"(\.{1,2}\/[^"]+)"/g)]
    .map((m) => m[1]);
  return specs.map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)));
}

const ENGINE = [
  "map/ops",
  "map/render",
  "map/tiles",
  "map/sources",
  "map/query",
  "map/geo",
  "map/document",
];

Deno.test("architecture: operations hold no open records or SOAP-shaped objects", () => {
  const offenders = sources("map/ops").filter((file) =>
    /Record<string, unknown>|ArcgisObject|SoapObject/.test(Deno.readTextFileSync(join(ROOT, file)))
  );
  assert.deepEqual(offenders, []);
});

Deno.test("architecture: no process-wide configure* functions", () => {
  const offenders = ["map", "data", "routes", "tools"].flatMap(sources).concat("main.ts").filter((
    file,
  ) => /export\s+(?:async\s+)?function\s+configure/.test(Deno.readTextFileSync(join(ROOT, file))));
  assert.deepEqual(offenders, []);
});

/**
 * The protocol faces of the map server, each a folder of map/. A new face
 * is one more entry here: it then may import the engine and the front, but
 * no other face, and the front and the engine may not import it.
 */
const FACES = ["map/soap", "map/rest", "map/wms", "map/wmts", "map/wfs", "map/ogcapi"];

/** The faces that exist in this tree. */
function faces(): string[] {
  return FACES.filter((dir) => {
    try {
      return Deno.statSync(join(ROOT, dir)).isDirectory;
    } catch {
      return false;
    }
  });
}

function faceOf(file: string): string | undefined {
  return FACES.find((f) => file.startsWith(`${f}/`));
}

Deno.test("architecture: the engine and the front import no face", () => {
  const offenders: string[] = [];
  for (const file of [...ENGINE.flatMap(sources), "map/mod.ts"]) {
    for (const target of importsOf(file)) {
      if (faceOf(target)) offenders.push(`${file} -> ${target}`);
    }
  }
  assert.deepEqual(offenders, []);
});

Deno.test("architecture: no face imports another", () => {
  assert.ok(faces().length >= 3, `faces found: ${faces().join(", ")}`);
  const offenders: string[] = [];
  for (const face of faces()) {
    for (const file of sources(face)) {
      for (const target of importsOf(file)) {
        const other = faceOf(target);
        if (other && other !== face) offenders.push(`${file} -> ${target}`);
      }
    }
  }
  assert.deepEqual(offenders, []);
});

Deno.test("architecture: nothing in map/ imports data/ or routes/", () => {
  const offenders = sources("map").flatMap((file) =>
    importsOf(file).filter((t) => /^(data|routes)\//.test(t)).map((t) => `${file} -> ${t}`)
  );
  assert.deepEqual(offenders, []);
});
