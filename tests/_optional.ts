/**
 * Optional reference tests: tests that check us against another real
 * implementation (zeep, Axis, JAX-WS, Mono, Django REST Framework, GDAL,
 * GEOS, Chromium, Esri's reference WSDLs, a `deno compile` runtime) run when
 * that implementation is on the machine and are skipped loudly otherwise.
 *
 * - {@link reference} describes one implementation: a probe that says why it
 *   is missing (or `null` when it is there) and how to get it.
 * - {@link optionalTest} registers a test that needs some of them. When one
 *   is missing the test is ignored, its name says why and what enables it,
 *   and the skip is appended to the file named by `TEST_SKIP_LOG` (the test
 *   runner `tests/_run.ts` sets it and prints one summary line at the end).
 * - With `REFERENCE_TESTS=required` (set by `.ci/run`) a missing
 *   implementation is a failed test instead, so CI proves every reference.
 *
 * The probes of the implementations several test files share live here too.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

/** One reference implementation an optional test needs. */
export interface Reference {
  /** Short name used in the skip summary, e.g. `zeep`. */
  readonly name: string;
  /** What makes it available, e.g. `apt-get install python3-zeep`. */
  readonly enable: string;
  /** Why it is missing, or `null` when it is available (probed once, on first use). */
  readonly missing: string | null;
  /**
   * False for what no CI machine can have (a `denort` download is not
   * reachable there): `REFERENCE_TESTS=required` still skips, loudly.
   */
  readonly requiredInCi: boolean;
}

/** The variable that turns a skipped reference test into a failure. */
export const STRICT_VARIABLE = "REFERENCE_TESTS";

/** The variable naming the file where skipped reference tests are logged (JSON lines). */
export const SKIP_LOG_VARIABLE = "TEST_SKIP_LOG";

/** One line of the skip log. */
export interface SkipRecord {
  test: string;
  reference: string;
  missing: string;
  enable: string;
  /** False when `REFERENCE_TESTS=required` does not apply (see {@link Reference.requiredInCi}). */
  requiredInCi: boolean;
}

/**
 * A reference implementation with a lazy probe (`probe` returns why it is
 * missing, or `null`; a throwing probe counts as missing with its message).
 *
 * @example
 * ```ts
 * const zip = reference("unzip", "apt-get install unzip", () =>
 *   onPath("unzip") ? null : "unzip is not on PATH");
 * ```
 */
export function reference(
  name: string,
  enable: string,
  probe: () => string | null,
  requiredInCi = true,
): Reference {
  let missing: string | null | undefined;
  return {
    name,
    enable,
    requiredInCi,
    get missing() {
      if (missing === undefined) {
        try {
          missing = probe();
        } catch (e) {
          missing = e instanceof Error ? e.message : String(e);
        }
      }
      return missing;
    },
  };
}

/** True when `REFERENCE_TESTS=required`: a missing reference fails its test. */
export function referencesRequired(): boolean {
  return Deno.env.get(STRICT_VARIABLE) === "required";
}

/**
 * Registers `def` as a test that needs `needs`. With everything present it
 * is an ordinary test; otherwise it is ignored under a name that says what
 * is missing and how to enable it (or fails, under `REFERENCE_TESTS=required`).
 *
 * @example
 * ```ts
 * optionalTest(CHROMIUM, { name: "browser shows the map", fn() {} });
 * ```
 */
export function optionalTest(needs: Reference | Reference[], def: Deno.TestDefinition): void {
  const missing = [needs].flat().filter((r) => r.missing !== null);
  if (missing.length === 0) {
    Deno.test(def);
    return;
  }
  const why = missing.map((r) => `${r.missing}; ${r.enable}`).join("; ");
  if (referencesRequired() && missing.some((r) => r.requiredInCi)) {
    Deno.test({
      name: `${def.name} [required, but ${why}]`,
      fn() {
        throw new Error(
          `${STRICT_VARIABLE}=required and this reference test cannot run: ${why}.`,
        );
      },
    });
    return;
  }
  const name = `${def.name} [skipped: ${why}]`;
  const log = Deno.env.get(SKIP_LOG_VARIABLE);
  if (log) {
    const lines = missing.map((r) =>
      JSON.stringify(
        {
          test: name,
          reference: r.name,
          missing: r.missing ?? "",
          enable: r.enable,
          requiredInCi: r.requiredInCi,
        } satisfies SkipRecord,
      ) +
      "\n"
    );
    Deno.writeTextFileSync(log, lines.join(""), { append: true });
  }
  Deno.test({ ...def, name, ignore: true });
}

/**
 * True when `cmd` is an executable file in a `PATH` folder (no `which`
 * needed, so it works on minimal machines).
 *
 * @example
 * ```ts
 * onPath("deno"); // true when deno is installed
 * ```
 */
export function onPath(cmd: string): boolean {
  for (const dir of (Deno.env.get("PATH") ?? "").split(delimiter)) {
    if (!dir) continue;
    try {
      const st = Deno.statSync(join(dir, cmd));
      if (st.isFile && ((st.mode ?? 0o111) & 0o111) !== 0) return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}

/** True when `python` exists and can import every module of `modules`. */
export function pythonImports(python: string, modules: string[]): boolean {
  try {
    return new Deno.Command(python, {
      args: ["-c", `import ${modules.join(", ")}`],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
}

/** Sonames tried for libgdal (Debian bookworm, trixie and later, and the dev symlink). */
export const GDAL_SONAMES = ["libgdal.so", "libgdal.so.32", "libgdal.so.34", "libgdal.so.36"];

/** Debian's own interpreter: a python3 earlier on PATH (pyenv) cannot see Debian's packages. */
export const DEBIAN_PYTHON = "/usr/bin/python3";

/** python3-zeep, a second SOAP client generated from our WSDL. */
export const ZEEP: Reference = reference(
  "zeep",
  "apt-get install python3-zeep",
  () => pythonImports(DEBIAN_PYTHON, ["zeep"]) ? null : "python3-zeep is not installed",
);

/**
 * OWSLib, the Python OGC client (Debian's python3-owslib), with the
 * modules a test uses (`owslib.wms`, `owslib.wfs`, `owslib.ogcapi.features`…).
 */
export function owslibReference(modules: string[]): Reference {
  return reference(
    "OWSLib",
    "apt-get install python3-owslib",
    () =>
      pythonImports(DEBIAN_PYTHON, modules)
        ? null
        : `python3-owslib (${modules.join(", ")}) is not installed`,
  );
}

/** Folder of Debian's Java libraries. */
export const JAVA_JARS = "/usr/share/java";

/**
 * A Java SOAP toolkit from Debian (`pkg`): every jar of `jars` in
 * {@link JAVA_JARS}, and `javac` to compile the generated stubs.
 */
export function javaReference(name: string, pkg: string, jars: string[]): Reference {
  return reference(name, `apt-get install ${pkg} default-jdk-headless`, () => {
    const absent = jars.filter((j) => !existsSync(join(JAVA_JARS, `${j}.jar`)));
    if (absent.length > 0) {
      return `${pkg} is not installed (no ${absent.slice(0, 3).join(", ")}` +
        `${absent.length > 3 ? ", ..." : ""} in ${JAVA_JARS})`;
    }
    return onPath("javac") ? null : "javac is not installed";
  });
}

/** Mono's `wsdl` proxy generator and C# compiler (mono-devel). */
export const MONO: Reference = reference(
  "Mono",
  "apt-get install mono-devel",
  () => {
    const absent = ["wsdl", "mcs", "mono"].filter((c) => !onPath(c));
    return absent.length === 0 ? null : `mono-devel is not installed (no ${absent.join(", ")})`;
  },
);

/** UMN MapServer's map2img, reading GeoPackages through OGR (mapserver-bin). */
export const MAP2IMG: Reference = reference(
  "map2img",
  "apt-get install mapserver-bin",
  () => onPath("map2img") ? null : "mapserver-bin is not installed (no map2img)",
);

/**
 * GDAL's command-line tools (ogrinfo: the ESRIJSON driver reading our REST
 * query; gdal_translate: the WMS driver's AGS mini-driver drawing from /export).
 */
export const GDAL_BIN: Reference = reference(
  "gdal-bin",
  "apt-get install gdal-bin",
  () =>
    onPath("ogrinfo") && onPath("gdal_translate")
      ? null
      : "gdal-bin is not installed (no ogrinfo or gdal_translate)",
);

/** Info-ZIP's unzip, an independent reader of our KMZ archives. */
export const UNZIP: Reference = reference(
  "unzip",
  "apt-get install unzip",
  () => onPath("unzip") ? null : "unzip is not installed",
);

/** Headless Chromium (Debian's chromium). */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** A real browser for the web map at `/` (driven over the DevTools protocol, `tests/_cdp.ts`). */
export const CHROMIUM: Reference = reference(
  "Chromium",
  "apt-get install chromium",
  () => existsSync(CHROMIUM_PATH) ? null : `chromium is not installed (no ${CHROMIUM_PATH})`,
);

/**
 * libgdal through FFI; `what` names the use (GDAL itself, or GEOS behind
 * OGR's predicates), `open` is the test's own loader.
 */
export function gdalReference(what: string, open: () => unknown): Reference {
  return reference(
    what,
    "apt-get install gdal-bin",
    () => open() ? null : `libgdal is not installed (none of ${GDAL_SONAMES.join(", ")})`,
  );
}

/**
 * Folder of Esri's reference WSDLs, from `$ESRI_REFERENCE_DIR`; undefined
 * when it is not set (a clone has no copy of them: `.ci/run` points at one).
 */
export function esriReferenceDir(): string | undefined {
  return Deno.env.get("ESRI_REFERENCE_DIR") || undefined;
}

/** Esri's ArcGIS 10.7 reference WSDLs (MapServer and Catalog). */
export const ESRI_REFERENCE: Reference = reference(
  "Esri reference WSDLs",
  "set ESRI_REFERENCE_DIR to the folder of esri-MapServer-10.7.wsdl and esri-Catalog-10.7.wsdl",
  () => {
    const dir = esriReferenceDir();
    if (!dir) return "ESRI_REFERENCE_DIR is not set";
    const absent = ["esri-MapServer-10.7.wsdl", "esri-Catalog-10.7.wsdl"].filter((f) =>
      !existsSync(join(dir, f))
    );
    return absent.length === 0 ? null : `Esri's ${absent.join(" and ")} not in ${dir}`;
  },
);

/** QGIS 3.22 through PyQGIS (its ArcGIS REST providers), run by Debian's interpreter. */
export const QGIS: Reference = reference(
  "QGIS",
  "apt-get install qgis python3-qgis",
  () => pythonImports(DEBIAN_PYTHON, ["qgis.core"]) ? null : "python3-qgis is not installed",
);
