import assert from "node:assert/strict";
import { axisOrder, CRS84, findCrs, layerCrsList, storageCrs } from "./_crs.ts";

Deno.test("crs: URIs, CURIEs and URNs name the offered CRSs; EPSG:4326 is latitude first", () => {
  const offered = layerCrsList(4326);
  assert.deepEqual(offered.map((c) => c.uri), [
    CRS84.uri,
    "http://www.opengis.net/def/crs/EPSG/0/4326",
    "http://www.opengis.net/def/crs/EPSG/0/3857",
  ]);
  for (
    const name of [
      "EPSG:3857",
      "[EPSG:3857]",
      "urn:ogc:def:crs:EPSG::3857",
      "https://www.opengis.net/def/crs/EPSG/0/3857",
      "EPSG:102100",
    ]
  ) {
    assert.equal(findCrs(offered, name)?.wkid, 3857, name);
  }
  assert.equal(findCrs(offered, "urn:ogc:def:crs:OGC:1.3:CRS84"), CRS84);
  assert.equal(
    findCrs(offered, "EPSG:32637"),
    undefined,
    "a UTM zone is offered only for layers stored in it",
  );
  assert.deepEqual(axisOrder(findCrs(offered, "EPSG:4326")!, [37.6, 55.7]), [55.7, 37.6]);
  assert.deepEqual(axisOrder(CRS84, [37.6, 55.7]), [37.6, 55.7]);
  assert.equal(storageCrs(102100).uri, "http://www.opengis.net/def/crs/EPSG/0/3857");
  const utm = layerCrsList(32637);
  assert.equal(utm.at(-1)?.uri, "http://www.opengis.net/def/crs/EPSG/0/32637");
  assert.equal(storageCrs(32637).latFirst, false);
});
