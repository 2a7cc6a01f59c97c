/**
 * A real PostgreSQL 15 + PostGIS 3 for tests, in a temporary folder:
 * `initdb` (trust authentication, UTF-8), `postgres` on a free loopback
 * port with its socket in the folder, database `gis` with the postgis
 * extension. As root (here and in CI) the server runs as the unprivileged
 * `postgres` user (initdb refuses root), through `setpriv`, which execs
 * so the process we hold is the server itself.
 *
 * ```ts
 * const pg = await startPostgis();
 * await pg.psql("CREATE TABLE t (id int PRIMARY KEY, geom geometry(Point, 4326))");
 * await pg.stopServer(); // PostgreSQL down (the data stays)
 * await pg.startServer(); // back on the same port
 * await pg.close(); // stop and remove the folder
 * ```
 *
 * @module
 */
import { type Reference, reference } from "./_optional.ts";

/** Where Debian's postgresql-15 puts its programs. */
export const PG_BIN = "/usr/lib/postgresql/15/bin";

/** PostgreSQL 15 with PostGIS 3 (Debian postgresql-15-postgis-3), for optionalTest. */
export const POSTGIS: Reference = reference(
  "postgis",
  "apt-get install postgresql-15-postgis-3",
  () => {
    for (const f of [`${PG_BIN}/initdb`, `${PG_BIN}/postgres`, `${PG_BIN}/psql`]) {
      try {
        Deno.statSync(f);
      } catch {
        return `${f} is missing`;
      }
    }
    try {
      Deno.statSync("/usr/share/postgresql/15/extension/postgis.control");
    } catch {
      return "the PostGIS 3 extension for PostgreSQL 15 is missing";
    }
    return null;
  },
);

/** A running test PostgreSQL. */
export interface TestPostgis {
  /** `postgresql://postgres@127.0.0.1:<port>/gis` (trust authentication, no password). */
  url: string;
  port: number;
  /** The temporary folder (data directory under `data/`, socket in the folder). */
  dir: string;
  /** Runs SQL with psql (stops at the first error) and returns its unaligned output. */
  psql(sql: string): Promise<string>;
  /** Stops the server (fast shutdown); the data stays for startServer. */
  stopServer(): Promise<void>;
  /** Starts the server again on the same port. */
  startServer(): Promise<void>;
  /** Stops the server and removes the folder. */
  close(): Promise<void>;
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** argv prefix that runs a program as `postgres` when we are root. */
function asPostgres(): string[] {
  return Deno.uid() === 0
    ? ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--"]
    : [];
}

async function run(argv: string[], stdin?: string): Promise<string> {
  const p = new Deno.Command(argv[0], {
    args: argv.slice(1),
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: { LC_ALL: "C.UTF-8" },
  }).spawn();
  if (stdin !== undefined) {
    const w = p.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await p.output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`${argv.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}${text}`);
  }
  return text;
}

/**
 * Starts PostgreSQL + PostGIS in a new temporary folder (about 2 s).
 *
 * @example
 * ```ts
 * const pg = await startPostgis();
 * await pg.psql("SELECT postgis_version()");
 * await pg.close();
 * ```
 */
export async function startPostgis(): Promise<TestPostgis> {
  const dir = await Deno.makeTempDir({ prefix: "postgis-test-" });
  const data = `${dir}/data`;
  if (Deno.uid() === 0) {
    const pw = await run(["id", "-u", "postgres"]);
    const gr = await run(["id", "-g", "postgres"]);
    await Deno.chown(dir, Number(pw.trim()), Number(gr.trim()));
  }
  await run([
    ...asPostgres(),
    `${PG_BIN}/initdb`,
    "-D",
    data,
    "-U",
    "postgres",
    "-A",
    "trust",
    "-E",
    "UTF8",
    "--locale=C.UTF-8",
    "--no-sync",
  ]);
  const port = freePort();
  let server: Deno.ChildProcess | null = null;
  const psqlArgs = (db: string) => [
    ...asPostgres(),
    `${PG_BIN}/psql`,
    "-X",
    "-q",
    "-A",
    "-t",
    "-v",
    "ON_ERROR_STOP=1",
    "-h",
    dir,
    "-p",
    String(port),
    "-U",
    "postgres",
    "-d",
    db,
  ];
  const startServer = async () => {
    server = new Deno.Command(asPostgres()[0] ?? `${PG_BIN}/postgres`, {
      args: [
        ...asPostgres().slice(1),
        ...(asPostgres().length ? [`${PG_BIN}/postgres`] : []),
        "-D",
        data,
        "-p",
        String(port),
        "-k",
        dir,
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "fsync=off",
        "-c",
        "max_connections=60",
      ],
      stdout: "null",
      stderr: "null",
    }).spawn();
    for (let i = 0; i < 200; i++) {
      const ready = await new Deno.Command(`${PG_BIN}/pg_isready`, {
        args: ["-h", "127.0.0.1", "-p", String(port), "-q"],
      }).output();
      if (ready.success) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`PostgreSQL in ${dir} did not start on port ${port}`);
  };
  const stopServer = async () => {
    const s = server as Deno.ChildProcess | null;
    if (!s) return;
    server = null;
    s.kill("SIGINT");
    await s.status;
  };
  await startServer();
  try {
    await run(psqlArgs("postgres"), "CREATE DATABASE gis;");
    await run(psqlArgs("gis"), "CREATE EXTENSION postgis;");
  } catch (e) {
    await stopServer();
    throw e;
  }
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/gis`,
    port,
    dir,
    psql: (sql) => run(psqlArgs("gis"), sql),
    stopServer,
    startServer,
    async close() {
      await stopServer();
      await Deno.remove(dir, { recursive: true });
    },
  };
}
