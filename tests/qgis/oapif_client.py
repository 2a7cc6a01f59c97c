"""QGIS 3.22's OAPIF provider reads one OGCFeatureServer (run by tests/ogc_features_clients_test.ts).

argv: the landing page URL. Prints one JSON object: for the Cities (0) and
Regions (1) collections, whether QGIS accepted the layer, its feature count,
fields, features (attributes, WKT in EPSG:4326), and the features QGIS reads
inside a rectangle (its own bbox request) and through a provider filter.
"""
import json
import os
import sys

from qgis.core import QgsApplication, QgsFeatureRequest, QgsRectangle, QgsVectorLayer

from _qgis_values import plain

landing = sys.argv[1]
QgsApplication.setPrefixPath("/usr", True)
app = QgsApplication([], False)
app.initQgis()


def features(vl, request=None):
    out = []
    for feat in vl.getFeatures(request or QgsFeatureRequest()):
        attrs = {f.name(): plain(feat[f.name()]) for f in vl.fields()}
        attrs["_wkt"] = feat.geometry().asWkt(4) if feat.hasGeometry() else None
        out.append(attrs)
    return out


def layer(type_name, extra=""):
    uri = f"url='{landing}' typename='{type_name}' restrictToRequestBBOX='1'{extra}"
    vl = QgsVectorLayer(uri, f"oapif{type_name}", "OAPIF")
    if not vl.isValid():
        return {"valid": False}
    return {
        "valid": True,
        "count": vl.featureCount(),
        "fields": vl.fields().names(),
        "crs": vl.crs().authid(),
        "features": features(vl),
        "inRect": sorted(f["OBJECTID"] if "OBJECTID" in f else f.get("fid")
                         for f in features(vl, QgsFeatureRequest(QgsRectangle(30, 50, 60, 60)))),
    }


out = {"cities": layer("0"), "regions": layer("1")}
filtered = QgsVectorLayer(f"url='{landing}' typename='0'", "filtered", "OAPIF")
if filtered.isValid():
    filtered.setSubsetString("POP > 1500000")
    out["filtered"] = sorted(f["OBJECTID"] for f in features(filtered))
print(json.dumps(out), flush=True)
# Tearing QGIS down with layers alive crashes 3.22 on exit; the answer is already written.
os._exit(0)
