import assert from "node:assert/strict";
import {
  LabelSpecSchema,
  pickSymbol,
  rendererClasses,
  rendererReachPt,
  RendererSpecSchema,
} from "./renderer.ts";

const red = { type: "simple-fill", color: [255, 0, 0] };
const blue = { type: "simple-fill", style: "hollow", color: [0, 0, 255, 128] };

Deno.test("colours without alpha become opaque, hollow/null fills become none", () => {
  const r = RendererSpecSchema.parse({ type: "simple", symbol: blue });
  assert.equal(r.type, "simple");
  if (r.type !== "simple" || r.symbol.type !== "simple-fill") throw new Error("shape");
  assert.deepEqual(r.symbol.color, [0, 0, 255, 128]);
  assert.equal(r.symbol.style, "none");
  assert.equal(r.transparency, 0);
  const s = RendererSpecSchema.parse({ type: "simple", symbol: red });
  assert.deepEqual(s.type === "simple" && s.symbol.color, [255, 0, 0, 255]);
});

Deno.test("bad documents are rejected", () => {
  assert.throws(() => RendererSpecSchema.parse({ type: "simple", symbol: { type: "bogus" } }));
  assert.throws(() =>
    RendererSpecSchema.parse({ type: "simple", symbol: { ...red, color: [300, 0, 0] } })
  );
  assert.throws(() =>
    RendererSpecSchema.parse({ type: "classBreaks", field: "n", minValue: 0, breaks: [] })
  );
  assert.throws(() => LabelSpecSchema.parse({ field: "" }));
});

Deno.test("unique values match across string/number and fall back to the default", () => {
  const r = RendererSpecSchema.parse({
    type: "uniqueValue",
    field: "kind",
    values: [{ value: 1, label: "One", symbol: red }],
    default: { label: "Other", symbol: blue },
  });
  assert.deepEqual(pickSymbol(r, { kind: "1" }), rendererClasses(r)[0].symbol);
  assert.equal(pickSymbol(r, { kind: 2 }), rendererClasses(r)[1].symbol);
  assert.deepEqual(rendererClasses(r).map((c) => c.label), ["One", "Other"]);
  const noDefault = RendererSpecSchema.parse({ ...r, default: undefined });
  assert.equal(pickSymbol(noDefault, { kind: 2 }), null);
});

Deno.test("class breaks: inclusive upper bounds, below minValue and nulls get no symbol", () => {
  const r = RendererSpecSchema.parse({
    type: "classBreaks",
    field: "n",
    minValue: 0,
    breaks: [
      { max: 10, symbol: red },
      { max: 20, symbol: blue },
    ],
  });
  const [a, b] = rendererClasses(r);
  assert.equal(pickSymbol(r, { n: 0 }), a.symbol);
  assert.equal(pickSymbol(r, { n: 10 }), a.symbol);
  assert.equal(pickSymbol(r, { n: 10.5 }), b.symbol);
  assert.equal(pickSymbol(r, { n: 21 }), null);
  assert.equal(pickSymbol(r, { n: -1 }), null);
  assert.equal(pickSymbol(r, { n: null }), null);
  assert.deepEqual([a.label, b.label], ["0 - 10", "10 - 20"]);
});

Deno.test("symbol reach covers marker radius and outline", () => {
  const r = RendererSpecSchema.parse({
    type: "simple",
    symbol: {
      type: "simple-marker",
      color: [0, 0, 0],
      size: 10,
      outline: { color: [0, 0, 0], width: 2 },
    },
  });
  assert.equal(rendererReachPt(r), 6);
});
