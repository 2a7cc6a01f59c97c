/**
 * Our WSDLs against Esri's reference WSDLs: same operations (every one of
 * ours exists there with the same request/response elements), same type
 * definitions field for field; served with an absolute address; and the
 * catalog operations over HTTP.
 */
import { createSoapFace, WSDL_CACHE_MAX } from "../map/soap/server.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { ESRI_REFERENCE, esriReferenceDir, optionalTest } from "./_optional.ts";
import { parseXml, type XmlElement } from "../map/soap/xml.ts";
import { MAPSERVER_SCHEMA } from "../map/soap/types.ts";
import { CATALOG_HANDLERS, CATALOG_SCHEMA } from "../map/soap/catalog.ts";
import { MAPSERVER_HANDLERS } from "../map/soap/handlers.ts";
import type { Schema } from "../map/soap/schema.ts";
import {
  assertSchemaValid,
  faultOf,
  memoryService,
  NS,
  operationEnvelope,
  postSoap,
  startMapServices,
} from "./_soap_helpers.ts";

const SPEC_OPERATIONS = [
  "GetDocumentInfo",
  "GetMapCount",
  "GetMapName",
  "GetDefaultMapName",
  "GetServerInfo",
  "GetSupportedImageReturnTypes",
  "IsFixedScaleMap",
  "GetSQLSyntaxInfo",
  "GetServiceConfigurationInfo",
  "ExportMapImage",
  "ExportScaleBar",
  "GetLegendInfo",
  "GetLegendInfo2",
  "Find",
  "Identify",
  "QueryFeatureCount",
  "QueryFeatureIDs",
  "QueryFeatureData",
  "QueryFeatureCount2",
  "QueryFeatureIDs2",
  "QueryFeatureData2",
  "QueryHyperlinks",
  "ComputeScale",
  "ComputeDistance",
  "ToMapPoints",
  "FromMapPoints",
  "HasSingleFusedMapCache",
  "GetTileCacheInfo",
  "GetMapTile",
  "HasLayerCache",
  "GetLayerTile",
  "GetVirtualCacheDirectory",
  "GetCacheName",
  "GetTileImageInfo",
  "GetCacheControlInfo",
];

const attr = (e: XmlElement, n: string) => e.attrs.find((a) => a.local === n)?.value;
const local = (v?: string) => v?.replace(/^.*:/, "");
const kids = (e: XmlElement, n: string) => e.children.filter((c) => c.local === n);

/** Normalised description of a WSDL's schema: type -> "base|abstract|members", element -> members. */
function describeWsdl(
  text: string,
): { types: Map<string, string>; elements: Map<string, string>; ops: string[] } {
  const root = parseXml(text, { allAttributes: true });
  const schema = kids(kids(root, "types")[0], "schema")[0];
  const member = (e: XmlElement) =>
    `${attr(e, "name")}:${local(attr(e, "type"))}${attr(e, "minOccurs") === "0" ? "?" : ""}${
      attr(e, "maxOccurs") ? "*" : ""
    }${attr(e, "nillable") === "true" ? "~" : ""}${
      attr(e, "default") ? "=" + attr(e, "default") : ""
    }`;
  const seqOf = (ct: XmlElement): [string, XmlElement[]] => {
    const cc = kids(ct, "complexContent")[0];
    const holder = cc ? kids(cc, "extension")[0] : ct;
    const seq = kids(holder, "sequence")[0];
    return [cc ? local(attr(holder, "base"))! : "", seq ? kids(seq, "element") : []];
  };
  const types = new Map<string, string>();
  for (const t of schema.children) {
    if (t.local === "complexType") {
      const [base, els] = seqOf(t);
      types.set(
        attr(t, "name")!,
        `${base}|${attr(t, "abstract") === "true"}|${els.map(member).join(" ")}`,
      );
    } else if (t.local === "simpleType") {
      const values = kids(kids(t, "restriction")[0], "enumeration").map((e) => attr(e, "value"));
      types.set(attr(t, "name")!, `enum|${values.join(" ")}`);
    }
  }
  const elements = new Map<string, string>();
  for (const e of kids(schema, "element")) {
    const ct = kids(e, "complexType")[0];
    elements.set(attr(e, "name")!, seqOf(ct)[1].map(member).join(" "));
  }
  const ops = kids(kids(root, "portType")[0], "operation").map((o) => attr(o, "name")!);
  return { types, elements, ops };
}

async function reference(file: string): Promise<ReturnType<typeof describeWsdl>> {
  const dir = esriReferenceDir();
  if (!dir) throw new Error("ESRI_REFERENCE_DIR is not set"); // optionalTest skips first
  const text = await Deno.readTextFile(join(dir, file));
  return describeWsdl(text.replaceAll("http://www.esri.com/schemas/ArcGIS/10.7", NS));
}

function compareWithReference(
  ours: ReturnType<typeof describeWsdl>,
  ref: ReturnType<typeof describeWsdl>,
): void {
  for (const op of ours.ops) {
    assert.ok(ref.ops.includes(op), `operation ${op} is not in the reference WSDL`);
    for (const el of [op, `${op}Response`]) {
      assert.equal(ours.elements.get(el), ref.elements.get(el), `element ${el}`);
    }
  }
  for (const [name, desc] of ours.types) {
    assert.ok(ref.types.has(name), `type ${name} is not in the reference WSDL`);
    assert.equal(desc, ref.types.get(name), `type ${name}`);
  }
}

/** Every type reachable from the schema's operations. */
function reachable(schema: Schema): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string) => {
    const t = schema.type(name);
    if (!t || seen.has(name)) return;
    seen.add(name);
    if (t.kind === "array") visit(t.itemType);
    if (t.kind === "complex") {
      if (t.base) visit(t.base);
      for (const e of t.elements) visit(e.type);
      for (const s of schema.subtypesOf(name)) visit(s);
    }
  };
  for (const op of schema.operations) {
    for (const e of [...op.request, ...op.response]) visit(e.type);
  }
  return seen;
}

/** Our WSDL as the server serves it. */
async function servedWsdl(path: string): Promise<string> {
  const server = startMapServices([memoryService("World")]);
  try {
    return await (await fetch(`${server.baseUrl}${path}`)).text();
  } finally {
    await server.close();
  }
}

optionalTest(ESRI_REFERENCE, {
  name: "MapServer WSDL: operations and types identical to Esri's 10.7 reference WSDL",
  async fn() {
    const ours = describeWsdl(await servedWsdl("/arcgis/services/World/MapServer?wsdl"));
    compareWithReference(ours, await reference("esri-MapServer-10.7.wsdl"));
  },
});

optionalTest(ESRI_REFERENCE, {
  name: "catalog WSDL: operations and types identical to Esri's 10.7 reference WSDL",
  async fn() {
    const ours = describeWsdl(await servedWsdl("/arcgis/services?wsdl"));
    const ref = await reference("esri-Catalog-10.7.wsdl");
    compareWithReference(ours, ref);
    assert.deepEqual([...ours.ops].sort(), [...ref.ops].sort());
  },
});

Deno.test("MapServer WSDL: 35 operations, every type reachable, ArcGIS's skeleton", async () => {
  const server = startMapServices([memoryService("World")]);
  try {
    const res = await fetch(`${server.serviceUrl("World")}?wsdl`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/xml; charset=utf-8");
    const text = await res.text();
    const ours = describeWsdl(text);
    assert.deepEqual([...ours.ops].sort(), [...SPEC_OPERATIONS].sort());
    // Every type in our table is reachable from an operation, and all of them are in the WSDL.
    const used = reachable(MAPSERVER_SCHEMA);
    for (const t of MAPSERVER_SCHEMA.types) assert.ok(used.has(t.name), `${t.name} is unreachable`);
    assert.equal(ours.types.size, MAPSERVER_SCHEMA.types.length);
    // Skeleton details clients depend on.
    assert.match(
      text,
      /<xs:schema targetNamespace="http:\/\/www\.esri\.com\/schemas\/ArcGIS\/10\.3"/,
    );
    assert.doesNotMatch(text, /elementFormDefault/);
    assert.match(
      text,
      /<message name="GetServerInfoIn">\s*<part name="parameters" element="e:GetServerInfo" \/>/,
    );
    assert.match(text, /<portType name="MapServerPort">/);
    assert.match(text, /<binding name="MapServerBinding" type="e:MapServerPort">/);
    assert.match(text, /<soap:operation soapAction="" style="document" \/>/);
    assert.match(
      text,
      /<service name="World_MapServer">\s*<port name="MapServerPort" binding="e:MapServerBinding">/,
    );
    const port = new URL(server.baseUrl).port;
    assert.match(
      text,
      new RegExp(
        `<soap:address location="http://127\\.0\\.0\\.1:${port}/arcgis/services/World/MapServer" />`,
      ),
    );
    // Tolerated spellings.
    for (const q of ["?WSDL", "?token=abc&wsdl", "?wsdl="]) {
      const r = await fetch(`${server.serviceUrl("World")}${q}`);
      assert.equal(r.status, 200, q);
      await r.body?.cancel();
    }
    const lower = await fetch(`${server.baseUrl}/arcgis/services/world/mapserver?wsdl`);
    assert.equal(lower.status, 200);
    assert.match(await lower.text(), /<service name="World_MapServer">/);
    const head = await fetch(`${server.serviceUrl("World")}?wsdl`, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("content-type"), "text/xml; charset=utf-8");
    assert.equal(await head.text(), "");
    const noWsdl = await fetch(server.serviceUrl("World"));
    assert.equal(noWsdl.status, 400);
    await noWsdl.body?.cancel();
  } finally {
    await server.close();
  }
});

Deno.test("every operation of both WSDLs has a handler", () => {
  assert.deepEqual(Object.keys(MAPSERVER_HANDLERS).sort(), [...SPEC_OPERATIONS].sort());
  assert.deepEqual(
    Object.keys(CATALOG_HANDLERS).sort(),
    CATALOG_SCHEMA.operations.map((o) => o.name).sort(),
  );
});

Deno.test("WSDL address uses the request's Host and writes the default port", async () => {
  const server = startMapServices([memoryService("World")]);
  try {
    const res = await fetch(`${server.serviceUrl("World")}?wsdl`);
    const text = await res.text();
    const wsdl = createSoapFace(server.maps).wsdl(
      "World",
      "https://maps.example.org/arcgis/services/World/MapServer",
    );
    assert.match(
      wsdl!,
      /location="https:\/\/maps\.example\.org:443\/arcgis\/services\/World\/MapServer"/,
    );
    assert.match(text, /location="http:\/\/127\.0\.0\.1:\d+\//);
  } finally {
    await server.close();
  }
});

Deno.test("WSDL documents kept: the most recently asked for, however many hosts ask", async () => {
  const server = startMapServices([memoryService("World")]);
  try {
    const face = createSoapFace(server.maps);
    const at = (host: string) => `https://${host}/arcgis/services/World/MapServer`;
    for (let i = 0; i < 3 * WSDL_CACHE_MAX; i++) {
      const wsdl = face.wsdl("World", at(`h${i}.example.org`));
      assert.match(wsdl!, new RegExp(`location="https://h${i}\\.example\\.org:443/`));
      face.catalogWsdl(`https://h${i}.example.org/arcgis/services`);
      assert.ok(face.wsdlsKept <= WSDL_CACHE_MAX, `${face.wsdlsKept} kept`);
    }
    assert.equal(face.wsdlsKept, WSDL_CACHE_MAX, "full, not started over");
  } finally {
    await server.close();
  }
});

Deno.test("catalog WSDL and operations: every operation, our services listed", async () => {
  const server = startMapServices([memoryService("World"), memoryService("Second")]);
  try {
    const res = await fetch(`${server.baseUrl}/arcgis/services?wsdl`);
    assert.equal(res.status, 200);
    const text = await res.text();
    const ours = describeWsdl(text);
    assert.deepEqual([...ours.ops].sort(), CATALOG_SCHEMA.operations.map((o) => o.name).sort());
    assert.equal(ours.types.size, CATALOG_SCHEMA.types.length);
    assert.match(text, /<service name="Catalog">\s*<port name="ServiceCatalogPort"/);

    const url = `${server.baseUrl}/arcgis/services`;
    const catalogCheck = (xml: string) => assertSchemaValid(xml, { service: "Catalog" });
    const version = await postSoap(url, operationEnvelope("GetMessageVersion"));
    assert.match(version.text, /<MessageVersion>esriArcGISVersion103<\/MessageVersion>/);
    await catalogCheck(version.text);
    const formats = await postSoap(url, operationEnvelope("GetMessageFormats"));
    assert.match(
      formats.text,
      /<MessageFormats>esriServiceCatalogMessageFormatSoap<\/MessageFormats>/,
    );
    await catalogCheck(formats.text);
    const folders = await postSoap(url, operationEnvelope("GetFolders"));
    assert.match(folders.text, /<FolderNames xsi:type="tns:ArrayOfString"\/>/);
    await catalogCheck(folders.text);
    const services = await postSoap(url, operationEnvelope("GetServiceDescriptions"));
    assert.equal(services.status, 200);
    await catalogCheck(services.text);
    const names = [...services.text.matchAll(/<Name>([^<]*)<\/Name>/g)].map((m) => m[1]);
    assert.deepEqual(names, ["World", "Second"]);
    assert.match(
      services.text,
      new RegExp(
        `<Url>${server.baseUrl.replaceAll(".", "\\.")}/arcgis/services/Second/MapServer</Url>`,
      ),
    );
    assert.match(services.text, /<Type>MapServer<\/Type>/);
    const ex = await postSoap(url, operationEnvelope("GetServiceDescriptionsEx", "<FolderName/>"));
    assert.equal([...ex.text.matchAll(/<ServiceDescription /g)].length, 2);
    const badFolder = await postSoap(
      url,
      operationEnvelope("GetServiceDescriptionsEx", "<FolderName>x</FolderName>"),
    );
    assert.equal(badFolder.status, 500);
    assert.match(faultOf(badFolder.text)!.message, /Folder "x" does not exist/);
    const tokens = await postSoap(url, operationEnvelope("RequiresTokens"));
    assert.match(tokens.text, /<Result>false<\/Result>/);
    await catalogCheck(tokens.text);
  } finally {
    await server.close();
  }
});
