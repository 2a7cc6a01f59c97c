"""Warm-process MapServer renderer for bench/render_extents.ts.

Reads one JSON object on stdin: {"mapfile": PATH, "extents": [[xmin, ymin, xmax, ymax], ...],
"passes": N}. Loads the mapfile once, then for each pass draws every extent in order and times
map.draw() plus the PNG encoding (imageObj.getBytes()). Prints {"passes": [[ms, ...], ...],
"bytes": [...]} on stdout. Run with Debian's /usr/bin/python3 (python3-mapscript).

With `--serve MAPFILE` (bench/first_views.ts): loads the mapfile, then for each stdin line
"xmin ymin xmax ymax" draws that extent and prints one line "MS BYTES", so the caller can take
turns with another renderer view by view.
"""
import json
import sys
import time

import mapscript


def draw(m, xmin, ymin, xmax, ymax):
    t = time.perf_counter()
    m.setExtent(xmin, ymin, xmax, ymax)
    data = m.draw().getBytes()
    return (time.perf_counter() - t) * 1000, len(data)


def serve(path):
    m = mapscript.mapObj(path)
    for line in sys.stdin:
        ms, size = draw(m, *map(float, line.split()))
        print(f"{ms:.3f} {size}", flush=True)


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--serve":
        serve(sys.argv[2])
        return
    req = json.load(sys.stdin)
    m = mapscript.mapObj(req["mapfile"])
    passes = []
    sizes = []
    for _ in range(req.get("passes", 2)):
        times = []
        for xmin, ymin, xmax, ymax in req["extents"]:
            ms, size = draw(m, xmin, ymin, xmax, ymax)
            times.append(ms)
            sizes.append(size)
        passes.append(times)
    json.dump({"passes": passes, "bytes": sizes[: len(req["extents"])]}, sys.stdout)


main()
