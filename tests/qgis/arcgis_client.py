"""QGIS 3.22's ArcGIS REST providers read one MapServer (run by tests/rest_qgis_test.ts).

argv: the MapServer URL, a folder for the rendered PNGs. Prints one JSON
object: what QGIS read (features, rendered images, identify results).
"""
import json
import sys

from qgis.core import (QgsApplication, QgsMapRendererSequentialJob, QgsMapSettings,
                       QgsPointXY, QgsRaster, QgsRasterLayer, QgsRectangle, QgsVectorLayer,
                       QgsCoordinateReferenceSystem)
from qgis.PyQt.QtCore import QSize
from qgis.PyQt.QtGui import QColor

from _qgis_values import plain

service, out_dir = sys.argv[1], sys.argv[2]
QgsApplication.setPrefixPath("/usr", True)
app = QgsApplication([], False)
app.initQgis()
EXTENT = QgsRectangle(20, 40, 60, 70)
SIZE = QSize(400, 300)


def vector(layer_id):
    vl = QgsVectorLayer(f"crs='EPSG:4326' url='{service}/{layer_id}'", f"v{layer_id}",
                        "arcgisfeatureserver")
    if not vl.isValid():
        return {"valid": False}
    feats = [{f.name(): plain(feat[f.name()]) for f in vl.fields()} for feat in vl.getFeatures()]
    return {"valid": True, "count": vl.featureCount(), "fields": vl.fields().names(),
            "features": feats, "wkb": vl.wkbType()}


def raster(layer):
    uri = f"crs='EPSG:4326' format='PNG32' layer='{layer}' url='{service}'"
    rl = QgsRasterLayer(uri, f"r{layer}", "arcgismapserver")
    return rl


def render(rl, name):
    settings = QgsMapSettings()
    settings.setLayers([rl])
    settings.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
    settings.setExtent(EXTENT)
    settings.setOutputSize(SIZE)
    settings.setBackgroundColor(QColor(255, 255, 255, 0))
    job = QgsMapRendererSequentialJob(settings)
    job.start()
    job.waitForFinished()
    path = f"{out_dir}/{name}.png"
    job.renderedImage().save(path, "PNG")
    return {"path": path, "errors": [e.message for e in job.errors()],
            "extent": settings.visibleExtent().toString(6)}


out = {"cities": vector(0), "regions": vector(1)}
images = {}
for name, layer in (("service", ""), ("cities", "0"), ("regions", "1")):
    rl = raster(layer)
    images[name] = {"valid": rl.isValid()}
    if rl.isValid():
        images[name].update(render(rl, name))
out["images"] = images

rl = raster("")
ident = []
if rl.isValid():
    res = rl.dataProvider().identify(QgsPointXY(37.6173, 55.7558), QgsRaster.IdentifyFormatFeature,
                                     EXTENT, SIZE.width(), SIZE.height())
    out["identifyValid"] = res.isValid()
    out["identifyError"] = res.error().summary() if not res.isValid() else ""
    for key, value in (res.results() or {}).items():
        for store in value if isinstance(value, list) else [value]:
            for feat in store.features() if hasattr(store, "features") else []:
                ident.append({"layer": store.params().get("sublayer", key) if hasattr(store, "params") else key,
                              "attributes": {f.name(): plain(feat[f.name()]) for f in feat.fields()}})
out["identify"] = ident
print(json.dumps(out, ensure_ascii=False))
app.exitQgis()
