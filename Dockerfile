# The server in a container, on the official Deno image (the project's Deno
# version), run as `deno task start` runs it.
#   docker build -t catalog-server .
#   docker run -p 8000:8000 -v catalog-data:/app/var catalog-server
# /app/var holds the database (var/catalog.db, created with the demo data on
# first start), its tile stores (var/tiles/) and exported images; mount a
# volume there so they outlive the container. Use --db / --tiles-dir to put
# them on separate volumes.
FROM denoland/deno:2.9.6
WORKDIR /app
RUN mkdir -p /app/var && chown -R deno:deno /app
USER deno
COPY --chown=deno:deno deno.json deno.lock main.ts ./
COPY --chown=deno:deno data ./data
COPY --chown=deno:deno map ./map
COPY --chown=deno:deno routes ./routes
COPY --chown=deno:deno tools ./tools
# Fetch every package of deno.json into node_modules at build time (the font and CanvasKit's
# wasm are read from there, not imported), and cache the modules the server and its workers load.
# Bundling the web map once here caches the bundler (esbuild, from npm) in the image.
RUN deno install && deno cache main.ts map/render/_worker.ts && \
  deno eval "await (await import('./routes/webmap/bundle.ts')).bundleWebMap()"
# Two malloc arenas instead of one per thread: 15-30 MiB less resident memory under API
# traffic (docs/operations.md, "Memory"), as `deno task start` does.
ENV MALLOC_ARENA_MAX=2
VOLUME ["/app/var"]
EXPOSE 8000
CMD ["run", "--v8-flags=--expose-gc,--max-semi-space-size=8", "--allow-all", "main.ts", "serve", "--port", "8000"]
