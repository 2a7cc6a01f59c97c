/**
 * The machinery behind optional reference tests (`_optional.ts`) and the
 * summary `deno task test` ends with (`_run.ts`): a missing reference skips
 * its test under a name that says why and logs it, `REFERENCE_TESTS=required`
 * turns the skip into a failure (except for what no CI machine can have), and
 * the closing lines count tests and list the skips.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { countJunit, skipSummary } from "./_run.ts";
import type { SkipRecord } from "./_optional.ts";

const OPTIONAL = new URL("./_optional.ts", import.meta.url).href;

const PROBE_FILE = `
import { optionalTest, reference } from ${JSON.stringify(OPTIONAL)};
const absent = reference("frobnicator", "apt-get install frobnicator", () => "frobnicator is not installed");
const present = reference("deno", "nothing", () => null);
const unreachable = reference("runtime", "set RUNTIME_BIN", () => "no runtime here", false);
optionalTest(absent, { name: "needs the frobnicator", fn() {} });
optionalTest(present, { name: "needs deno", fn() {} });
optionalTest(unreachable, { name: "needs a runtime", fn() {} });
`;

async function runProbe(env: Record<string, string>): Promise<{ out: string; code: number }> {
  const dir = await Deno.makeTempDir({ prefix: "optional-test-" });
  try {
    await Deno.writeTextFile(join(dir, "probe_test.ts"), PROBE_FILE);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["test", "--allow-all", "--no-config", "probe_test.ts"],
      cwd: dir,
      // The probe's skips must not land in the log of the run that runs this test.
      env: { NO_COLOR: "1", TEST_SKIP_LOG: "", ...env },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    return { out: text, code: out.code };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a missing reference skips its test under a name that says why, and logs it", async () => {
  const log = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    const { out, code } = await runProbe({ TEST_SKIP_LOG: log, REFERENCE_TESTS: "" });
    assert.equal(code, 0, out);
    assert.match(
      out,
      /needs the frobnicator \[skipped: frobnicator is not installed; apt-get install frobnicator\] \.\.\. ignored/,
    );
    assert.match(out, /needs deno \.\.\. ok/);
    assert.match(
      out,
      /needs a runtime \[skipped: no runtime here; set RUNTIME_BIN\] \.\.\. ignored/,
    );
    const records = (await Deno.readTextFile(log)).trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(records.map((r) => r.reference).sort(), ["frobnicator", "runtime"]);
  } finally {
    await Deno.remove(log);
  }
});

Deno.test("REFERENCE_TESTS=required fails a test whose reference is missing", async () => {
  const { out, code } = await runProbe({ REFERENCE_TESTS: "required" });
  assert.notEqual(code, 0, out);
  assert.match(
    out,
    /needs the frobnicator \[required, but frobnicator is not installed; apt-get install frobnicator\] \.\.\. FAILED/,
  );
  assert.match(out, /REFERENCE_TESTS=required and this reference test cannot run/);
  assert.match(out, /needs a runtime \[skipped: no runtime here; set RUNTIME_BIN\] \.\.\. ignored/);
  assert.match(out, /1 passed \| 1 failed \| 1 ignored/);
});

Deno.test("the closing lines: JUnit counts without steps, one line listing the skips", () => {
  const junit = `<testsuites><testsuite name="./a_test.ts">
    <testcase name="a" classname="./a_test.ts"></testcase>
    <testcase name="b [skipped: x]" classname="./a_test.ts"><skipped/></testcase>
    <testcase name="c" classname="./a_test.ts"><failure message="x">boom</failure></testcase>
    <testcase name="c &gt; step" classname="./a_test.ts"></testcase>
    <testcase name="a" classname="./b_test.ts"></testcase>
  </testsuite></testsuites>`;
  assert.deepEqual(countJunit(junit), { passed: 2, failed: 1, skipped: 1 });
  const records: SkipRecord[] = [
    {
      test: "t1 [skipped]",
      reference: "zeep",
      missing: "no zeep",
      enable: "apt z",
      requiredInCi: true,
    },
    {
      test: "t2 [skipped]",
      reference: "Axis",
      missing: "no axis",
      enable: "apt a",
      requiredInCi: true,
    },
    {
      test: "t3 [skipped]",
      reference: "Axis",
      missing: "no axis",
      enable: "apt a",
      requiredInCi: true,
    },
  ];
  assert.equal(
    skipSummary(records),
    "Skipped reference tests: 3 — Axis x2 (no axis; apt a), " +
      "zeep x1 (no zeep; apt z). REFERENCE_TESTS=required turns these skips into failures.",
  );
  const runtimeOnly: SkipRecord = { ...records[0], reference: "runtime", requiredInCi: false };
  assert.equal(
    skipSummary([runtimeOnly]),
    "Skipped reference tests: 1 — runtime x1 (no zeep; apt z).",
  );
  assert.equal(skipSummary([]), "Skipped reference tests: none.");
});
