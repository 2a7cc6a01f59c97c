"""QGIS 3.22's WMS provider in WMTS mode reads one WMTS (run by tests/ogc_wmts_test.ts).

argv: the capabilities URL, a folder for the rendered PNG. Renders the extent of tile 2/2/2 of
GoogleMapsCompatible (0..10018754 m east, 10018754 m south of 0) at 256 x 256 pixels and prints
one JSON object: whether the layer is valid, the render errors and the image's path.
"""
import json
import sys

from qgis.core import (QgsApplication, QgsCoordinateReferenceSystem, QgsMapRendererSequentialJob,
                       QgsMapSettings, QgsRasterLayer, QgsRectangle)
from qgis.PyQt.QtCore import QSize
from qgis.PyQt.QtGui import QColor

url, out_dir = sys.argv[1], sys.argv[2]
QgsApplication.setPrefixPath("/usr", True)
app = QgsApplication([], False)
app.initQgis()
HALF = 20037508.342789244 / 2
uri = (f"contextualWMSLegend=0&crs=EPSG:3857&dpiMode=7&format=image/png&layers=Recruitment"
       f"&styles=default&tileMatrixSet=GoogleMapsCompatible&url={url}")
rl = QgsRasterLayer(uri, "wmts", "wms")
out = {"valid": rl.isValid(), "error": rl.error().summary() if not rl.isValid() else ""}
if rl.isValid():
    settings = QgsMapSettings()
    settings.setLayers([rl])
    settings.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:3857"))
    settings.setExtent(QgsRectangle(0, -HALF, HALF, 0))
    settings.setOutputSize(QSize(256, 256))
    settings.setBackgroundColor(QColor(255, 255, 255, 255))
    job = QgsMapRendererSequentialJob(settings)
    job.start()
    job.waitForFinished()
    path = f"{out_dir}/qgis_wmts.png"
    job.renderedImage().save(path, "PNG")
    out["image"] = path
    out["renderErrors"] = [e.message for e in job.errors()]
print(json.dumps(out))
