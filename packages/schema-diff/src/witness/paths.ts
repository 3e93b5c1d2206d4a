import { isRecord } from "../json-text.js";
import type { JsonObject } from "../read-schemas.js";
import { child, type Loc } from "../diff/context.js";
import type { SchemaSide } from "../diff/load.js";
import { matching } from "./pattern.js";

/**
 * How a document reaches each subschema from a root: the shortest chain of steps, each into a
 * property, an array item, or in place (a branch, a conjunct, a `$ref`). Built once per root, by a
 * breadth-first walk over the root's normal form and every schema its `$ref`s reach; bounded.
 */

export type Step = { kind: "in-place" } | { kind: "key"; key: string } | { kind: "index"; index: number };

export interface Arrival {
  loc: Loc;
  /** The locations it was reached from (the first is on a shortest way), and how; empty for the root. */
  from: { key: string; step: Step }[];
}

/** Ways into one location that are kept: a subschema shared by `$ref` may matter on one way only. */
const MAX_WAYS_IN = 4;

/** An instance key no schema declares, for `additionalProperties`. */
export const UNDECLARED = "x-flowspec-witness";

const MAX_LOCATIONS = 200_000;

export function reachable(side: SchemaSide, root: Loc): Map<string, Arrival> {
  const arrivals = new Map<string, Arrival>();
  const keyOf = (loc: Loc) => `${loc.file.uri}#${loc.pointer}`;
  const queue: Loc[] = [root];
  arrivals.set(keyOf(root), { loc: root, from: [] });
  const visit = (from: Loc, to: Loc, step: Step) => {
    if (to.schema === undefined || to.schema === false) return;
    const key = keyOf(to);
    const known = arrivals.get(key);
    if (known) {
      // The root is where every way starts: a `$ref: "#"` back to it is no way in.
      if (known.from.length === 0) return;
      const same = (f: { key: string; step: Step }) => f.key === keyOf(from) && JSON.stringify(f.step) === JSON.stringify(step);
      if (known.from.length < MAX_WAYS_IN && !known.from.some(same)) known.from.push({ key: keyOf(from), step });
      return;
    }
    if (arrivals.size >= MAX_LOCATIONS) return;
    arrivals.set(key, { loc: to, from: [{ key: keyOf(from), step }] });
    queue.push(to);
  };
  for (let head = 0; head < queue.length; head++) {
    const loc = queue[head]!;
    if (!isRecord(loc.schema)) continue;
    const schema: JsonObject = loc.schema;
    const inPlace: Step = { kind: "in-place" };
    if (typeof schema.$ref === "string") {
      try {
        const target = side.resolve(schema.$ref, loc.file, loc.pointer);
        visit(loc, { file: target.file, pointer: target.pointer, schema: target.schema }, inPlace);
      } catch {
        // A $ref that does not resolve was refused when the side was loaded.
      }
    }
    for (const keyword of ["allOf", "anyOf", "oneOf"]) {
      const list = schema[keyword];
      if (Array.isArray(list)) list.forEach((_, i) => visit(loc, child(loc, keyword, i), inPlace));
    }
    for (const keyword of ["if", "then", "else"]) visit(loc, child(loc, keyword), inPlace);
    for (const keyword of ["dependentSchemas", "dependencies"]) {
      const map = isRecord(schema[keyword]) ? (schema[keyword] as JsonObject) : {};
      for (const [name, sub] of Object.entries(map)) if (!Array.isArray(sub)) visit(loc, child(loc, keyword, name), inPlace);
    }
    const properties = isRecord(schema.properties) ? schema.properties : {};
    for (const name of Object.keys(properties)) visit(loc, child(loc, "properties", name), { kind: "key", key: name });
    const patterns = isRecord(schema.patternProperties) ? schema.patternProperties : {};
    for (const pattern of Object.keys(patterns)) {
      const key = matching(pattern);
      if (key !== undefined && !(key in properties)) visit(loc, child(loc, "patternProperties", pattern), { kind: "key", key });
    }
    // Undeclared names: one no pattern is likely to match, and the empty one (which `.+` does not).
    for (const keyword of ["additionalProperties", "unevaluatedProperties"]) for (const key of [UNDECLARED, ""]) visit(loc, child(loc, keyword), { kind: "key", key });
    const positions = Array.isArray(schema.prefixItems) ? "prefixItems" : Array.isArray(schema.items) ? "items" : undefined;
    const count = positions ? (schema[positions] as unknown[]).length : 0;
    for (let i = 0; i < count; i++) visit(loc, child(loc, positions!, i), { kind: "index", index: i });
    visit(loc, child(loc, positions === "items" ? "additionalItems" : "items"), { kind: "index", index: count });
    visit(loc, child(loc, "contains"), { kind: "index", index: 0 });
  }
  return arrivals;
}

/**
 * Ways from the root to a location (at most `limit`, the shortest first), each as the locations
 * passed and the steps between them; [] when the walk did not reach it.
 */
export function waysTo(arrivals: Map<string, Arrival>, key: string, limit: number): { locs: Loc[]; steps: Step[] }[] {
  const ways: { locs: Loc[]; steps: Step[] }[] = [];
  const walk = (at: string, locs: Loc[], steps: Step[], seen: Set<string>) => {
    const arrival = arrivals.get(at);
    if (!arrival || ways.length >= limit) return;
    if (arrival.from.length === 0) {
      ways.push({ locs: [arrival.loc, ...locs], steps });
      return;
    }
    for (const from of arrival.from) {
      if (seen.has(from.key)) continue;
      walk(from.key, [arrival.loc, ...locs], [from.step, ...steps], new Set([...seen, from.key]));
      if (ways.length >= limit) return;
    }
  };
  walk(key, [], [], new Set([key]));
  return ways;
}
