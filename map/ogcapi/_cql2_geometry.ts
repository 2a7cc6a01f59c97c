/**
 * Geometry literals of CQL2-text: WKT (POINT, MULTIPOINT, LINESTRING,
 * MULTILINESTRING, POLYGON, MULTIPOLYGON; a z coordinate is dropped) and
 * BBOX, as the engine's geometries (polygon rings in ArcGIS order: outer
 * rings clockwise).
 *
 * @module
 */
import type { Geometry, Position } from "../types.ts";
import { MAX_WHERE_TERMS } from "../query/mod.ts";
import { Cql2Error, type Token, TokenCursor } from "./_cql2_tokens.ts";

/** Reads one geometry literal from a shared token cursor position. */
class GeometryReader extends TokenCursor {
  private parts = 0;

  constructor(tokens: Token[], start: number) {
    super(tokens);
    this.i = start;
  }

  /** Where the reader stopped. */
  get offset(): number {
    return this.i;
  }

  /** A WKT geometry or a BBOX, in the filter's (x, y) order. */
  read(): Geometry {
    const t = this.peek();
    if (t.kind !== "word") this.fail("a geometry (POINT, LINESTRING, POLYGON, ... or BBOX)");
    const kind = t.text.toUpperCase();
    this.next();
    switch (kind) {
      case "BBOX": {
        const n = this.numberList();
        if (n.length !== 4 && n.length !== 6) throw new Cql2Error("BBOX takes 4 or 6 numbers.");
        const [xmin, ymin, xmax, ymax] = n.length === 4 ? n : [n[0], n[1], n[3], n[4]];
        if (xmin > xmax || ymin > ymax) {
          throw new Cql2Error("BBOX must be (minx, miny, maxx, maxy) with min <= max.");
        }
        return { type: "Envelope", xmin, ymin, xmax, ymax };
      }
      case "POINT":
        return pointOf(this.positions(0));
      case "MULTIPOINT":
        return { type: "Multipoint", points: this.multiPoints() };
      case "LINESTRING":
        return { type: "Polyline", paths: [this.positions(1)] };
      case "MULTILINESTRING":
        return { type: "Polyline", paths: this.positions(2) };
      case "POLYGON":
        return { type: "Polygon", rings: arcgisRings([this.positions(2)]) };
      case "MULTIPOLYGON":
        return { type: "Polygon", rings: arcgisRings(this.positions(3)) };
      default:
        throw new Cql2Error(
          `Unsupported geometry ${kind} at ${t.pos}; use POINT, MULTIPOINT, LINESTRING, ` +
            "MULTILINESTRING, POLYGON, MULTIPOLYGON or BBOX.",
        );
    }
  }

  private numberList(): number[] {
    this.expectOp("(");
    const out = [this.number()];
    while (this.isOp(",")) {
      this.next();
      out.push(this.number());
    }
    this.expectOp(")");
    return out;
  }

  /** `(x y, ...)` nested `level` times deeper than a position (`x y` itself at 0). */
  // deno-lint-ignore no-explicit-any
  private positions(level: number): any {
    if (level === 0) {
      this.expectOp("(");
      const p = this.position();
      this.expectOp(")");
      return p;
    }
    this.expectOp("(");
    const out = [level === 1 ? this.position() : this.positions(level - 1)];
    while (this.isOp(",")) {
      this.next();
      out.push(level === 1 ? this.position() : this.positions(level - 1));
    }
    this.expectOp(")");
    if (++this.parts > MAX_WHERE_TERMS) throw new Cql2Error("The filter geometry is too large.");
    return out;
  }

  /** MULTIPOINT ((1 2), (3 4)) or MULTIPOINT (1 2, 3 4). */
  private multiPoints(): Position[] {
    this.expectOp("(");
    const read = () => {
      if (!this.isOp("(")) return this.position();
      this.next();
      const p = this.position();
      this.expectOp(")");
      return p;
    };
    const out = [read()];
    while (this.isOp(",")) {
      this.next();
      out.push(read());
    }
    this.expectOp(")");
    return out;
  }

  private position(): Position {
    const x = this.number(), y = this.number();
    // A third (z) coordinate is read and dropped: the filter is two-dimensional.
    if (this.peek().kind === "number") this.next();
    return [x, y];
  }
}

function pointOf(p: Position): Geometry {
  return { type: "Point", x: p[0], y: p[1] };
}

/** WKT polygons (outer rings counter-clockwise) as ArcGIS rings (outer clockwise). */
function arcgisRings(polygons: Position[][][]): Position[][] {
  const area = (r: Position[]) => {
    let a = 0;
    for (let i = 0; i + 1 < r.length; i++) a += r[i][0] * r[i + 1][1] - r[i + 1][0] * r[i][1];
    return a;
  };
  return polygons.flatMap((rings) =>
    rings.map((ring, i) => {
      const clockwise = area(ring) < 0;
      return (i === 0) === clockwise ? ring : [...ring].reverse();
    })
  );
}

/**
 * The geometry literal at token `start`, and the index after it.
 *
 * @example
 * ```ts
 * import { tokenize } from "./_cql2_tokens.ts";
 * readGeometry(tokenize("POINT(1 2)"), 0).geometry; // { type: "Point", x: 1, y: 2 }
 * ```
 */
export function readGeometry(tokens: Token[], start: number): { geometry: Geometry; end: number } {
  const r = new GeometryReader(tokens, start);
  const geometry = r.read();
  return { geometry, end: r.offset };
}
