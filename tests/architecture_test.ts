/**
 * The layering issue 11 asked for, kept from regressing: the map engine
 * (operations, renderer, tiles, sources, queries) imports neither protocol
 * face, operations take and return typed values rather than open records,
 * and nothing is configured through process-wide `configure*` functions.
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

Deno.test("architecture: the map engine imports neither map/soap, map/rest nor routes", () => {
  const offenders: string[] = [];
  for (const dir of ENGINE) {
    for (const file of sources(dir)) {
      for (const target of importsOf(file)) {
        if (/^(map\/soap|map\/rest|routes)\//.test(target)) offenders.push(`${file} -> ${target}`);
      }
    }
  }
  assert.deepEqual(offenders, []);
});

Deno.test("architecture: operations hold no open records or SOAP-shaped objects", () => {
  const offenders = sources("map/ops").filter((file) =>
    /Record<string, unknown>|ArcgisObject|SoapObject/.test(Deno.readTextFileSync(join(ROOT, file)))
  );
  assert.deepEqual(offenders, []);
});

Deno.test("architecture: no process-wide configure* functions", () => {
  const offenders = ["map", "data", "routes"].flatMap(sources).concat("main.ts").filter((file) =>
    /export\s+(?:async\s+)?function\s+configure/.test(Deno.readTextFileSync(join(ROOT, file)))
  );
  assert.deepEqual(offenders, []);
});

Deno.test("architecture: the OGC API face imports neither another face, data/ nor routes", () => {
  const offenders = sources("map/ogcapi").flatMap((file) =>
    importsOf(file).filter((t) => /^(map\/soap|map\/rest|data|routes)\//.test(t)).map((t) =>
      `${file} -> ${t}`
    )
  );
  assert.deepEqual(offenders, []);
});
