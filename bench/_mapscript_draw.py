"""Warm-process MapServer renderer for bench/render_extents.ts.

Reads one JSON object on stdin: {"mapfile": PATH, "extents": [[xmin, ymin, xmax, ymax], ...],
"passes": N}. Loads the mapfile once, then for each pass draws every extent in order and times
map.draw() plus the PNG encoding (imageObj.getBytes()). Prints {"passes": [[ms, ...], ...],
"bytes": [...]} on stdout. Run with Debian's /usr/bin/python3 (python3-mapscript).
"""
import json
import sys
import time

import mapscript


def main():
    req = json.load(sys.stdin)
    m = mapscript.mapObj(req["mapfile"])
    passes = []
    sizes = []
    for _ in range(req.get("passes", 2)):
        times = []
        for xmin, ymin, xmax, ymax in req["extents"]:
            t = time.perf_counter()
            m.setExtent(xmin, ymin, xmax, ymax)
            img = m.draw()
            data = img.getBytes()
            times.append((time.perf_counter() - t) * 1000)
            sizes.append(len(data))
        passes.append(times)
    json.dump({"passes": passes, "bytes": sizes[: len(req["extents"])]}, sys.stdout)


main()
