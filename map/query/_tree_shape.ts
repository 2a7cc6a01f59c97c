/**
 * The shape of parsed where clauses: long AND/OR chains become balanced
 * trees (and OR-ed equalities on one field one IN list), and trees deeper
 * than {@linkcode MAX_TREE_DEPTH} are refused, so no recursion over a tree
 * (the evaluator's, the SQL compiler's, SQLite's own) grows with the
 * length of the clause.
 *
 * @module
 */
import type { ValueNode, WhereNode } from "./ast.ts";
import { WhereClauseError } from "./_lexer.ts";

/**
 * Deepest expression tree accepted after AND/OR chains are balanced. Only
 * long arithmetic or NOT chains get near it; both the in-memory evaluator
 * (recursive) and SQLite (1,000 levels) need a bound.
 */
export const MAX_TREE_DEPTH = 200;

/** `a OR b OR c …` as a balanced tree of the same operands in the same order. */
export function balance(kind: "and" | "or", nodes: WhereNode[]): WhereNode {
  let level = nodes;
  while (level.length > 1) {
    const up: WhereNode[] = [];
    for (let k = 0; k + 1 < level.length; k += 2) {
      up.push({ kind, left: level[k], right: level[k + 1] });
    }
    if (level.length % 2 === 1) up.push(level[level.length - 1]);
    level = up;
  }
  return level[0];
}

type FieldEquality = WhereNode & { kind: "compare"; left: ValueNode & { kind: "field" } };

/**
 * Rewrites the OR operands `f = 1`, `f = 2`, … on one field as `f IN (1, 2, …)`: the same truth
 * value in three-valued logic (NULLs included), but one index lookup in SQLite instead of a
 * scan testing every term, which is what FID paging sends.
 */
export function mergeEqualities(operands: WhereNode[]): WhereNode[] {
  const byField = new Map<string, ValueNode[]>();
  const isEquality = (n: WhereNode): n is FieldEquality =>
    n.kind === "compare" && n.op === "=" && n.left.kind === "field" && n.right.kind === "literal";
  for (const n of operands) {
    if (isEquality(n)) {
      const list = byField.get(n.left.name);
      if (list) list.push(n.right);
      else byField.set(n.left.name, [n.right]);
    }
  }
  const merged: WhereNode[] = [];
  const done = new Set<string>();
  for (const n of operands) {
    if (!isEquality(n) || byField.get(n.left.name)!.length < 2) merged.push(n);
    else if (!done.has(n.left.name)) {
      done.add(n.left.name);
      merged.push({ kind: "in", value: n.left, list: byField.get(n.left.name)!, negated: false });
    }
  }
  return merged;
}

/** Refuses trees deeper than {@linkcode MAX_TREE_DEPTH}, walking with an explicit stack. */
export function checkDepth(root: WhereNode): void {
  const stack: [WhereNode | ValueNode, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [n, d] = stack.pop()!;
    if (d > MAX_TREE_DEPTH) {
      throw new WhereClauseError(
        `The where clause nests expressions more than ${MAX_TREE_DEPTH} levels deep ` +
          "(long chains of arithmetic or NOT); simplify the clause.",
        0,
      );
    }
    for (const c of childrenOf(n)) stack.push([c, d + 1]);
  }
}

function childrenOf(n: WhereNode | ValueNode): (WhereNode | ValueNode)[] {
  switch (n.kind) {
    case "and":
    case "or":
    case "arith":
      return [n.left, n.right];
    case "not":
    case "neg":
      return [n.operand];
    case "compare":
      return [n.left, n.right];
    case "in":
      return [n.value, ...n.list];
    case "between":
      return [n.value, n.low, n.high];
    case "like":
      return [n.value, n.pattern];
    case "isNull":
      return [n.value];
    case "call":
      return n.args;
    default:
      return [];
  }
}
