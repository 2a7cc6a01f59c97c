/**
 * Statistics over the features a query selects (ArcGIS REST
 * `outStatistics` + `groupByFieldsForStatistics`): count, sum, min, max,
 * avg, stddev and var per group. NULLs are skipped, as SQL aggregates skip
 * them; stddev and var are the sample forms (n - 1), as SQL Server's STDEV
 * and VAR behind ArcGIS compute them, and NULL for fewer than two values.
 *
 * @module
 */
import { NUMERIC_FIELD_TYPES } from "../types.ts";
import type { AttributeValue, Feature, FieldInfo } from "../types.ts";
import type { MapLayer, OutStatistic } from "./types.ts";
import { InvalidRequestError, member, say } from "../errors.ts";
import { findColumn } from "./_query_records.ts";

/** Statistics resolved against a layer: the fields read and the result columns. */
export interface StatisticsPlan {
  groupBy: FieldInfo[];
  stats: { type: OutStatistic["statisticType"]; field: FieldInfo | null; out: string }[];
  /** Attribute names the query must read. */
  attributeNames: string[];
  /** Result columns: group fields, then one per statistic. */
  fields: FieldInfo[];
}

/**
 * Checks the statistics against the layer's fields.
 *
 * @throws InvalidRequestError for unknown fields, a numeric statistic of a text field, or
 * duplicate result names
 */
export function planStatistics(
  layer: MapLayer,
  outStatistics: readonly OutStatistic[],
  groupBy: readonly string[] = [],
): StatisticsPlan {
  const groups = groupBy.map((g) => findColumn(layer, g, "groupByFieldsForStatistics"));
  const stats = outStatistics.map((s) => {
    const field = s.statisticType === "count" && s.onStatisticField.trim() === "*"
      ? null
      : findColumn(layer, s.onStatisticField, "outStatistics/onStatisticField");
    if (field?.type === "Geometry") {
      throw new InvalidRequestError("outStatistics cannot be computed on the shape field.");
    }
    const numeric = s.statisticType !== "count" && s.statisticType !== "min" &&
      s.statisticType !== "max";
    if (numeric && field && !NUMERIC_FIELD_TYPES.has(field.type)) {
      throw new InvalidRequestError(
        `outStatistics: ${s.statisticType} needs a numeric field; '${field.name}' is ${field.type}.`,
      );
    }
    const out = s.outStatisticFieldName?.trim() ||
      `${s.statisticType}_${field ? field.name : "all"}`;
    return { type: s.statisticType, field, out };
  });
  const names = [...groups.map((g) => g.name), ...stats.map((s) => s.out)];
  const dup = names.find((n, i) =>
    names.findIndex((m) => m.toLowerCase() === n.toLowerCase()) !== i
  );
  if (dup !== undefined) {
    throw new InvalidRequestError(`outStatistics: the result field name '${dup}' is used twice.`);
  }
  const read = new Set<string>();
  for (const f of [...groups, ...stats.map((s) => s.field)]) {
    if (f && f.type !== "OID") read.add(f.name);
  }
  const fields: FieldInfo[] = [
    ...groups,
    ...stats.map((s): FieldInfo => ({
      name: s.out,
      alias: s.out,
      type: s.type === "count"
        ? "Integer"
        : (s.type === "min" || s.type === "max") && s.field
        ? (s.field.type === "OID" ? "Integer" : s.field.type)
        : "Double",
      length: s.field && (s.type === "min" || s.type === "max") ? s.field.length : 0,
      nullable: true,
    })),
  ];
  return { groupBy: groups, stats, attributeNames: [...read], fields };
}

function valueOf(f: Feature, field: FieldInfo): AttributeValue {
  if (field.type === "OID") return f.id;
  const v = f.attributes[field.name];
  return v === undefined ? null : v;
}

function compare(a: AttributeValue, b: AttributeValue): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  const [x, y] = [String(a), String(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

function aggregate(type: OutStatistic["statisticType"], values: AttributeValue[]): AttributeValue {
  const present = values.filter((v) => v !== null);
  if (type === "count") return present.length;
  if (present.length === 0) return null;
  if (type === "min" || type === "max") {
    return present.reduce((m, v) =>
      (type === "min" ? compare(v, m) < 0 : compare(v, m) > 0) ? v : m
    );
  }
  const nums = present.map(Number);
  const sum = nums.reduce((s, v) => s + v, 0);
  if (type === "sum") return sum;
  const mean = sum / nums.length;
  if (type === "avg") return mean;
  if (nums.length < 2) return null;
  const variance = nums.reduce((s, v) => s + (v - mean) ** 2, 0) / (nums.length - 1);
  return type === "var" ? variance : Math.sqrt(variance);
}

/**
 * One row per group (one row in all without groups), ordered by `orderBy`
 * (result field names), then by the group values.
 *
 * @throws InvalidRequestError when `orderBy` names a field the rows do not have
 */
export function computeStatistics(
  features: readonly Feature[],
  plan: StatisticsPlan,
  orderBy: readonly { field: string; descending: boolean }[] = [],
): Feature[] {
  const groups = new Map<string, Feature[]>();
  for (const f of features) {
    const key = JSON.stringify(plan.groupBy.map((g) => valueOf(f, g)));
    let list = groups.get(key);
    if (!list) groups.set(key, list = []);
    list.push(f);
  }
  if (groups.size === 0 && plan.groupBy.length === 0) groups.set("[]", []);
  const rows = [...groups.entries()].map(([key, members], i): Feature => {
    const attributes: Record<string, AttributeValue> = {};
    const keys = JSON.parse(key) as AttributeValue[];
    plan.groupBy.forEach((g, k) => attributes[g.name] = keys[k]);
    for (const s of plan.stats) {
      attributes[s.out] = aggregate(
        s.type,
        members.map((f) => s.field ? valueOf(f, s.field) : f.id),
      );
    }
    return { id: i + 1, attributes, geometry: null };
  });
  const keys = orderBy.map((o) => {
    const field = plan.fields.find((f) => f.name.toLowerCase() === o.field.toLowerCase());
    if (!field) {
      throw new InvalidRequestError(
        say`${member("orderBy")}: '${o.field}' is not a field of the statistics (${
          plan.fields.map((f) => f.name).join(", ")
        }).`,
      );
    }
    return { name: field.name, descending: o.descending };
  });
  for (const g of plan.groupBy) keys.push({ name: g.name, descending: false });
  return rows.sort((a, b) => {
    for (const k of keys) {
      const c = compare(a.attributes[k.name], b.attributes[k.name]);
      if (c !== 0) return k.descending ? -c : c;
    }
    return 0;
  }).map((f, i) => ({ ...f, id: i + 1 }));
}
