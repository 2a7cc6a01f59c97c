import assert from "node:assert/strict";
import { parseXml, XSI_NS } from "./xml.ts";
import { SoapFault } from "./fault.ts";

function assertFault(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof SoapFault, `expected SoapFault, got ${e}`);
    assert.equal(e.code, "Client");
    assert.match(e.message, pattern);
    return true;
  });
}

Deno.test("parseXml resolves prefixes, default namespaces and xmlns resets", () => {
  const root = parseXml(
    `<?xml version="1.0" encoding="utf-8"?>
     <!-- leading comment -->
     <s:Envelope xmlns:s="urn:env"><s:Body>
       <Op xmlns="urn:esri"><Child xmlns="">v<!-- c -->1</Child><q:Other xmlns:q="urn:esri"/></Op>
       <?pi data?>
     </s:Body></s:Envelope>`,
  );
  assert.equal(root.ns, "urn:env");
  assert.equal(root.local, "Envelope");
  const op = root.children[0].children[0];
  assert.deepEqual([op.ns, op.local], ["urn:esri", "Op"]);
  assert.deepEqual([op.children[0].ns, op.children[0].text], ["", "v1"]);
  assert.equal(op.children[1].ns, "urn:esri");
});

Deno.test("parseXml resolves xsi:type QNames and xsi:nil", () => {
  const root = parseXml(
    `<a xmlns:xsi="${XSI_NS}" xmlns:q1="urn:esri" xmlns="urn:def">
       <b xsi:type="q1:EnvelopeN"/><c xsi:type="PointN"/><d xsi:nil="true"/>
     </a>`,
  );
  assert.deepEqual(root.children[0].xsiType, { ns: "urn:esri", local: "EnvelopeN" });
  assert.deepEqual(root.children[1].xsiType, { ns: "urn:def", local: "PointN" });
  assert.equal(root.children[2].nil, true);
  assert.equal(root.children[0].nil, false);
});

Deno.test("parseXml expands predefined entities and character references only", () => {
  const root = parseXml(`<a>&lt;&amp;&gt;&quot;&apos;&#65;&#x42;<![CDATA[<x>]]></a>`);
  assert.equal(root.text, `<&>"'AB<x>`);
  assertFault(() => parseXml(`<a>&custom;</a>`), /not well-formed/);
});

Deno.test("parseXml refuses DTDs, entity bombs and XXE", () => {
  assertFault(
    () =>
      parseXml(
        `<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>`,
      ),
    /DOCTYPE/,
  );
  const lol = `<!DOCTYPE lolz [<!ENTITY lol "lol">` +
    Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ""};`.repeat(10)}">`)
      .join("") +
    `]><lolz>&lol9;</lolz>`;
  assertFault(() => parseXml(lol), /refused/);
  assertFault(() => parseXml(`<!doctype a><a/>`), /refused/);
});

Deno.test("parseXml enforces depth, element, attribute and size limits", () => {
  const deep = "<a>".repeat(65) + "</a>".repeat(65);
  assertFault(() => parseXml(deep), /deeper than 64/);
  assert.equal(parseXml("<a>".repeat(64) + "</a>".repeat(64)).local, "a");
  assertFault(
    () => parseXml("<r>" + "<e/>".repeat(11) + "</r>", { maxElements: 10 }),
    /more than 10 elements/,
  );
  assertFault(
    () => parseXml(`<a ${Array.from({ length: 70 }, (_, i) => `a${i}="1"`).join(" ")}/>`),
    /attributes/,
  );
  assertFault(
    () => parseXml("<a>" + "x".repeat(100) + "</a>", { maxLength: 50 }),
    /larger than the limit/,
  );
});

Deno.test("parseXml reports malformed XML as a client fault", () => {
  assertFault(() => parseXml("<a><b></a>"), /not well-formed/);
  assertFault(() => parseXml(""), /XML/);
  assertFault(() => parseXml("<p:a/>"), /not well-formed/);
  assertFault(
    () => parseXml(`<a xmlns:xsi="${XSI_NS}"><b xsi:type="zz:T"/></a>`),
    /undeclared namespace prefix/,
  );
});

Deno.test("parseXml keeps unqualified attributes only when asked", () => {
  const doc = `<a xmlns:xsi="${XSI_NS}" name="n" xsi:nil="false"/>`;
  assert.deepEqual(parseXml(doc).attrs.map((a) => a.local), ["nil"]);
  assert.deepEqual(
    parseXml(doc, { allAttributes: true }).attrs.map((a) => [a.ns, a.local, a.value]),
    [["", "name", "n"], [XSI_NS, "nil", "false"]],
  );
});
