"""OWSLib reads the WFS in 1.1.0 and 2.0.0 (run by tests/ogc_wfs_clients_test.ts).

argv: the WFSServer URL. Prints one JSON object: per version the feature
types, their CRSs and the operations OWSLib sees, the GeoJSON of a BBOX
GetFeature (30..40 E, 50..60 N, given in OWSLib's x,y order) and of a
filtered one (owslib.fes for 1.1.0 by GET, owslib.fes2 for 2.0.0 by POST);
and the exception OWSLib raises for an unknown feature type.
"""
import json
import sys

from owslib.fes import FilterRequest, PropertyIsGreaterThan as Gt11
from owslib.fes2 import And, Filter, PropertyIsGreaterThan, PropertyIsLike
from owslib.wfs import WebFeatureService

url = sys.argv[1]
POINTS = "Recruitment:Конкурсы"
out = {}
for version in ["1.1.0", "2.0.0"]:
    wfs = WebFeatureService(url, version=version)
    t = wfs.contents[POINTS]
    r = {
        "types": sorted(wfs.contents),
        "title": t.title,
        "crs": [c.getcode() for c in t.crsOptions],
        "wgs84": list(t.boundingBoxWGS84),
        "operations": [o.name for o in wfs.operations],
        "schema": sorted(wfs.get_schema(POINTS)["properties"]),
    }
    got = wfs.getfeature(typename=[POINTS], bbox=(30, 50, 40, 60, "EPSG:4326"),
                         outputFormat="application/json")
    r["bbox"] = json.loads(got.read())
    if version == "1.1.0":
        xml = FilterRequest().setConstraint(
            Gt11(propertyname="agency_id", literal="20"), tostring=True).decode()
        got = wfs.getfeature(typename=[POINTS], filter=xml, outputFormat="application/json")
    else:
        flt = Filter(And([
            PropertyIsGreaterThan(propertyname="agency_id", literal="20"),
            PropertyIsLike(propertyname="agency", literal="*служба*", wildCard="*"),
        ])).toXML()
        got = wfs.getfeature(typename=[POINTS], filter=flt, outputFormat="application/json",
                             method="POST")
    r["filter"] = json.loads(got.read())
    try:
        wfs.getfeature(typename=["Recruitment:nope"], maxfeatures=1)
        r["error"] = None
    except Exception as e:  # noqa: BLE001 - the message is the result
        r["error"] = str(e)
    out[version] = r
print(json.dumps(out, ensure_ascii=False))
