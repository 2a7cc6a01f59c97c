"""QGIS's WFS provider reads one WFSServer (run by tests/ogc_wfs_clients_test.ts).

argv: the WFSServer URL. Prints one JSON object: per WFS version (1.1.0,
2.0.0) whether QGIS accepted the Конкурсы layer, its CRS, feature count and
fields, the ids of the features QGIS reads inside a rectangle (30..40 E,
50..60 N: its own BBOX request), and the ids through a subset string (which
the provider turns into an FES filter); and the Страны layer's count.
"""
import json
import os
import sys

from qgis.core import QgsApplication, QgsFeatureRequest, QgsRectangle, QgsVectorLayer

url = sys.argv[1]
QgsApplication.setPrefixPath("/usr", True)
app = QgsApplication([], False)
app.initQgis()


def ids(vl, request=None):
    return sorted(f["id"] for f in vl.getFeatures(request or QgsFeatureRequest()))


def layer(version, type_name):
    uri = (f"url='{url}' typename='{type_name}' version='{version}' "
           "restrictToRequestBBOX='1' pagingEnabled='true'")
    return QgsVectorLayer(uri, f"wfs{version}", "WFS")


out = {}
for version in ["1.1.0", "2.0.0"]:
    vl = layer(version, "Recruitment:Конкурсы")
    if not vl.isValid():
        out[version] = {"valid": False, "error": vl.error().summary()}
        continue
    r = {
        "valid": True,
        "crs": vl.crs().authid(),
        "fields": vl.fields().names(),
        "count": len(ids(vl)),
        "inRect": ids(vl, QgsFeatureRequest(QgsRectangle(30, 50, 40, 60))),
    }
    sub = layer(version, "Recruitment:Конкурсы")
    sub.setSubsetString("agency_id > 20")
    r["subset"] = ids(sub)
    countries = layer(version, "Recruitment:Страны")
    r["countries"] = len(ids(countries)) if countries.isValid() else None
    out[version] = r
print(json.dumps(out, ensure_ascii=False), flush=True)
# Tearing QGIS down with layers alive crashes 3.22 on exit; the answer is already written.
os._exit(0)
