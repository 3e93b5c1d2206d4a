import { isRecord } from "../../json-text.js";
import type { JsonObject } from "../../read-schemas.js";
import { child, type Ctx, type Loc } from "../context.js";
import { canonical } from "../json.js";

/**
 * Whether no document matches both schemas, judged from what each plainly requires: their types,
 * their `const`/`enum` values, or a required property whose `const`/`enum` values differ (a
 * discriminator). `$ref`s are followed a few steps. "false" means "not shown", not "overlapping".
 */
export function disjoint(ctx: Ctx, side: "old" | "new", x: Loc, y: Loc): boolean {
  const locA = plain(ctx, side, x);
  const locB = plain(ctx, side, y);
  if (!locA || !locB) return false;
  const [a, b] = [locA.schema, locB.schema];
  const typesA = typesOf(a);
  const typesB = typesOf(b);
  if (typesA && typesB && !typesA.some((t) => typesB.some((u) => overlaps(t, u)))) return true;
  const valuesA = valuesOf(a);
  const valuesB = valuesOf(b);
  if (valuesA && valuesB && !valuesA.some((v) => valuesB.includes(v))) return true;
  return discriminated(ctx, side, locA, locB);
}

/** Every pair of the branches is disjoint: a `oneOf` of them is their `anyOf`. */
export function pairwiseDisjoint(ctx: Ctx, side: "old" | "new", branches: readonly Loc[]): boolean {
  return branches.every((x, i) => branches.slice(i + 1).every((y) => disjoint(ctx, side, x, y)));
}

const overlaps = (t: string, u: string) => t === u || (t === "integer" && u === "number") || (t === "number" && u === "integer");

/** The schema object, past up to four `$ref`s. */
function plain(ctx: Ctx, side: "old" | "new", loc: Loc): (Loc & { schema: JsonObject }) | undefined {
  let current = loc;
  for (let step = 0; step < 4; step++) {
    if (!isRecord(current.schema)) return undefined;
    if (typeof current.schema.$ref !== "string") return current as Loc & { schema: JsonObject };
    try {
      const target = ctx[side].resolve(current.schema.$ref, current.file, current.pointer);
      current = { file: target.file, pointer: target.pointer, schema: target.schema };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function typesOf(schema: JsonObject): string[] | undefined {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === "string");
  const values = valuesOf(schema);
  return values?.map((v) => {
    const value = JSON.parse(v) as unknown;
    return value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "number" ? (Number.isInteger(value) ? "integer" : "number") : typeof value;
  });
}

/** The allowed values, as canonical JSON, when `const` or `enum` lists them. */
function valuesOf(schema: JsonObject): string[] | undefined {
  if ("const" in schema) return [canonical(schema.const)];
  return Array.isArray(schema.enum) ? schema.enum.map(canonical) : undefined;
}

function discriminated(ctx: Ctx, side: "old" | "new", locA: Loc & { schema: JsonObject }, locB: Loc & { schema: JsonObject }): boolean {
  const required = (s: JsonObject) => (Array.isArray(s.required) ? s.required : []);
  const properties = (s: JsonObject) => (isRecord(s.properties) ? s.properties : {});
  const [a, b] = [locA.schema, locB.schema];
  return Object.keys(properties(a)).some((name) => {
    if (!required(a).includes(name) || !required(b).includes(name) || !(name in properties(b))) return false;
    const x = plain(ctx, side, child(locA, "properties", name));
    const y = plain(ctx, side, child(locB, "properties", name));
    const valuesA = x && valuesOf(x.schema);
    const valuesB = y && valuesOf(y.schema);
    return valuesA !== undefined && valuesB !== undefined && !valuesA.some((v) => valuesB.includes(v));
  });
}
