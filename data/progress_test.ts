import assert from "node:assert/strict";
import { progressBar } from "./progress.ts";

/** Collects what a progress display writes. */
function collector(terminal: boolean) {
  const chunks: string[] = [];
  const dec = new TextDecoder();
  return {
    chunks,
    out: {
      writeSync(p: Uint8Array) {
        chunks.push(dec.decode(p));
        return p.length;
      },
      isTerminal: () => terminal,
    },
  };
}

Deno.test("progress: in a log, one plain line per interval and a final summary", () => {
  const c = collector(false);
  let clock = 0;
  const bar = progressBar("sync vacancies", { out: c.out, intervalMs: 5000, now: () => clock });
  for (let done = 1; done <= 100; done++) {
    clock += 250; // 25 s in all
    bar.update(done, 100, `page ${done}`);
  }
  bar.finish();
  const text = c.chunks.join("");
  assert.ok(
    !text.includes("\r") && !text.includes("\u001b"),
    "no carriage returns or escapes in a log",
  );
  const lines = text.trimEnd().split("\n");
  assert.deepEqual(lines, [
    "sync vacancies: 20/100 (20%)  page 20",
    "sync vacancies: 40/100 (40%)  page 40",
    "sync vacancies: 60/100 (60%)  page 60",
    "sync vacancies: 80/100 (80%)  page 80",
    "sync vacancies: 100/100 (100%)  page 100",
    "sync vacancies: 100/100 (100%)  page 100, 25.0 s",
  ]);
});

Deno.test("progress: a short run in a log prints only the summary; unknown totals show counts", () => {
  const c = collector(false);
  let clock = 0;
  const bar = progressBar("demo data", { out: c.out, now: () => clock });
  bar.update(3, 0);
  clock = 1200;
  bar.update(7, 0);
  bar.finish("demo data: 7 records written.");
  bar.update(8, 0);
  bar.finish();
  assert.deepEqual(c.chunks, ["demo data: 7 records written.\n"]);
  const failed = progressBar("import", { out: c.out, now: () => clock });
  failed.update(1, 0);
  failed.stop();
  failed.finish();
  assert.equal(c.chunks.length, 1, "a stopped display in a log prints nothing more");
});

Deno.test("progress: on a terminal the bar is redrawn in place, at most every 100 ms", () => {
  const c = collector(true);
  let clock = 0;
  const bar = progressBar("tiles", { out: c.out, now: () => clock });
  bar.update(1, 4);
  clock = 50;
  bar.update(2, 4); // too soon: skipped
  clock = 200;
  bar.update(3, 4);
  bar.finish();
  assert.equal(c.chunks.length, 3);
  assert.equal(c.chunks[0], `\rtiles [${"#".repeat(8)}${".".repeat(22)}] 1/4 (25%)\x1b[K`);
  assert.ok(c.chunks[1].startsWith("\rtiles ["));
  assert.equal(c.chunks[2], "\rtiles: 3/4 (75%), 0.2 s\u001b[K\n");
});

Deno.test("progress: a subprocess's stderr is not a terminal, so it gets plain lines", async () => {
  const module = new URL("./progress.ts", import.meta.url).href;
  const script = `const { progressBar } = await import(${JSON.stringify(module)});
    let t = 0;
    const bar = progressBar("work", { intervalMs: 1000, now: () => t });
    for (let i = 1; i <= 10; i++) { t += 300; bar.update(i, 10); }
    bar.finish();`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(
    new TextDecoder().decode(out.stderr),
    "work: 4/10 (40%)\nwork: 8/10 (80%)\nwork: 10/10 (100%), 3.0 s\n",
  );
});
