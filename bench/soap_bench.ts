/**
 * In-process cost of the SOAP query operations (decode, query, encode; no
 * HTTP) on the 100,000-feature GeoPackage layer of `soap_load.ts`,
 * generated into `var/bench/soap/` on first use.
 *
 * ```
 * deno bench --allow-all bench/soap_bench.ts
 * ```
 *
 * @module
 */
import { createSoapFace } from "../map/soap/server.ts";
import { loadServices } from "../map/document/mod.ts";
import { createMapServer } from "../map/mod.ts";
import { DIR, ensureGeoPackage, envelope, SCENARIOS, writeDocument } from "./soap_load.ts";

const NS = "http://www.esri.com/schemas/ArcGIS/10.3";

ensureGeoPackage(`${DIR}/bench.gpkg`, 100_000);
writeDocument(`${DIR}/maps`);
// The document names ../bench.gpkg, beside the maps folder.
const services = await loadServices({ mapsDir: `${DIR}/maps`, allowPathsOutside: true });
const maps = createMapServer({ services, outputDir: `${DIR}/output` });
const soap = createSoapFace(maps);
const urls = { baseUrl: "http://127.0.0.1:8000" };

const EXTRA = [
  {
    name: "Identify (point, 3 px, 800x600)",
    body:
      `<e:Identify xmlns:e="${NS}"><MapDescription><Name>Layers</Name><MapArea xsi:type="e:MapExtent">` +
      `<Extent xsi:type="e:EnvelopeN"><XMin>60</XMin><YMin>55</YMin><XMax>62</XMax><YMax>56.5</YMax></Extent>` +
      `</MapArea></MapDescription><MapImageDisplay><ImageHeight>600</ImageHeight><ImageWidth>800</ImageWidth>` +
      `<ImageDPI>96</ImageDPI></MapImageDisplay><SearchShape xsi:type="e:PointN"><X>61</X><Y>55.7</Y>` +
      `</SearchShape><Tolerance>3</Tolerance><IdentifyOption>esriIdentifyAllLayers</IdentifyOption></e:Identify>`,
  },
  {
    name: "QueryFeatureIDs (all 100,000)",
    body:
      `<e:QueryFeatureIDs xmlns:e="${NS}"><MapName>Layers</MapName><LayerID>0</LayerID></e:QueryFeatureIDs>`,
  },
];

for (const s of [...SCENARIOS, ...EXTRA]) {
  const body = envelope(s.body);
  const first = await soap.soap("Bench", body, urls);
  if (first.status !== 200) throw new Error(`${s.name}: ${first.body.slice(0, 500)}`);
  Deno.bench(s.name, async () => {
    const r = await soap.soap("Bench", body, urls);
    if (r.status !== 200) throw new Error(r.body.slice(0, 200));
  });
}
