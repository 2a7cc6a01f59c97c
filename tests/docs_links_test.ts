/**
 * The documentation stands on its own: every relative link of README.md,
 * docs/ and the other Markdown files of the project resolves to a file
 * (and a heading, when it names one), and the pages a reader meets first
 * use no words that only mean something inside the team.
 */
import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";

const ROOT = new URL("..", import.meta.url).pathname;
const SKIP = new Set(["node_modules", "var", ".git"]);

/** Every Markdown file of the project, as paths relative to the root. */
function markdownFiles(dir = ROOT): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    if (SKIP.has(e.name)) continue;
    const path = join(dir, e.name);
    if (e.isDirectory) out.push(...markdownFiles(path));
    else if (e.name.endsWith(".md")) out.push(relative(ROOT, path));
  }
  return out.sort();
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[`*_]/g, "")
    .replace(/[^\p{L}\p{N}\s-]/gu, "").replace(/\s/g, "-");
}

function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of text.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Markdown links outside code blocks and code spans: [text](target). */
function links(text: string): string[] {
  const prose = text.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
}

Deno.test("docs: every relative link resolves to a file and heading", () => {
  const files = markdownFiles();
  assert.ok(files.includes("README.md") && files.includes("docs/api.md"), files.join(", "));
  const broken: string[] = [];
  for (const file of files) {
    const text = Deno.readTextFileSync(join(ROOT, file));
    for (const link of links(text)) {
      if (/^[a-z]+:/i.test(link)) continue; // http:, https:, mailto:
      const [path, anchor] = link.split("#");
      const target = path === "" ? file : join(dirname(file), decodeURIComponent(path));
      let targetText: string;
      try {
        const st = Deno.statSync(join(ROOT, target));
        if (st.isDirectory) continue;
        targetText = Deno.readTextFileSync(join(ROOT, target));
      } catch {
        broken.push(`${file}: ${link} (no such file)`);
        continue;
      }
      if (anchor && target.endsWith(".md") && !anchors(targetText).has(anchor)) {
        broken.push(`${file}: ${link} (no such heading)`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

Deno.test("docs: the README and docs/ use no team-internal words", () => {
  const internal = [/\bissue \d+/i, /\bthe seed\b/i, /\bseed says\b/i, /\bshared\/spec\b/];
  const found: string[] = [];
  for (const file of markdownFiles().filter((f) => f === "README.md" || f.startsWith("docs/"))) {
    Deno.readTextFileSync(join(ROOT, file)).split("\n").forEach((line, i) => {
      if (internal.some((re) => re.test(line))) found.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(found, []);
});

Deno.test("docs: the README stays short", () => {
  const size = Deno.statSync(join(ROOT, "README.md")).size;
  assert.ok(size < 8 * 1024, `README.md is ${size} bytes; move detail into docs/`);
});
