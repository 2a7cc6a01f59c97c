/**
 * Three replicas behind a real nginx, configured by the documented recipe
 * (`docs/deploy/nginx.conf`, only its ports and paths changed), publishing
 * the recruitment service and a live layer of one shared PostGIS table:
 * they answer every face alike, an image URL one replica hands out is fetched through
 * the balancer from any of them (a shared `--output-dir`), a replica killed
 * with SIGKILL under load costs no client request, and a new catalogue
 * rolled out replica by replica (an import on the first, `sync` from it
 * into the others while they serve) fails no request either.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PNG } from "pngjs";
import { optionalTest, reference } from "./_optional.ts";
import { MAIN, type ServerProcess, startServerProcess } from "./_server_process.ts";
import { createDemoDatabase } from "../data/mod.ts";
import { sampleVacancy, writeJson } from "./_data_fixtures.ts";
import { POSTGIS, startPostgis } from "./_postgres.ts";
import { DEFAULT_DOCUMENT } from "../map/document/default.ts";

const NGINX_PATH = "/usr/sbin/nginx";
const NGINX = reference(
  "nginx",
  "apt-get install nginx",
  () => existsSync(NGINX_PATH) ? null : `nginx is not installed (no ${NGINX_PATH})`,
);

const RECIPE = new URL("../docs/deploy/nginx.conf", import.meta.url);
const SOAP = "/arcgis/services/Recruitment/MapServer";
const LIVE = "/arcgis/rest/services/Live/MapServer";
const REST = "/arcgis/rest/services/Recruitment/MapServer";
const SOAP_BODY = '<?xml version="1.0" encoding="utf-8"?>' +
  '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
  '<e:GetDefaultMapName xmlns:e="http://www.esri.com/schemas/ArcGIS/10.3"/>' +
  "</soap:Body></soap:Envelope>";

/** A free loopback port (bound, then released for the process that takes it). */
function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** The recipe with our ports, and nginx's files under `prefix`. */
function nginxConfig(prefix: string, listen: number, replicas: number[]): string {
  let conf = Deno.readTextFileSync(RECIPE);
  replicas.forEach((port, i) => {
    conf = conf.replace(`server 127.0.0.1:800${i + 1} `, `server 127.0.0.1:${port} `);
  });
  conf = conf.replace("listen 8080;", `listen 127.0.0.1:${listen};`);
  assert.ok(!/800\d|8080/.test(conf.replace(/#.*$/gm, "")), "every port of the recipe replaced");
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
    .map((t) => `    ${t}_temp_path ${prefix}/${t};`).join("\n");
  return `pid ${prefix}/nginx.pid;\nerror_log ${prefix}/error.log warn;\n` +
    conf.replace("http {", `http {\n    access_log off;\n${temp}`);
}

interface Replica {
  dir: string;
  port: number;
  process: ServerProcess;
}

async function startReplica(
  dir: string,
  port: number,
  output: string,
  maps: string,
): Promise<Replica> {
  const process = await startServerProcess(dir, [
    "--port",
    String(port),
    "--maps",
    maps,
    "--trust-proxy",
    "--output-dir",
    output,
    "--tiles-dir",
    join(dir, "tiles"),
    // Each answer leaves in one write: a replica killed mid-answer leaves nginx nothing
    // half-read, so it retries on another (docs/operations.md).
    "--http-engine",
    "js",
  ]);
  return { dir, port, process };
}

/** What a client sees of one answer: enough to say two replicas answered alike. */
async function answer(url: string, init: RequestInit = {}): Promise<string> {
  const res = await fetch(url, init);
  const body = new Uint8Array(await res.arrayBuffer());
  return JSON.stringify({
    status: res.status,
    type: res.headers.get("content-type"),
    etag: res.headers.get("etag"),
    body: Buffer.from(body).toString("base64"),
  });
}

/** Requests of every face, as clients send them. */
function requests(base: string, n: number): [string, RequestInit][] {
  const x = -170 + (n * 37) % 300, y = -60 + (n * 11) % 100;
  return [
    [`${base}/api/v1/vacancies/?page=${1 + n % 3}`, {}],
    [`${base}/api/v1/competitions/?search=${encodeURIComponent("отдел")}`, {}],
    [`${base}${REST}/0/query?where=1%3D1&returnCountOnly=true&f=json`, {}],
    [`${base}${LIVE}/0/query?where=n%3C${n % 40}&outFields=*&f=json`, {}],
    [`${base}${REST}/export?bbox=${x},${y},${x + 40},${y + 30}&size=256,192&f=image`, {}],
    [`${base}${SOAP}`, {
      method: "POST",
      headers: { "content-type": "text/xml; charset=utf-8", soapaction: '""' },
      body: SOAP_BODY,
    }],
  ];
}

/** A failed request: what went wrong, and whether its answer had begun (then was cut). */
interface Failure {
  what: string;
  cut: boolean;
}

/** Clients sending `requests` through `base` until `stop` resolves; every failure is kept. */
async function load(
  base: string,
  clients: number,
  stop: Promise<void>,
): Promise<{ sent: number; failures: Failure[] }> {
  let done = false;
  stop.then(() => done = true);
  let sent = 0;
  const failures: Failure[] = [];
  await Promise.all(Array.from({ length: clients }, async (_, c) => {
    for (let n = c; !done; n += clients) {
      for (const [url, init] of requests(base, n)) {
        sent++;
        let res: Response;
        try {
          res = await fetch(url, init);
        } catch (e) {
          failures.push({ what: `${e} ${url}`, cut: false });
          continue;
        }
        try {
          await res.arrayBuffer();
        } catch (e) {
          failures.push({ what: `${e} ${url}`, cut: true });
          continue;
        }
        if (res.status !== 200) {
          failures.push({ what: `${res.status} ${init.method ?? "GET"} ${url}`, cut: false });
        }
      }
    }
  }));
  return { sent, failures };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function vacancyCount(base: string): Promise<number> {
  const res = await fetch(`${base}/api/v1/vacancies/`);
  return (await res.json()).count;
}

async function runMain(args: string[]): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", MAIN, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, `main.ts ${args.join(" ")}: ${text}`);
}

optionalTest([NGINX, POSTGIS], {
  name:
    "replicas: three servers behind nginx answer alike, share images, survive kill -9 and a rollout",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "replicas-" });
    const output = join(root, "output");
    const replicas: Replica[] = [];
    let nginx: Deno.ChildProcess | undefined;
    const pg = await startPostgis();
    try {
      // One PostGIS table every replica reads live, beside the recruitment service.
      await pg.psql(
        "CREATE TABLE places (id integer PRIMARY KEY, n integer, name text, geom geometry(Point, 4326));" +
          "INSERT INTO places SELECT i, i, 'место ' || i, ST_SetSRID(ST_MakePoint(i * 4 - 80, i - 20), 4326) FROM generate_series(1, 40) i;",
      );
      const maps = join(root, "maps");
      await Deno.mkdir(maps);
      await Deno.writeTextFile(join(maps, "recruitment.json"), JSON.stringify(DEFAULT_DOCUMENT));
      await Deno.writeTextFile(
        join(maps, "live.json"),
        JSON.stringify({
          name: "Live",
          maps: [{
            name: "Places",
            wkid: 4326,
            layers: [{ name: "Places", source: { type: "postgis", url: pg.url, table: "places" } }],
          }],
        }),
      );
      // One catalogue snapshot, copied to each replica's own disk.
      await createDemoDatabase(join(root, "snapshot.db"));
      const ports = [freePort(), freePort(), freePort()];
      for (const [i, port] of ports.entries()) {
        const dir = join(root, `replica${i + 1}`);
        await Deno.mkdir(dir);
        await Deno.copyFile(join(root, "snapshot.db"), join(dir, "catalog.db"));
        replicas.push(await startReplica(dir, port, output, maps));
      }
      const prefix = join(root, "nginx");
      await Deno.mkdir(prefix);
      const listen = freePort();
      await Deno.writeTextFile(join(prefix, "nginx.conf"), nginxConfig(prefix, listen, ports));
      nginx = new Deno.Command(NGINX_PATH, {
        args: ["-p", prefix, "-c", join(prefix, "nginx.conf"), "-g", "daemon off;"],
        stdout: "null",
        stderr: "piped",
      }).spawn();
      const lb = `http://127.0.0.1:${listen}`;
      let up = false;
      for (let i = 0; i < 100 && !up; i++) {
        up = await fetch(`${lb}/api/v1/`).then(async (r) => {
          await r.body?.cancel();
          return r.ok;
        }, () => false);
        if (!up) await sleep(100);
      }
      assert.ok(up, "nginx answers");

      // 1. The same question gets the same answer from every replica (as the balancer's host).
      const host = { "x-forwarded-host": `127.0.0.1:${listen}`, "x-forwarded-proto": "http" };
      for (const [path, init] of requests("", 4)) {
        const answers = await Promise.all(
          replicas.map((r) =>
            answer(`http://127.0.0.1:${r.port}${path}`, {
              ...init,
              headers: { ...init.headers as Record<string, string>, ...host },
            })
          ),
        );
        assert.equal(new Set(answers).size, 1, `every replica answers ${path} alike`);
        assert.equal(JSON.parse(answers[0]).status, 200, path);
      }

      // A row changed in the shared PostGIS shows on every replica at once.
      await pg.psql("UPDATE places SET name = 'переименовано' WHERE id = 7");
      for (const r of replicas) {
        const res = await fetch(
          `http://127.0.0.1:${r.port}${LIVE}/0/query?objectIds=7&outFields=name&f=json`,
        );
        const body = await res.json();
        assert.equal(body.features?.[0]?.attributes?.name, "переименовано", JSON.stringify(body));
      }

      // 2. An image handed out by one replica is there through the balancer, whichever answers.
      for (let i = 0; i < 6; i++) {
        const res = await fetch(`${lb}${REST}/export?bbox=20,40,60,70&size=300,200&f=json`);
        const { href } = await res.json();
        assert.ok(href.startsWith(`${lb}/`), `the image URL is the balancer's: ${href}`);
        for (let k = 0; k < 3; k++) {
          const img = await fetch(href);
          assert.equal(img.status, 200, href);
          const png = PNG.sync.read(Buffer.from(await img.arrayBuffer()));
          assert.deepEqual([png.width, png.height], [300, 200]);
        }
      }

      // 3. kill -9 of one replica under load: nginx sends its requests to the others.
      {
        let stop!: () => void;
        const running = load(lb, 8, new Promise<void>((r) => stop = r));
        await sleep(2000);
        replicas[1].process.child.kill("SIGKILL");
        await replicas[1].process.child.status;
        await sleep(3000);
        stop();
        const { sent, failures } = await running;
        const log = await Deno.readTextFile(join(prefix, "error.log")).catch(() => "");
        // Every request the dead replica had not answered is sent to another one. None is
        // cut mid-answer: with --http-engine js an answer leaves in one write, which the
        // kernel delivers even once the process is dead, so nginx never holds a head whose
        // body cannot come (it could not replay that request; hyper writes them apart).
        const lost = failures.filter((f) => !f.cut);
        const cut = failures.filter((f) => f.cut);
        console.log(
          `kill -9 under load: ${sent} requests, ${lost.length} lost, ${cut.length} cut mid-answer`,
          ...cut.map((f) => f.what),
          ...log.split("\n").filter((l) => /while reading upstream/.test(l)),
        );
        assert.deepEqual(
          lost.map((f) => f.what).slice(0, 10),
          [],
          `${lost.length} of ${sent} lost`,
        );
        assert.deepEqual(cut.map((f) => f.what), [], `${cut.length} answers cut`);
        assert.ok(sent > 50, `requests were sent (${sent})`);
      }
      // The killed replica comes back on its port.
      replicas[1] = await startReplica(replicas[1].dir, ports[1], output, maps);

      // 4. A new catalogue, replica by replica, while clients keep asking.
      {
        const before = await vacancyCount(lb);
        let stop!: () => void;
        const running = load(lb, 6, new Promise<void>((r) => stop = r));
        const file = await writeJson(root, "new.json", [sampleVacancy(900_001)]);
        await runMain(["import", file, "--db", join(replicas[0].dir, "catalog.db")]);
        const first = `http://127.0.0.1:${ports[0]}`;
        for (const r of replicas.slice(1)) {
          await runMain(["sync", first, "--db", join(r.dir, "catalog.db")]);
        }
        await sleep(500);
        stop();
        const { sent, failures } = await running;
        assert.deepEqual(
          failures.map((f) => f.what).slice(0, 10),
          [],
          `${failures.length} of ${sent} failed`,
        );
        const counts = await Promise.all(
          replicas.map((r) => vacancyCount(`http://127.0.0.1:${r.port}`)),
        );
        assert.deepEqual(counts, [before + 1, before + 1, before + 1]);
        console.log(`rollout under load: ${sent} requests, ${failures.length} failed`);
      }
    } finally {
      if (nginx) {
        // The fast stop: a graceful one (SIGQUIT) sometimes waited ~55 s on open connections.
        nginx.kill("SIGTERM");
        const err = nginx.stderr.pipeThrough(new TextDecoderStream());
        await err.pipeTo(new WritableStream()).catch(() => {});
        await nginx.status;
      }
      for (const r of replicas) {
        try {
          r.process.child.kill("SIGKILL");
        } catch { /* already gone */ }
        await r.process.child.status;
      }
      await pg.close();
      await Deno.remove(root, { recursive: true }).catch(() => {});
    }
  },
});
