/**
 * The examples in the documentation work when pasted: every `curl` command
 * of a shell block in README.md and docs/ is run, as written, against the
 * server started as the quick start starts it (the demo catalogue, the
 * embedded map service), with `http://localhost:8000` pointed at the test's
 * port. Each must answer 200 with the kind of body the command expects
 * (JSON parses, an image decodes as PNG, XML is XML).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { PNG } from "pngjs";
import { Buffer } from "node:buffer";
import { demoDir, killServerProcess, startServerProcess } from "./_server_process.ts";

const ROOT = new URL("..", import.meta.url).pathname;

/** One `curl` command of the docs, read into what it sends. */
interface CurlExample {
  /** Where it is written: `docs/api.md:12`. */
  where: string;
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** The words of one shell command line: quotes removed, `|` and `#` end it. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      assert.ok(end > i, `unclosed quote in: ${line}`);
      word = (word ?? "") + line.slice(i + 1, end);
      i = end;
    } else if (c === " " || c === "\t") {
      if (word !== null) words.push(word);
      word = null;
    } else if ((c === "|" || c === "#" || c === ";" || c === "&") && word === null) {
      break;
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/** Every `curl` command in the shell blocks of `file`, continuation lines joined. */
function curlExamples(file: string): CurlExample[] {
  const text = Deno.readTextFileSync(join(ROOT, file));
  const out: CurlExample[] = [];
  for (const block of text.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)) {
    const startLine = text.slice(0, block.index).split("\n").length + 1;
    const lines = block[1].split("\n");
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i];
      const at = i;
      while (line.endsWith("\\") && i + 1 < lines.length) line = line.slice(0, -1) + lines[++i];
      const words = shellWords(line.trim());
      if (words[0] !== "curl") continue;
      const ex: CurlExample = {
        where: `${file}:${startLine + at}`,
        url: "",
        method: "GET",
        headers: {},
      };
      for (let w = 1; w < words.length; w++) {
        const word = words[w];
        if (word === "-H" || word === "--header") {
          const [k, ...v] = words[++w].split(":");
          ex.headers[k.trim().toLowerCase()] = v.join(":").trim();
        } else if (word === "-d" || word === "--data" || word === "--data-binary") {
          ex.body = words[++w];
          ex.method = ex.method === "GET" ? "POST" : ex.method;
        } else if (word === "-X" || word === "--request") {
          ex.method = words[++w];
        } else if (word === "-o" || word === "--output") {
          w++;
        } else if (/^https?:\/\//.test(word)) {
          ex.url = word;
        } else {
          assert.ok(["-s", "--silent", "-S", "-f", "-L"].includes(word), `${ex.where}: ${word}`);
        }
      }
      assert.ok(ex.url, `${ex.where}: a curl command without a URL`);
      out.push(ex);
    }
  }
  return out;
}

function documentationFiles(): string[] {
  const docs = [...Deno.readDirSync(join(ROOT, "docs"))]
    .filter((e) => e.isFile && e.name.endsWith(".md"))
    .map((e) => `docs/${e.name}`);
  return ["README.md", ...docs.sort()];
}

Deno.test("docs: the shell-word reader keeps quoted text and stops at a pipe", () => {
  assert.deepEqual(shellWords(`curl -s 'http://h/?a=1&b=2' | head`), [
    "curl",
    "-s",
    "http://h/?a=1&b=2",
  ]);
  assert.deepEqual(shellWords(`curl -H "A: b c"   # note`), ["curl", "-H", "A: b c"]);
});

Deno.test({
  name: "docs: every curl example answers as the page says when pasted",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const examples = documentationFiles().flatMap(curlExamples);
    // The quick start, the JSON API, SOAP, REST and the OGC pages each show some.
    for (
      const page of ["README.md", "docs/api.md", "docs/soap.md", "docs/rest.md", "docs/ogc.md"]
    ) {
      assert.ok(examples.some((e) => e.where.startsWith(`${page}:`)), `${page} has curl examples`);
    }
    const dir = await demoDir();
    const server = await startServerProcess(dir);
    try {
      const failures: string[] = [];
      for (const ex of examples) {
        assert.ok(ex.url.startsWith("http://localhost:8000/"), `${ex.where}: ${ex.url}`);
        const url = server.url.replace(/\/$/, "") + ex.url.slice("http://localhost:8000".length);
        const res = await fetch(url, { method: ex.method, headers: ex.headers, body: ex.body });
        const bytes = new Uint8Array(await res.arrayBuffer());
        const type = res.headers.get("content-type") ?? "";
        const text = new TextDecoder().decode(bytes);
        let problem = res.status === 200 ? "" : `status ${res.status}: ${text.slice(0, 200)}`;
        if (!problem && type.includes("json")) {
          try {
            const json = JSON.parse(text);
            if (json?.error) problem = `an error: ${text.slice(0, 200)}`;
            if (Array.isArray(json?.results) && json.results.length === 0) problem = "no results";
          } catch (e) {
            problem = `JSON that does not parse: ${e}`;
          }
        } else if (!problem && type.startsWith("image/png")) {
          try {
            PNG.sync.read(Buffer.from(bytes));
          } catch (e) {
            problem = `a PNG that does not decode: ${e}`;
          }
        } else if (!problem && type.includes("xml")) {
          if (!text.trimStart().startsWith("<") || /Fault>|ExceptionReport/.test(text)) {
            problem = `not the XML asked for: ${text.slice(0, 200)}`;
          }
        } else if (!problem) {
          problem = `an unexpected content type '${type}'`;
        }
        if (problem) failures.push(`${ex.where} ${ex.method} ${ex.url}: ${problem}`);
      }
      assert.deepEqual(failures, []);
      assert.ok(examples.length >= 10, `${examples.length} examples`);
    } finally {
      await killServerProcess(server, dir);
    }
  },
});
