"""QGIS reads our ArcGIS REST MapServer as a QGIS user would.

Run by tests/qgis_client_test.ts with Debian's python3 and PyQGIS, offscreen:
    _probe.py SPEC
SPEC is JSON: {"vectors": [layer URL, ...], "rasters": [{"url": MapServer URL,
"layer": id or "" for the whole service, "png": path}, ...], "extent": [xmin,
ymin, xmax, ymax] in EPSG:3857, "identify": {"url", "layer", "x", "y"} in
EPSG:4326}. Prints one JSON object on stdout: the vector layers' features
(ArcGIS FeatureServer provider), the PNG files the raster layers (ArcGIS
MapServer provider) were drawn into, and what identify found on the point.
"""
import json
import sys

from qgis.core import (
    QgsApplication,
    QgsCoordinateReferenceSystem,
    QgsMapRendererSequentialJob,
    QgsMapSettings,
    QgsPointXY,
    QgsRaster,
    QgsRasterLayer,
    QgsRectangle,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import QSize
from qgis.PyQt.QtGui import QColor


def value(v):
    """A QVariant-ish attribute as JSON: NULL as None, dates as ISO text."""
    if v is None or (hasattr(v, "isNull") and v.isNull()):
        return None
    if hasattr(v, "toString") and not isinstance(v, str):
        return v.toString("yyyy-MM-ddTHH:mm:ss") if hasattr(v, "date") else v.toString()
    return v


def vector(url):
    layer = QgsVectorLayer(f"crs='EPSG:4326' url='{url}'", "v", "arcgisfeatureserver")
    if not layer.isValid():
        return {"valid": False, "error": layer.error().summary()}
    fields = [f.name() for f in layer.fields()]
    features = []
    for f in layer.getFeatures():
        g = f.geometry()
        features.append({
            "attributes": {n: value(f[n]) for n in fields},
            "bbox": None if g.isNull() else [
                g.boundingBox().xMinimum(), g.boundingBox().yMinimum(),
                g.boundingBox().xMaximum(), g.boundingBox().yMaximum(),
            ],
        })
    return {
        "valid": True,
        "featureCount": layer.featureCount(),
        "fields": fields,
        "geometryType": layer.geometryType(),
        "features": features,
    }


def draw(layer, extent, path):
    settings = QgsMapSettings()
    settings.setLayers([layer])
    settings.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:3857"))
    settings.setBackgroundColor(QColor(255, 255, 255, 0))
    settings.setOutputSize(QSize(512, 384))
    settings.setExtent(extent)
    job = QgsMapRendererSequentialJob(settings)
    job.start()
    job.waitForFinished()
    errors = [f"{e.layerID}: {e.message}" for e in job.errors()]
    job.renderedImage().save(path, "PNG")
    return {"png": path, "errors": errors}


def raster(url, layer_id, extent, path):
    uri = f"crs='EPSG:3857' format='PNG32' layer='{layer_id}' url='{url}'"
    layer = QgsRasterLayer(uri, "r", "arcgismapserver")
    if not layer.isValid():
        return {"valid": False, "error": layer.error().summary()}
    out = {"valid": True, **draw(layer, extent, path)}
    return out


def identify(url, layer_id, x, y):
    uri = f"crs='EPSG:4326' format='PNG32' layer='{layer_id}' url='{url}'"
    layer = QgsRasterLayer(uri, "i", "arcgismapserver")
    if not layer.isValid():
        return {"valid": False, "error": layer.error().summary()}
    extent = QgsRectangle(x - 5, y - 5, x + 5, y + 5)
    result = layer.dataProvider().identify(
        QgsPointXY(x, y), QgsRaster.IdentifyFormatFeature, extent, 400, 400
    )
    if not result.isValid():
        return {"valid": True, "error": result.error().summary()}
    found = []
    for stores in result.results().values():
        for store in stores or []:
            for f in store.features():
                found.append({n.name(): value(f[n.name()]) for n in f.fields()})
    return {"valid": True, "features": found}


def main():
    spec = json.loads(sys.argv[1])
    app = QgsApplication([], False)
    app.initQgis()
    extent = QgsRectangle(*spec["extent"])
    ident = spec["identify"]
    out = {
        "vector": [vector(url) for url in spec["vectors"]],
        "raster": [raster(r["url"], r["layer"], extent, r["png"]) for r in spec["rasters"]],
        "identify": identify(ident["url"], ident["layer"], ident["x"], ident["y"]),
    }
    print(json.dumps(out, ensure_ascii=False))
    app.exitQgis()


if __name__ == "__main__":
    main()
