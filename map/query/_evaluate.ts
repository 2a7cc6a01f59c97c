/**
 * In-memory evaluation of a where-clause tree with SQL's three-valued
 * logic, for sources that are not SQL (GeoJSON, world-atlas).
 *
 * @module
 */
import type { AttributeValue } from "../types.ts";
import type { ValueNode, WhereNode } from "./ast.ts";
import { compareScalars, type Scalar, sqlLike, toNumber } from "./_values.ts";
import { callFunction } from "./_functions.ts";

function scalarOf(v: AttributeValue | undefined): Scalar {
  if (v === undefined || v === null) return null;
  if (typeof v === "boolean") return v ? 1 : 0;
  return v;
}

/** Value of an expression over one feature's attributes (keyed by canonical field name). */
export function evaluateValue(node: ValueNode, attrs: Record<string, AttributeValue>): Scalar {
  switch (node.kind) {
    case "literal":
      return node.value;
    case "field":
      return scalarOf(attrs[node.name]);
    case "neg": {
      const v = evaluateValue(node.operand, attrs);
      return v === null ? null : -toNumber(v);
    }
    case "arith": {
      const a = evaluateValue(node.left, attrs);
      const b = evaluateValue(node.right, attrs);
      if (a === null || b === null) return null;
      const x = toNumber(a);
      const y = toNumber(b);
      switch (node.op) {
        case "+":
          return x + y;
        case "-":
          return x - y;
        case "*":
          return x * y;
        case "/":
          // SQL gives NULL for a division by zero.
          return y === 0 ? null : x / y;
      }
      break;
    }
    case "call":
      return callFunction(node.name, node.keyword, node.args.map((a) => evaluateValue(a, attrs)));
  }
  return null;
}

/** IN lists at least this long that hold only numbers are looked up in a Set. */
const SET_LOOKUP_MIN = 16;
const numericLists = new WeakMap<object, Set<number> | null>();

/**
 * The values of a long all-number IN list as a Set (built once per tree), or undefined. For a
 * number, Set membership is exactly compareScalars(v, x) === 0 over the list: both are numeric
 * equality (0 and -0 alike), and there is no NULL in the list to make the answer unknown.
 */
function numericList(node: WhereNode & { kind: "in" }): Set<number> | undefined {
  if (node.list.length < SET_LOOKUP_MIN) return undefined;
  let set = numericLists.get(node);
  if (set === undefined) {
    const all = node.list.every((x) => x.kind === "literal" && typeof x.value === "number");
    set = all ? new Set(node.list.map((x) => (x as { value: number }).value)) : null;
    numericLists.set(node, set);
  }
  return set ?? undefined;
}

/** Truth value of a condition: true, false or null (unknown). */
export function evaluateCondition(
  node: WhereNode,
  attrs: Record<string, AttributeValue>,
): boolean | null {
  switch (node.kind) {
    case "and": {
      const a = evaluateCondition(node.left, attrs);
      if (a === false) return false;
      const b = evaluateCondition(node.right, attrs);
      if (b === false) return false;
      return a === null || b === null ? null : true;
    }
    case "or": {
      const a = evaluateCondition(node.left, attrs);
      if (a === true) return true;
      const b = evaluateCondition(node.right, attrs);
      if (b === true) return true;
      return a === null || b === null ? null : false;
    }
    case "not": {
      const v = evaluateCondition(node.operand, attrs);
      return v === null ? null : !v;
    }
    case "compare": {
      const a = evaluateValue(node.left, attrs);
      const b = evaluateValue(node.right, attrs);
      if (a === null || b === null) return null;
      const c = compareScalars(a, b);
      switch (node.op) {
        case "=":
          return c === 0;
        case "<>":
          return c !== 0;
        case "<":
          return c < 0;
        case "<=":
          return c <= 0;
        case ">":
          return c > 0;
        case ">=":
          return c >= 0;
      }
      break;
    }
    case "in": {
      const v = evaluateValue(node.value, attrs);
      if (v === null) return null;
      const numbers = typeof v === "number" && !Number.isNaN(v) ? numericList(node) : undefined;
      if (numbers) return numbers.has(v as number) ? !node.negated : node.negated;
      let sawNull = false;
      for (const item of node.list) {
        const x = evaluateValue(item, attrs);
        if (x === null) sawNull = true;
        else if (compareScalars(v, x) === 0) return !node.negated;
      }
      return sawNull ? null : node.negated;
    }
    case "between": {
      const v = evaluateValue(node.value, attrs);
      const lo = evaluateValue(node.low, attrs);
      const hi = evaluateValue(node.high, attrs);
      const geLow = v === null || lo === null ? null : compareScalars(v, lo) >= 0;
      const leHigh = v === null || hi === null ? null : compareScalars(v, hi) <= 0;
      const inside = geLow === false || leHigh === false
        ? false
        : geLow === null || leHigh === null
        ? null
        : true;
      return inside === null ? null : node.negated ? !inside : inside;
    }
    case "like": {
      const m = sqlLike(
        evaluateValue(node.value, attrs),
        evaluateValue(node.pattern, attrs),
        node.escape,
      );
      return m === null ? null : node.negated ? !m : m;
    }
    case "isNull": {
      const isNull = evaluateValue(node.value, attrs) === null;
      return node.negated ? !isNull : isNull;
    }
  }
  return null;
}
