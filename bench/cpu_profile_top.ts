/**
 * Summarises a V8 `.cpuprofile` (from `deno run --cpu-prof`): the functions
 * with the most self time, and the share of idle time, as a Markdown table.
 *
 * ```
 * deno run -A bench/cpu_profile_top.ts FILE.cpuprofile [--top 20]
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  args: Deno.args,
  options: { top: { type: "string", default: "20" } },
  allowPositionals: true,
});
if (positionals.length !== 1) throw new Error("usage: cpu_profile_top.ts FILE.cpuprofile");
const profile = JSON.parse(await Deno.readTextFile(positionals[0])) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<string, number>();
let total = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const node = byId.get(profile.samples[i])!;
  const dt = profile.timeDeltas[i] ?? 0;
  total += dt;
  const f = node.callFrame;
  const where = f.url ? f.url.replace(/^.*\/(?=[^/]+\/[^/]+$)/, "") + ":" + (f.lineNumber + 1) : "";
  const key = `${f.functionName || "(anonymous)"} ${where}`.trim();
  self.set(key, (self.get(key) ?? 0) + dt);
}
const idle = self.get("(idle)") ?? 0;
const busy = total - idle;
const rows = [...self.entries()].filter(([k]) => k !== "(idle)")
  .sort((a, b) => b[1] - a[1]).slice(0, Number(values.top));
console.log(
  [
    `${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy ` +
    `(${((busy / total) * 100).toFixed(0)}%).`,
    "",
    "| self % of busy | self ms | function |",
    "| ---: | ---: | --- |",
    ...rows.map(([k, v]) =>
      `| ${((v / busy) * 100).toFixed(1)} | ${(v / 1000).toFixed(0)} | \`${k}\` |`
    ),
  ].join("\n"),
);
