/**
 * Interoperability with Java SOAP toolkits generated from our WSDL URL:
 * Apache Axis 1.4 (WSDL2Java; Debian libaxis-java) and the JAX-WS RI
 * (wsimport + JAXB, strict about element order; Debian libjaxws-java).
 * Each generates stubs, compiles them with javac and calls metadata, query
 * and coordinate operations and a Fault. Skipped when the toolkit is absent.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadTestService, startMapServices } from "./_soap_helpers.ts";
import { JAVA_JARS, javaReference, optionalTest } from "./_optional.ts";

const AXIS_JARS = [
  "axis",
  "axis-jaxrpc",
  "axis-saaj",
  "commons-logging",
  "commons-discovery",
  "wsdl4j",
  "javax.activation",
];
const JAXWS_JARS = [
  "jaxws-tools",
  "jaxws-rt",
  "jaxws-api",
  "jaxb-api",
  "jaxb-xjc",
  "jaxb-runtime",
  "jaxb-core",
  "jaxb-impl",
  "istack-commons-runtime",
  "istack-commons-tools",
  "javax.activation",
  "saaj",
  "saaj-impl",
  "stax-ex",
  "streambuffer",
  "metro-policy",
  "gmbal",
  "mimepull",
  "codemodel",
  "xsom",
  "rngom",
  "dtd-parser",
  "txw2",
  "jws-api",
  "glassfish-management-api",
];
const AXIS = javaReference("Axis", "libaxis-java", AXIS_JARS);
const JAXWS = javaReference("JAX-WS", "libjaxws-java", JAXWS_JARS);
const classpath = (jars: string[]) => jars.map((n) => join(JAVA_JARS, `${n}.jar`)).join(":");

async function run(cmd: string, args: string[], cwd: string): Promise<string> {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.ok(out.success, `${cmd} failed:\n${new TextDecoder().decode(out.stderr)}\n${text}`);
  return text;
}

async function javaSources(dir: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (d: string) => {
    for await (const e of Deno.readDir(d)) {
      if (e.isDirectory) await walk(join(d, e.name));
      else if (e.name.endsWith(".java")) files.push(join(d, e.name));
    }
  };
  await walk(dir);
  return files;
}

/** Generates stubs with `generate`, compiles them with `main`, runs it; returns its output lines. */
async function exercise(
  cp: string,
  generate: (wsdl: string, src: string) => string[],
  main: string,
): Promise<Map<string, string>> {
  const service = await loadTestService("Test");
  const server = startMapServices([service]);
  const dir = await Deno.makeTempDir({ prefix: "soap-java-" });
  try {
    const src = join(dir, "src"), cls = join(dir, "cls");
    await Deno.mkdir(src);
    await Deno.mkdir(cls);
    await run("java", ["-cp", cp, ...generate(`${server.serviceUrl("Test")}?wsdl`, src)], dir);
    await Deno.writeTextFile(join(src, "Main.java"), main);
    await run("javac", [
      "-nowarn",
      "-encoding",
      "UTF-8",
      "-cp",
      cp,
      "-d",
      cls,
      ...await javaSources(src),
    ], dir);
    const out = await run("java", ["-cp", `${cp}:${cls}`, "Main"], dir);
    return new Map(
      out.split("\n").filter((l) => l.includes("=")).map((
        l,
      ) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    );
  } finally {
    await server.close();
    service.close();
    await Deno.remove(dir, { recursive: true });
  }
}

function assertCommon(r: Map<string, string>): void {
  assert.equal(r.get("count"), "2");
  assert.equal(r.get("sr"), "ProjectedCoordinateSystem 102100 3857");
  assert.equal(r.get("fields"), "OBJECTID,Shape,NAME");
  assert.equal(r.get("alias"), "Name");
  // Initial extent 30..60 x 50..60 on 400x300 px at 96 dpi, widened to the aspect ratio.
  const scale = Math.max(30 / 400, 10 / 300) * 111319.49079327358 * 96 * 39.37;
  assert.ok(Math.abs(Number(r.get("scale")) - scale) < 1e-3, r.get("scale"));
  assert.equal(r.get("records"), "2 1 PointN Moscow");
  assert.equal(r.get("maxrecords"), "500");
  assert.equal(
    r.get("fault"),
    "Index 9 is out of range: this service has 2 map(s), indexes 0 to 1.",
  );
}

optionalTest(AXIS, {
  name: "Apache Axis 1.4 stubs from our WSDL call the service",
  async fn() {
    const r = await exercise(
      classpath(AXIS_JARS),
      (wsdl, src) => ["org.apache.axis.wsdl.WSDL2Java", "-o", src, wsdl],
      `import com.esri.www.schemas.ArcGIS._10_3.*;
public class Main {
  public static void main(String[] a) throws Exception {
    MapServerPort p = new Test_MapServerLocator().getMapServerPort();
    System.out.println("count=" + p.getMapCount());
    MapServerInfo merc = p.getServerInfo("Mercator");
    SpatialReference sr = merc.getSpatialReference();
    System.out.println("sr=" + sr.getClass().getSimpleName() + " " + sr.getWKID() + " " + sr.getLatestWKID());
    MapServerInfo info = p.getServerInfo("Layers");
    Field[] fs = info.getMapLayerInfos()[0].getFields().getFieldArray();
    StringBuilder names = new StringBuilder();
    for (Field f : fs) names.append(names.length() > 0 ? "," : "").append(f.getName());
    System.out.println("fields=" + names);
    System.out.println("alias=" + fs[2].getAliasName());
    ImageDisplay d = new ImageDisplay(); d.setImageWidth(400); d.setImageHeight(300); d.setImageDPI(96);
    System.out.println("scale=" + p.computeScale(info.getDefaultMapDescription(), d));
    QueryFilter qf = new QueryFilter(); qf.setWhereClause("OBJECTID > 0");
    RecordSet rs = p.queryFeatureData("Layers", 0, qf);
    Object[] v = rs.getRecords()[0].getValues();
    System.out.println("records=" + rs.getRecords().length + " " + v[0] + " " + v[1].getClass().getSimpleName() + " " + v[2]);
    for (PropertySetProperty pp : p.getServiceConfigurationInfo().getPropertyArray())
      if (pp.getKey().equals("MaximumRecordCount")) System.out.println("maxrecords=" + pp.getValue());
    try { p.getMapName(9); } catch (org.apache.axis.AxisFault f) { System.out.println("fault=" + f.getFaultString()); }
  }
}
`,
    );
    assertCommon(r);
  },
});

optionalTest(JAXWS, {
  name: "JAX-WS RI (wsimport/JAXB) stubs from our WSDL call the service",
  async fn() {
    const r = await exercise(
      classpath(JAXWS_JARS),
      (
        wsdl,
        src,
      ) => ["com.sun.tools.ws.WsImport", "-Xnocompile", "-s", src, "-d", src, "-p", "gen", wsdl],
      `import gen.*;
import javax.xml.bind.JAXBElement;
public class Main {
  public static void main(String[] a) throws Exception {
    MapServerPort p = new TestMapServer().getMapServerPort();
    System.out.println("count=" + p.getMapCount());
    SpatialReference sr = p.getServerInfo("Mercator").getSpatialReference();
    System.out.println("sr=" + sr.getClass().getSimpleName() + " " + sr.getWKID() + " " + sr.getLatestWKID());
    MapServerInfo info = p.getServerInfo("Layers");
    java.util.List<Field> fs = info.getMapLayerInfos().getMapLayerInfo().get(0).getFields().getFieldArray().getField();
    StringBuilder names = new StringBuilder();
    for (Field f : fs) names.append(names.length() > 0 ? "," : "").append(f.getName());
    System.out.println("fields=" + names);
    System.out.println("alias=" + fs.get(2).getAliasName());
    ImageDisplay d = new ImageDisplay(); d.setImageWidth(400); d.setImageHeight(300); d.setImageDPI(96);
    System.out.println("scale=" + p.computeScale(info.getDefaultMapDescription(), d));
    QueryFilter qf = new QueryFilter(); qf.setWhereClause("OBJECTID > 0");
    RecordSet rs = p.queryFeatureData("Layers", 0, qf);
    java.util.List<Object> v = rs.getRecords().getRecord().get(0).getValues().getValue();
    System.out.println("records=" + rs.getRecords().getRecord().size() + " " + v.get(0) + " " + v.get(1).getClass().getSimpleName() + " " + v.get(2));
    for (PropertySetProperty pp : p.getServiceConfigurationInfo().getPropertyArray().getPropertySetProperty())
      if (pp.getKey().equals("MaximumRecordCount")) System.out.println("maxrecords=" + ((JAXBElement<?>) pp.getValue()).getValue());
    try { p.getMapName(9); } catch (javax.xml.ws.soap.SOAPFaultException f) { System.out.println("fault=" + f.getFault().getFaultString()); }
  }
}
`,
    );
    assertCommon(r);
  },
});
