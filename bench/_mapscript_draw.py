"""Warm-process MapServer renderer for bench/render_extents.ts.

Reads one JSON object on stdin: {"mapfile": PATH, "extents": [[xmin, ymin, xmax, ymax], ...],
"passes": N}. Loads the mapfile once, then for each pass draws every extent in order and times
map.draw() plus the PNG encoding (imageObj.getBytes()). Prints {"passes": [[ms, ...], ...],
"bytes": [...]} on stdout. Run with Debian's /usr/bin/python3 (python3-mapscript).

With `--serve MAPFILE` (bench/first_views.ts): loads the mapfile, then for each stdin line
"xmin ymin xmax ymax" draws that extent and prints one line "MS BYTES", so the caller can take
turns with another renderer view by view. A line "GET URL" instead fetches URL over HTTP/1.1 (one
kept connection per host, Python's http.client, as a harness built around mapscript would) and
prints "MS BYTES STATUS" for the time from the request to its last byte.
"""
import http.client
import json
import sys
import time
import urllib.parse

import mapscript

connections = {}


def fetch(url):
    u = urllib.parse.urlsplit(url)
    t = time.perf_counter()
    for attempt in range(2):
        conn = connections.get(u.netloc)
        if conn is None:
            conn = connections[u.netloc] = http.client.HTTPConnection(u.hostname, u.port)
        try:
            conn.request("GET", u.path + ("?" + u.query if u.query else ""))
            res = conn.getresponse()
            body = res.read()
            return (time.perf_counter() - t) * 1000, len(body), res.status
        except (http.client.HTTPException, ConnectionError):
            # A kept connection the server closed meanwhile: once more on a new one.
            conn.close()
            del connections[u.netloc]
            if attempt == 1:
                raise


def draw(m, xmin, ymin, xmax, ymax):
    t = time.perf_counter()
    m.setExtent(xmin, ymin, xmax, ymax)
    data = m.draw().getBytes()
    return (time.perf_counter() - t) * 1000, len(data)


def serve(path):
    m = mapscript.mapObj(path)
    for line in sys.stdin:
        if line.startswith("GET "):
            ms, size, status = fetch(line[4:].strip())
            print(f"{ms:.3f} {size} {status}", flush=True)
            continue
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
