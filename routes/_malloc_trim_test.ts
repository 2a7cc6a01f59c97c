import assert from "node:assert/strict";
import { type MallocStats, MallocTrimmer, openGlibcMalloc } from "./_malloc_trim.ts";

const MiB = 2 ** 20;

/** A malloc whose totals the test sets, with trims that end when the test says. */
function fakeMalloc(stats: MallocStats) {
  const pending: (() => void)[] = [];
  const fake = {
    stats: { ...stats },
    looks: 0,
    trims: 0,
    control: {
      stats: () => {
        fake.looks++;
        return Promise.resolve({ ...fake.stats });
      },
      trim: () => {
        fake.trims++;
        return new Promise<void>((resolve) => pending.push(resolve));
      },
    },
    /** Ends the trims in progress. */
    finish: () => pending.splice(0).forEach((r) => r()),
  };
  return fake;
}

/** Lets a look that started finish (its totals arrive as a resolved promise). */
const tick = () => new Promise((r) => setTimeout(r, 0));

Deno.test("MallocTrimmer: trims once enough is free, not below the threshold", async () => {
  const m = fakeMalloc({ usedBytes: 80 * MiB, freeBytes: 20 * MiB, residentBytes: 200 * MiB });
  let clock = 0;
  const trimmer = new MallocTrimmer(m.control, { minFreeBytes: 32 * MiB, now: () => clock });
  assert.equal(trimmer.check(), true, "a look starts");
  await trimmer.settled();
  assert.equal(m.trims, 0, "20 MiB free is under the threshold");
  clock += 1000;
  m.stats.freeBytes = 40 * MiB;
  assert.equal(trimmer.check(), true);
  await tick();
  assert.equal(m.trims, 1);
  m.finish();
  await trimmer.settled();
  assert.equal(trimmer.trims, 1);
});

Deno.test("MallocTrimmer: the look at malloc's totals does not hold up the caller", () => {
  const m = fakeMalloc({ usedBytes: 80 * MiB, freeBytes: 60 * MiB, residentBytes: 250 * MiB });
  const trimmer = new MallocTrimmer(m.control);
  assert.equal(trimmer.check(), true);
  // The totals are asked for, and nothing is decided before they arrive.
  assert.equal(m.looks, 1);
  assert.equal(m.trims, 0);
  assert.equal(trimmer.check(), false, "a look is running");
});

Deno.test("MallocTrimmer: after a trim, only memory made resident again and freed makes the next one due", async () => {
  const m = fakeMalloc({ usedBytes: 80 * MiB, freeBytes: 60 * MiB, residentBytes: 250 * MiB });
  let clock = 0;
  const trimmer = new MallocTrimmer(m.control, {
    regrowthBytes: 16 * MiB,
    minIntervalMs: 1000,
    costFactor: 0,
    now: () => clock,
  });
  assert.equal(trimmer.check(), true);
  await tick();
  assert.equal(m.trims, 1);
  m.stats.residentBytes = 200 * MiB; // what the trim gave back
  m.finish();
  await trimmer.settled();
  clock += 2000;
  // Still 60 MiB free, but already returned: not due.
  trimmer.check();
  await trimmer.settled();
  assert.equal(m.trims, 1);
  // 30 MiB more in use and resident: growth of what is used, not of free memory.
  m.stats.usedBytes += 30 * MiB;
  m.stats.residentBytes += 30 * MiB;
  clock += 2000;
  trimmer.check();
  await trimmer.settled();
  assert.equal(m.trims, 1);
  // That use ends, but its pages stay resident: now due.
  m.stats.usedBytes -= 30 * MiB;
  clock += 2000;
  assert.equal(trimmer.check(), true);
  await tick();
  assert.equal(m.trims, 2);
  m.finish();
  await trimmer.settled();
});

Deno.test("MallocTrimmer: rate-limited by the interval and by what the last trim cost; never two at once", async () => {
  const m = fakeMalloc({ usedBytes: 80 * MiB, freeBytes: 60 * MiB, residentBytes: 250 * MiB });
  let clock = 0;
  const trimmer = new MallocTrimmer(m.control, {
    regrowthBytes: 0,
    minIntervalMs: 1000,
    costFactor: 20,
    minCheckIntervalMs: 0,
    now: () => clock,
  });
  assert.equal(trimmer.check(), true);
  await tick();
  assert.equal(m.trims, 1);
  clock += 5000;
  assert.equal(trimmer.check(), false, "a trim is running");
  assert.equal(m.looks, 1, "no look at the totals while a trim runs");
  m.finish(); // this trim took 5 s: the next waits 20 x 5 s
  await trimmer.settled();
  assert.equal(trimmer.trimMs, 5000);
  clock += 99_000;
  assert.equal(trimmer.check(), false);
  clock += 1000;
  assert.equal(trimmer.check(), true);
  await tick();
  m.finish(); // instant: the next waits the 1 s interval
  await trimmer.settled();
  clock += 999;
  assert.equal(trimmer.check(), false);
  clock += 1;
  assert.equal(trimmer.check(), true);
  await tick();
  m.finish();
  await trimmer.settled();
  assert.equal(m.trims, 3);
});

Deno.test("MallocTrimmer: looks at the totals at most once per check interval", async () => {
  const m = fakeMalloc({ usedBytes: 80 * MiB, freeBytes: 1 * MiB, residentBytes: 250 * MiB });
  let clock = 0;
  const trimmer = new MallocTrimmer(m.control, { minCheckIntervalMs: 250, now: () => clock });
  for (let i = 0; i < 10; i++) {
    trimmer.check();
    await trimmer.settled();
  }
  assert.equal(m.looks, 1);
  clock += 250;
  trimmer.check();
  await trimmer.settled();
  assert.equal(m.looks, 2);
});

Deno.test("MallocTrimmer: a trim that fails still counts and frees the way for the next", async () => {
  let clock = 0;
  let calls = 0;
  const trimmer = new MallocTrimmer({
    stats: () =>
      Promise.resolve({ usedBytes: 0, freeBytes: 64 * MiB, residentBytes: (++calls) * 64 * MiB }),
    trim: () => Promise.reject(new Error("no")),
  }, { now: () => clock });
  assert.equal(trimmer.check(), true);
  await trimmer.settled();
  assert.equal(trimmer.trims, 1);
  clock += 60_000;
  assert.equal(trimmer.check(), true);
  await trimmer.settled();
  assert.equal(trimmer.trims, 2);
});

Deno.test("MallocTrimmer: a look that fails is reported, and the next check looks again", async () => {
  let clock = 0;
  const errors: unknown[] = [];
  let fail = true;
  const trimmer = new MallocTrimmer({
    stats: () =>
      fail
        ? Promise.reject(new Error("mallinfo2 gone"))
        : Promise.resolve({ usedBytes: 0, freeBytes: 64 * MiB, residentBytes: 64 * MiB }),
    trim: () => Promise.resolve(),
  }, { now: () => clock, onError: (err) => errors.push(err) });
  assert.equal(trimmer.check(), true);
  await trimmer.settled();
  assert.equal(errors.length, 1);
  assert.match(String(errors[0]), /mallinfo2 gone/);
  assert.equal(trimmer.trims, 0);
  fail = false;
  clock += 1000;
  assert.equal(trimmer.check(), true);
  await trimmer.settled();
  assert.equal(trimmer.trims, 1);
});

Deno.test({
  name: "openGlibcMalloc: glibc's totals and trim on Linux with glibc, null elsewhere",
  fn: async () => {
    const malloc = openGlibcMalloc();
    const glibc = Deno.build.os === "linux" && (() => {
      try {
        Deno.dlopen("libc.so.6", { mallinfo2: { parameters: [], result: "usize" } }).close();
        return true;
      } catch {
        return false;
      }
    })();
    if (!glibc) {
      assert.equal(malloc, null);
      return;
    }
    assert.ok(malloc);
    const kept = new Uint8Array(8 * MiB).fill(1); // an ArrayBuffer store held through malloc
    const s = await malloc.stats();
    assert.ok(s.usedBytes >= kept.byteLength, `used ${s.usedBytes}`);
    assert.ok(s.residentBytes > s.usedBytes / 2, `resident ${s.residentBytes}`);
    assert.ok(s.freeBytes >= 0);
    await malloc.trim();
    assert.equal(kept[kept.length - 1], 1);
  },
});
