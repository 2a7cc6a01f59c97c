/**
 * The SOAP endpoint over real HTTP on 127.0.0.1: envelope styles real
 * clients write, dispatch on the Body (never SOAPAction), namespace echo,
 * every Fault case and the hostile inputs.
 */
import assert from "node:assert/strict";
import {
  assertSchemaValid,
  envelope,
  faultOf,
  memoryService,
  NS,
  operationEnvelope,
  postSoap,
  startMapServices,
} from "./_soap_helpers.ts";

const SOAP = "http://schemas.xmlsoap.org/soap/envelope/";

async function withServer(fn: (url: string, base: string) => Promise<void>): Promise<void> {
  const server = startMapServices([memoryService("Test")], { maxBodyBytes: 4 * 1024 * 1024 });
  try {
    await fn(server.serviceUrl("Test"), server.baseUrl);
  } finally {
    await server.close();
  }
}

async function expectFault(
  url: string,
  body: string,
  code: string,
  message: RegExp,
  status = 500,
): Promise<string> {
  const r = await postSoap(url, body, "");
  assert.equal(r.status, status, r.text);
  assert.equal(r.contentType, "text/xml; charset=utf-8");
  const f = faultOf(r.text);
  assert.ok(f, `not a fault: ${r.text.slice(0, 300)}`);
  assert.equal(f.code, `soap:${code}`);
  assert.match(f.message, message);
  return r.text;
}

Deno.test('accepts prefixed, default-namespace and .NET xmlns="" envelopes; ignores SOAPAction', async () => {
  await withServer(async (url) => {
    const bodies = [
      operationEnvelope("GetMapName", "<Index>1</Index>"),
      // .NET XmlSerializer style.
      envelope(`<GetMapName xmlns="${NS}"><Index xmlns="">1</Index></GetMapName>`),
      // Odd prefixes everywhere, comments, whitespace, a PI, CDATA.
      `<?xml version="1.0"?>\n<!-- c --><S:Envelope xmlns:S="${SOAP}">\n <S:Header/>\n <S:Body>` +
      `<zz:GetMapName xmlns:zz="${NS}"><!-- x --><Index> <![CDATA[1]]> </Index><?pi ?></zz:GetMapName>` +
      `</S:Body></S:Envelope>`,
      // Children qualified too (some toolkits do this).
      envelope(`<a:GetMapName xmlns:a="${NS}"><a:Index>1</a:Index></a:GetMapName>`),
    ];
    for (const [i, body] of bodies.entries()) {
      for (const action of [undefined, "", '"urn:GetMapCount"']) {
        const r = await postSoap(url, body, action);
        assert.equal(r.status, 200, `body ${i}: ${r.text}`);
        assert.match(
          r.text,
          /<tns:GetMapNameResponse><Result>Mercator<\/Result><\/tns:GetMapNameResponse>/,
        );
        assert.equal(r.contentType, "text/xml; charset=utf-8");
      }
      await assertSchemaValid((await postSoap(url, body)).text);
    }
    // Secured-style URLs (?token=...), a trailing slash and other letter cases reach the service too.
    for (const u of [`${url}?token=abc`, `${url}/`, url.replace("/MapServer", "/mapserver")]) {
      const r = await postSoap(u, bodies[0]);
      assert.equal(r.status, 200, u);
    }
  });
});

Deno.test("reads UTF-8 (with or without BOM) and UTF-16 bodies with a BOM", async () => {
  await withServer(async (url) => {
    const text = operationEnvelope("GetServerInfo", "<MapName>Mercator</MapName>").replace(
      /^<\?xml[^>]*\?>/,
      "",
    );
    const utf16 = new Uint8Array(2 + text.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) {
      utf16[2 + 2 * i] = text.charCodeAt(i) & 0xff;
      utf16[3 + 2 * i] = text.charCodeAt(i) >> 8;
    }
    const bom8 = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
    for (const body of [utf16, bom8]) {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "text/xml" },
        body,
      });
      const reply = await res.text();
      assert.equal(res.status, 200, reply);
      assert.match(reply, /<Name>Mercator<\/Name>/);
    }
  });
});

Deno.test("answers in the request's ArcGIS namespace version", async () => {
  await withServer(async (url) => {
    const ns107 = "http://www.esri.com/schemas/ArcGIS/10.7";
    const r = await postSoap(url, operationEnvelope("GetMapCount", "", ns107));
    assert.equal(r.status, 200);
    assert.match(r.text, new RegExp(`xmlns:tns="${ns107.replaceAll(".", "\\.")}"`));
    await assertSchemaValid(r.text, { ns: ns107 });
    const plain = await postSoap(url, envelope(`<GetMapCount/>`));
    assert.equal(plain.status, 200);
    assert.match(plain.text, /xmlns:tns="http:\/\/www\.esri\.com\/schemas\/ArcGIS\/10\.3"/);
    assert.match(plain.text, /<Result>2<\/Result>/);
  });
});

Deno.test("Fault: malformed XML, empty body, not an envelope, SOAP 1.2, foreign namespace", async () => {
  await withServer(async (url) => {
    await expectFault(url, "<soap:Envelope", "Client", /not well-formed XML/);
    await expectFault(url, "", "Client", /XML/);
    await expectFault(url, `<GetMapCount xmlns="${NS}"/>`, "Client", /must be a SOAP 1.1 Envelope/);
    await expectFault(
      url,
      `<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Body/></e:Envelope>`,
      "VersionMismatch",
      /SOAP 1.1/,
    );
    await expectFault(url, envelope(""), "Client", /Body is empty/);
    await expectFault(
      url,
      envelope(`<x:GetMapCount xmlns:x="urn:other"/>`),
      "Client",
      /namespace "urn:other"/,
    );
  });
});

Deno.test("Fault: unknown operation, wrong type, bad enum, unknown map, index out of range", async () => {
  await withServer(async (url) => {
    const unknown = await expectFault(
      url,
      operationEnvelope("GetEverything"),
      "Client",
      /Unknown operation "GetEverything".*GetServerInfo/,
    );
    assert.match(unknown, /<detail><e:FaultDetail xmlns:e="[^"]+"><e:Message>/);
    assert.match(unknown, /<e:Operation>GetEverything<\/e:Operation>/);
    await expectFault(
      url,
      operationEnvelope("GetMapName", "<Index>abc</Index>"),
      "Client",
      /GetMapName\/Index must be an integer.*"abc"/,
    );
    await expectFault(
      url,
      operationEnvelope("GetMapName", "<Index>5</Index>"),
      "Client",
      /Index 5 is out of range.*2 map/,
    );
    await expectFault(url, operationEnvelope("GetMapName"), "Client", /Index is required/);
    await expectFault(
      url,
      operationEnvelope("GetServerInfo", "<MapName>Nowhere</MapName>"),
      "Client",
      /Map "Nowhere" does not exist.*Layers, Mercator/,
    );
    await expectFault(
      url,
      operationEnvelope("GetSQLSyntaxInfo", "<MapName>Layers</MapName><LayerID>9</LayerID>"),
      "Client",
      /Layer 9 does not exist/,
    );
    await expectFault(
      url,
      operationEnvelope(
        "Find",
        "<SearchString>x</SearchString><FindOption>esriFindEverything</FindOption>",
      ),
      "Client",
      /Find\/FindOption must be one of esriFindVisibleLayers, esriFindAllLayers/,
    );
  });
});

Deno.test("Fault: mustUnderstand headers are refused, others ignored", async () => {
  await withServer(async (url) => {
    const withHeader = (mu: string) =>
      `<s:Envelope xmlns:s="${SOAP}"><s:Header><h:Token xmlns:h="urn:h" s:mustUnderstand="${mu}">t</h:Token>` +
      `</s:Header><s:Body><e:GetMapCount xmlns:e="${NS}"/></s:Body></s:Envelope>`;
    const f = await expectFault(url, withHeader("1"), "MustUnderstand", /urn:h\}Token/);
    assert.doesNotMatch(f, /<detail>/);
    const ok = await postSoap(url, withHeader("0"));
    assert.equal(ok.status, 200);
  });
});

Deno.test("Fault: unknown service on POST; 404 on GET", async () => {
  await withServer(async (_url, base) => {
    await expectFault(
      `${base}/arcgis/services/Nope/MapServer`,
      operationEnvelope("GetMapCount"),
      "Client",
      /Service "Nope" does not exist. Published services: Test/,
    );
    const r = await fetch(`${base}/arcgis/services/Nope/MapServer?wsdl`);
    assert.equal(r.status, 404);
    assert.match(await r.text(), /Nope/);
  });
});

Deno.test("hostile inputs: XXE, entity bomb, deep nesting, huge body, element flood -> Faults", async () => {
  await withServer(async (url) => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>` +
      operationEnvelope("GetMapName", "<Index>&x;</Index>").replace(/^<\?xml[^>]*\?>/, "");
    const xxeReply = await expectFault(url, xxe, "Client", /DOCTYPE/);
    assert.doesNotMatch(xxeReply, /root:/);
    let bomb = `<!DOCTYPE lolz [<!ENTITY l0 "lol">`;
    for (let i = 1; i < 10; i++) bomb += `<!ENTITY l${i} "${`&l${i - 1};`.repeat(10)}">`;
    bomb += `]>` +
      operationEnvelope("GetMapName", "<Index>&l9;</Index>").replace(/^<\?xml[^>]*\?>/, "");
    await expectFault(url, bomb, "Client", /refused/);
    await expectFault(url, `<a>&undefinedEntity;</a>`, "Client", /not well-formed/);
    const deep = operationEnvelope(
      "GetServerInfo",
      "<MapName>" + "<x>".repeat(10000) + "</x>".repeat(10000) + "</MapName>",
    );
    await expectFault(url, deep, "Client", /deeper than 64 levels/);
    // The test server's body limit is 4 MiB; over it is 413 (Request Content Too Large).
    const huge = operationEnvelope(
      "GetServerInfo",
      `<MapName>${"A".repeat(5 * 1024 * 1024)}</MapName>`,
    );
    await expectFault(url, huge, "Client", /larger than the limit of 4194304 bytes/, 413);
    // 1.2 MB of empty elements: under the size limit, over the element limit.
    const flood = operationEnvelope("GetMapCount", "<x/>".repeat(300_000));
    await expectFault(url, flood, "Client", /more than 250000 elements/);
    // Unknown extra elements under the limits are ignored.
    const extra = await postSoap(url, operationEnvelope("GetMapCount", "<x/>".repeat(1000)));
    assert.equal(extra.status, 200);
  });
});
