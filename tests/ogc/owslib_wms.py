"""OWSLib reads a WMS in both versions (run by tests/ogc_wms_clients_test.ts).

argv: the WMSServer URL, a folder for the images. Prints one JSON object per
version: the layers OWSLib read (name, title, abstract, CRSs, WGS 84 box,
queryable, styles), the path of a GetMap image, and a GetFeatureInfo answer.
"""
import json
import sys

from owslib.wms import WebMapService

url, out_dir = sys.argv[1], sys.argv[2]
report = {}
for version in ("1.1.1", "1.3.0"):
    service = WebMapService(url, version=version)
    layers = {}
    for name, layer in service.contents.items():
        layers[name] = {
            "title": layer.title,
            "abstract": layer.abstract,
            "crs": sorted(str(c) for c in (layer.crsOptions or [])),
            "wgs84": list(layer.boundingBoxWGS84) if layer.boundingBoxWGS84 else None,
            "queryable": layer.queryable,
            "styles": {k: v.get("legend") for k, v in layer.styles.items()},
        }
    size = (400, 300)
    image = service.getmap(layers=["1", "0"], styles=["", ""], srs="EPSG:4326",
                           bbox=(20, 40, 60, 70), size=size, format="image/png")
    get_map_url = image.geturl()
    path = f"{out_dir}/owslib_{version}.png"
    with open(path, "wb") as f:
        f.write(image.read())
    info = service.getfeatureinfo(layers=["1", "0"], styles=["", ""], srs="EPSG:4326",
                                  bbox=(20, 40, 60, 70), size=size, format="image/png",
                                  query_layers=["1"], info_format="application/json",
                                  xy=(300, 100))
    error = None
    try:
        service.getmap(layers=["7"], styles=[""], srs="EPSG:4326", bbox=(20, 40, 60, 70),
                       size=size, format="image/png")
    except Exception as e:  # OWSLib raises ServiceException with the report's text
        error = f"{type(e).__name__}: {e}"
    report[version] = {
        "version": service.identification.version,
        "title": service.identification.title,
        "operations": sorted(op.name for op in service.operations),
        "formats": service.getOperationByName("GetMap").formatOptions,
        "layers": layers,
        "image": path,
        "getMapUrl": get_map_url,
        "info": json.loads(info.read().decode("utf-8")),
        "error": error,
    }
print(json.dumps(report))
