/**
 * Draws simple symbols on a CanvasKit canvas: fills (solid, hatched),
 * lines (dashed), markers (batched into one path per symbol so 100,000
 * points are two draw calls) and text with an optional halo.
 *
 * Sizes in symbols are points; `pxPerPt` (= DPI / 72) turns them into
 * pixels, which is how the requested DPI scales every symbol.
 *
 * @module
 */
import type { Canvas, Font, Image, Paint, Path, Shader } from "canvaskit-wasm";
import type {
  Rgba,
  SimpleFillSymbol,
  SimpleLineSymbol,
  SimpleMarkerSymbol,
  SymbolSpec,
} from "../document/renderer.ts";
import {
  freeSurface,
  type Kit,
  makeRasterSurface,
  RenderMemoryError,
  scratchOf,
} from "./_canvaskit.ts";
import { CLOSE, LINE, MOVE, type PathCmds, type PathData } from "./_path_cmds.ts";
import { makeSprite } from "./_stamp.ts";
import { dedupeKeepLast, type MarkerSink, overlapFreeGroups } from "./_markers.ts";

export type { MarkerSink };

const CONIC = 3;
const W = Math.SQRT1_2;

/** Draws symbols with one kit at one DPI; call {@link Painter.dispose} when done. */
export class Painter {
  readonly kit: Kit;
  readonly pxPerPt: number;
  #owned: { delete(): void }[] = [];
  #hatches = new Map<string, Shader>();
  #fonts = new Map<number, Font>();
  #textPaints = new Map<string, Paint>();
  #fillPaints = new Map<SimpleFillSymbol, Paint>();
  #strokePaints = new Map<SimpleLineSymbol, Paint>();

  /** Creates a painter; `pxPerPt` is DPI / 72. */
  constructor(kit: Kit, pxPerPt: number) {
    this.kit = kit;
    this.pxPerPt = pxPerPt;
  }

  #own<T extends { delete(): void }>(o: T): T {
    this.#owned.push(o);
    return o;
  }

  /** A paint of the colour; alpha 0-255 scaled by `opacity`. */
  paint(color: Rgba, style: "fill" | "stroke", width = 0): Paint {
    const { ck } = this.kit;
    const p = this.#own(new ck.Paint());
    p.setAntiAlias(true);
    p.setColor(ck.Color(color[0], color[1], color[2], color[3] / 255));
    if (style === "stroke") {
      p.setStyle(ck.PaintStyle.Stroke);
      p.setStrokeWidth(width);
      p.setStrokeJoin(ck.StrokeJoin.Round);
      p.setStrokeCap(ck.StrokeCap.Round);
    }
    return p;
  }

  /** Stroke width in pixels of a line symbol (hairlines stay visible at 1 px). */
  lineWidthPx(width: number): number {
    return Math.max(1, width * this.pxPerPt);
  }

  #hatchShader(style: string, color: Rgba): Shader {
    const key = `${style}|${color.join(",")}`;
    const hit = this.#hatches.get(key);
    if (hit) return hit;
    const { ck } = this.kit;
    const size = Math.max(4, Math.round(6 * this.pxPerPt));
    const surface = makeRasterSurface(this.kit, size, size, "a hatch pattern");
    let img: Image;
    try {
      const c = surface.getCanvas();
      c.clear(ck.TRANSPARENT);
      const p = this.paint(color, "stroke", Math.max(1, 0.75 * this.pxPerPt));
      p.setStrokeCap(ck.StrokeCap.Square);
      const lines: [number, number, number, number][] = [];
      const h = Math.floor(size / 2) + 0.5; // pixel centre: crisp one-pixel lines
      if (style === "horizontal" || style === "cross") lines.push([-1, h, size + 1, h]);
      if (style === "vertical" || style === "cross") lines.push([h, -1, h, size + 1]);
      for (const k of [-size, 0, size]) {
        // Diagonals drawn three times so the tile repeats seamlessly.
        if (style === "forward-diagonal" || style === "diagonal-cross") {
          lines.push([k - 1, size + 1, k + size + 1, -1]);
        }
        if (style === "backward-diagonal" || style === "diagonal-cross") {
          lines.push([k - 1, -1, k + size + 1, size + 1]);
        }
      }
      for (const [x0, y0, x1, y1] of lines) c.drawLine(x0, y0, x1, y1, p);
      // The snapshot copies the pixels, so the surface can go at once.
      img = this.#own(surface.makeImageSnapshot());
    } finally {
      freeSurface(surface);
    }
    const shader = this.#own(
      img.makeShaderOptions(
        ck.TileMode.Repeat,
        ck.TileMode.Repeat,
        ck.FilterMode.Nearest,
        ck.MipmapMode.None,
      ),
    );
    this.#hatches.set(key, shader);
    return shader;
  }

  #dash(line: SimpleLineSymbol, widthPx: number): number[] | null {
    const u = Math.max(1, widthPx);
    switch (line.style) {
      case "dash":
        return [4 * u, 3 * u];
      case "dot":
        return [u, 2 * u];
      case "dash-dot":
        return [4 * u, 2 * u, u, 2 * u];
      case "dash-dot-dot":
        return [4 * u, 2 * u, u, 2 * u, u, 2 * u];
      default:
        return null;
    }
  }

  /** Strokes path commands (a flat CanvasKit command list) with a line symbol. */
  strokeCmds(canvas: Canvas, cmds: number[], line: SimpleLineSymbol): void {
    if (line.style === "none" || line.color[3] === 0 || cmds.length === 0) return;
    this.#withPath(this.kit.ck.Path.MakeFromCmds(cmds), (path) => this.#stroke(canvas, path, line));
  }

  /** Strokes a screen path with a line symbol. */
  strokePath(canvas: Canvas, data: PathData, line: SimpleLineSymbol): void {
    if (line.style === "none" || line.color[3] === 0 || data.verbs.length === 0) return;
    this.#withPath(this.#pathOf(data), (path) => this.#stroke(canvas, path, line));
  }

  /** The CanvasKit path of verbs and points (null when CanvasKit has no room for it). */
  #pathOf(data: PathData): Path | null {
    return this.kit.ck.Path.MakeFromVerbsPointsWeights(data.verbs, data.points);
  }

  /** Runs `draw` with `path`, then frees it. */
  #withPath(path: Path | null, draw: (path: Path) => void): void {
    if (!path) return;
    try {
      draw(path);
    } finally {
      path.delete();
    }
  }

  /** Strokes `path` (the caller's, not freed here) with a line symbol. */
  #stroke(canvas: Canvas, path: Path, line: SimpleLineSymbol): void {
    if (line.style === "none" || line.color[3] === 0) return;
    canvas.drawPath(path, this.#strokePaint(line));
  }

  /** The paint of a line symbol, made once per symbol (a batched layer draws many paths with it). */
  #strokePaint(line: SimpleLineSymbol): Paint {
    const have = this.#strokePaints.get(line);
    if (have) return have;
    const { ck } = this.kit;
    const w = this.lineWidthPx(line.width);
    const exact = line.width * this.pxPerPt;
    // Lines up to a pixel wide are drawn as Skia hairlines (far cheaper than
    // stroking a path outline), thinner ones fainter in proportion.
    const hairline = exact <= 1 && line.style === "solid";
    const color: Rgba = hairline && exact < 1
      ? [line.color[0], line.color[1], line.color[2], line.color[3] * Math.max(0.25, exact)]
      : line.color;
    const p = this.paint(color, "stroke", hairline ? 0 : w);
    const dash = this.#dash(line, w);
    if (dash) {
      p.setStrokeCap(ck.StrokeCap.Butt);
      p.setPathEffect(this.#own(ck.PathEffect.MakeDash(dash, 0)));
    }
    this.#strokePaints.set(line, p);
    return p;
  }

  /** Fills and outlines the rings of path commands (a flat CanvasKit command list). */
  fillCmds(canvas: Canvas, cmds: number[], fill: SimpleFillSymbol): void {
    if (cmds.length === 0) return;
    this.#withPath(
      this.kit.ck.Path.MakeFromCmds(cmds),
      (path) => this.#fill(canvas, path, fill, true),
    );
  }

  /**
   * Fills the polygon rings of a screen path with a fill symbol and strokes
   * its outline: `outline`, or the rings themselves.
   */
  fillPath(canvas: Canvas, data: PathData, fill: SimpleFillSymbol, outline = data): void {
    if (data.verbs.length === 0) return;
    // The outline is often the fill's own commands: their path serves both.
    const same = outline === data;
    this.#withPath(this.#pathOf(data), (path) => this.#fill(canvas, path, fill, same));
    if (fill.outline && !same) this.strokePath(canvas, outline, fill.outline);
  }

  /** Fills `path` (the caller's) and, with `outlineToo`, strokes it with the symbol's outline. */
  #fill(canvas: Canvas, path: Path, fill: SimpleFillSymbol, outlineToo: boolean): void {
    const { ck } = this.kit;
    // Even-odd: holes stay open whatever the ring orientation of the source.
    path.setFillType(ck.FillType.EvenOdd);
    if (fill.style !== "none" && fill.color[3] > 0) canvas.drawPath(path, this.#fillPaint(fill));
    if (fill.outline && outlineToo) this.#stroke(canvas, path, fill.outline);
  }

  /** The paint of a fill symbol's fill, made once per symbol. */
  #fillPaint(fill: SimpleFillSymbol): Paint {
    const have = this.#fillPaints.get(fill);
    if (have) return have;
    const { ck } = this.kit;
    const p = this.paint(fill.color, "fill");
    const o = fill.outline;
    if (o && o.style === "solid" && o.color[3] >= 128 && o.width * this.pxPerPt >= 0.5) {
      // The outline is drawn over every edge of the fill and hides its staircase:
      // an aliased fill rasterises about twice as fast in Skia-wasm.
      p.setAntiAlias(false);
    }
    if (fill.style !== "solid") {
      p.setColor(ck.BLACK);
      p.setShader(this.#hatchShader(fill.style, fill.color));
    }
    this.#fillPaints.set(fill, p);
    return p;
  }

  /** Marker shape around (0, 0) of radius r, as commands appended at (x, y). */
  #markerCmds(style: SimpleMarkerSymbol["style"], r: number, angleDeg: number): number[] {
    if (style === "circle") {
      // One conic (weight 1/sqrt 2) per quarter circle.
      // deno-fmt-ignore
      return [
        MOVE, r, 0,
        CONIC, r, r, 0, r, W,
        CONIC, -r, r, -r, 0, W,
        CONIC, -r, -r, 0, -r, W,
        CONIC, r, -r, r, 0, W,
        CLOSE,
      ];
    }
    const pts: [number, number][][] = style === "square"
      ? [[[-r, -r], [r, -r], [r, r], [-r, r]]]
      : style === "diamond"
      ? [[[0, -r], [r, 0], [0, r], [-r, 0]]]
      : style === "cross"
      ? [[[-r, 0], [r, 0]], [[0, -r], [0, r]]]
      : [[[-r * W, -r * W], [r * W, r * W]], [[-r * W, r * W], [r * W, -r * W]]];
    const t = (-angleDeg * Math.PI) / 180; // counter-clockwise on screen (y down)
    const cos = Math.cos(t), sin = Math.sin(t);
    const out: number[] = [];
    for (const part of pts) {
      part.forEach(([x, y], i) =>
        out.push(i === 0 ? MOVE : LINE, x * cos - y * sin, x * sin + y * cos)
      );
      if (style === "square" || style === "diamond") out.push(CLOSE);
    }
    return out;
  }

  /**
   * Draws one marker symbol at every (x, y) pair of `xy` (screen pixels),
   * in order, each with its fill and outline (a later marker covers an
   * earlier one, as ArcGIS draws them). With a `sink` (outside any
   * saveLayer) many markers are stamped from one pre-drawn sprite into the
   * image pixels instead (see _stamp.ts).
   */
  markers(
    canvas: Canvas,
    xy: ArrayLike<number>,
    m: SimpleMarkerSymbol,
    sink?: MarkerSink,
  ): void {
    if (xy.length === 0) return;
    const ox = m.xoffset * this.pxPerPt, oy = -m.yoffset * this.pxPerPt;
    const scratch = scratchOf(this.kit);
    const pts = dedupeKeepLast(xy, ox, oy, scratch);
    const n = pts.length / 2;
    const reach = (m.size * this.pxPerPt) / 2 * Math.SQRT2 +
      (m.outline ? Math.max(1, m.outline.width * this.pxPerPt) : 0) + 1;
    // Cost model (measured on Skia-wasm): ~40 us per batched path pair, against
    // ~8 ns per image pixel for reading and compositing the canvas around a stamp.
    // Huge symbols (very high DPI) would need a huge sprite: draw those as paths.
    const stampCost = sink && reach <= 256 ? sink.pixelCount * 0.008 + n * 0.3 : Infinity;
    if (n * 0.5 > stampCost) {
      this.#stamp(pts, m, sink!);
      return;
    }
    const bounds = overlapFreeGroups(pts, 2 * reach, scratch);
    const pathCost = (bounds.length - 1) * 40 + n * 0.5;
    if (pathCost <= stampCost) {
      for (let g = 0; g + 1 < bounds.length; g++) {
        this.#markerPaths(canvas, pts.subarray(bounds[g], bounds[g + 1]), m);
      }
      return;
    }
    this.#stamp(pts, m, sink!);
  }

  /** Stamps markers from one pre-drawn sprite through `sink`. */
  #stamp(xy: Float64Array, m: SimpleMarkerSymbol, sink: MarkerSink): void {
    const n = xy.length / 2;
    const { ck } = this.kit;
    const r = (m.size * this.pxPerPt) / 2;
    const outlineW = m.outline ? Math.max(1, m.outline.width * this.pxPerPt) : 0;
    const half = Math.ceil(r * Math.SQRT2 + outlineW + 2);
    const size = 2 * half;
    const surface = makeRasterSurface(this.kit, size, size, "a marker sprite");
    let spritePx: Uint8Array | null;
    try {
      const sc = surface.getCanvas();
      sc.clear(ck.TRANSPARENT);
      this.#markerPaths(sc, Float64Array.of(half, half), m);
      spritePx = sc.readPixels(0, 0, {
        colorType: ck.ColorType.RGBA_8888,
        alphaType: ck.AlphaType.Premul,
        colorSpace: ck.ColorSpace.SRGB,
        width: size,
        height: size,
      }) as Uint8Array | null;
    } finally {
      freeSurface(surface);
    }
    if (!spritePx) throw new RenderMemoryError("reading back a marker sprite");
    const corners = new Int32Array(
      scratchOf(this.kit).bytes("marker corners", n * 8).buffer,
      0,
      n * 2,
    );
    for (let i = 0; i < n; i++) {
      corners[i * 2] = Math.round(xy[i * 2] - half);
      corners[i * 2 + 1] = Math.round(xy[i * 2 + 1] - half);
    }
    sink.stamp(makeSprite(spritePx, size), corners);
  }

  /** Draws markers as paths (fill, then outline) at the given points. */
  #markerPaths(canvas: Canvas, xy: Float64Array, m: SimpleMarkerSymbol): void {
    const { ck } = this.kit;
    const r = (m.size * this.pxPerPt) / 2;
    const tpl = this.#markerCmds(m.style, r, m.angle);
    // Each marker's commands are the template's, moved: as many numbers. Skia reads
    // them as 32-bit floats, so a Float32Array from the scratch draws the same.
    const n = xy.length >> 1;
    const cmds = new Float32Array(
      scratchOf(this.kit).bytes("marker cmds", n * tpl.length * 4).buffer,
      0,
      n * tpl.length,
    );
    let k = 0;
    for (let i = 0; i < xy.length; i += 2) {
      const x = xy[i], y = xy[i + 1];
      for (let j = 0; j < tpl.length;) {
        const verb = tpl[j++];
        cmds[k++] = verb;
        if (verb === MOVE || verb === LINE) {
          cmds[k++] = tpl[j++] + x;
          cmds[k++] = tpl[j++] + y;
        } else if (verb === CONIC) {
          cmds[k++] = tpl[j++] + x;
          cmds[k++] = tpl[j++] + y;
          cmds[k++] = tpl[j++] + x;
          cmds[k++] = tpl[j++] + y;
          cmds[k++] = tpl[j++];
        }
      }
    }
    const path = ck.Path.MakeFromCmds(cmds);
    if (!path) return;
    const lineShape = m.style === "cross" || m.style === "x";
    const outlineW = m.outline ? Math.max(1, m.outline.width * this.pxPerPt) : 0;
    try {
      if (lineShape) {
        const w = Math.max(1, r / 4);
        if (m.outline && m.outline.color[3] > 0) {
          canvas.drawPath(path, this.paint(m.outline.color, "stroke", w + 2 * outlineW));
        }
        canvas.drawPath(path, this.paint(m.color, "stroke", w));
      } else {
        if (m.color[3] > 0) canvas.drawPath(path, this.paint(m.color, "fill"));
        if (m.outline && m.outline.color[3] > 0) {
          canvas.drawPath(path, this.paint(m.outline.color, "stroke", outlineW));
        }
      }
    } finally {
      path.delete();
    }
  }

  /** A font of `sizePt` points (cached per size). */
  font(sizePt: number): Font {
    const px = Math.max(1, Math.round(sizePt * this.pxPerPt * 4) / 4);
    let f = this.#fonts.get(px);
    if (!f) {
      f = this.#own(new this.kit.ck.Font(this.kit.typeface, px));
      f.setSubpixel(true);
      this.#fonts.set(px, f);
    }
    return f;
  }

  /** Advance width of `text` in pixels with `font`. */
  textWidth(font: Font, text: string): number {
    const ids = font.getGlyphIDs(text);
    let w = 0;
    for (const v of font.getGlyphWidths(ids)) w += v;
    return w;
  }

  #textPaint(color: Rgba, haloWidth: number): Paint {
    const key = `${color.join(",")}|${haloWidth}`;
    let p = this.#textPaints.get(key);
    if (!p) {
      p = haloWidth > 0 ? this.paint(color, "stroke", haloWidth) : this.paint(color, "fill");
      this.#textPaints.set(key, p);
    }
    return p;
  }

  /** Draws text with its baseline-left at (x, y), optionally with a halo. */
  text(
    canvas: Canvas,
    s: string,
    x: number,
    y: number,
    font: Font,
    color: Rgba,
    halo?: { color: Rgba; sizePt: number },
  ): void {
    if (halo && halo.sizePt > 0) {
      const hp = this.#textPaint(halo.color, 2 * halo.sizePt * this.pxPerPt);
      canvas.drawText(s, x, y, hp, font);
    }
    canvas.drawText(s, x, y, this.#textPaint(color, 0), font);
  }

  /** Draws any symbol onto a screen path (fills, lines) or points (markers). */
  draw(canvas: Canvas, symbol: SymbolSpec, cmds: PathCmds, xy: number[], sink?: MarkerSink): void {
    if (symbol.type === "simple-fill") this.fillPath(canvas, cmds.data(), symbol);
    else if (symbol.type === "simple-line") this.strokePath(canvas, cmds.data(), symbol);
    else this.markers(canvas, xy, symbol, sink);
  }

  /** Frees every CanvasKit object this painter created. */
  dispose(): void {
    for (const o of this.#owned) o.delete();
    this.#owned = [];
    this.#hatches.clear();
    this.#fonts.clear();
    this.#textPaints.clear();
    this.#fillPaints.clear();
    this.#strokePaints.clear();
  }
}
