"""QGIS 3.22's WMS provider reads one WMSServer (run by tests/ogc_wms_clients_test.ts).

argv: the WMSServer URL, a folder for the rendered PNG. Prints one JSON
object: whether the layer is valid, the sublayers QGIS read from the
capabilities, the rendered image, and identify results at 50 E, 60 N.
"""
import json
import sys

from qgis.core import (QgsApplication, QgsCoordinateReferenceSystem, QgsMapRendererSequentialJob,
                       QgsMapSettings, QgsPointXY, QgsRaster, QgsRasterLayer, QgsRectangle)
from qgis.PyQt.QtCore import QSize
from qgis.PyQt.QtGui import QColor

url, out_dir = sys.argv[1], sys.argv[2]
QgsApplication.setPrefixPath("/usr", True)
app = QgsApplication([], False)
app.initQgis()
EXTENT = QgsRectangle(20, 40, 60, 70)
SIZE = QSize(400, 300)

# QGIS lists the layers top first, as in its layer tree; it sends them bottom first.
uri = (f"contextualWMSLegend=0&crs=EPSG:4326&dpiMode=7&featureCount=10&format=image/png"
       f"&layers=0&layers=1&styles=&styles=&url={url}")
rl = QgsRasterLayer(uri, "wms", "wms")
out = {"valid": rl.isValid(), "error": rl.error().summary() if not rl.isValid() else ""}
if rl.isValid():
    caps = rl.dataProvider().subLayers()
    out["subLayers"] = list(caps)
    settings = QgsMapSettings()
    settings.setLayers([rl])
    settings.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
    settings.setExtent(EXTENT)
    settings.setOutputSize(SIZE)
    settings.setBackgroundColor(QColor(255, 255, 255, 0))
    job = QgsMapRendererSequentialJob(settings)
    job.start()
    job.waitForFinished()
    path = f"{out_dir}/qgis_wms.png"
    job.renderedImage().save(path, "PNG")
    out["image"] = path
    out["renderErrors"] = [e.message for e in job.errors()]
    res = rl.dataProvider().identify(QgsPointXY(50.05, 59.95), QgsRaster.IdentifyFormatText,
                                     EXTENT, SIZE.width(), SIZE.height())
    out["identifyValid"] = res.isValid()
    out["identify"] = {str(k): str(v) for k, v in res.results().items()}
print(json.dumps(out))
