import { emit, child, combine, type Ctx, type ObjLoc } from "../context.js";
import { canonical, show } from "../json.js";
import type { Effect } from "../types.js";

const ALL_TYPES = ["array", "boolean", "integer", "null", "number", "object", "string"];

function typesOf(schema: Record<string, unknown>): string[] | undefined {
  const type = schema.type;
  if (typeof type === "string") return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === "string");
  return undefined;
}

/** Whether a `type` list admits a type (`number` admits `integer`). */
function admits(types: readonly string[], type: string): boolean {
  return types.includes(type) || (type === "integer" && types.includes("number"));
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value === "object" ? "object" : typeof value;
}

/** The declared `type`, or, without one, the types of the `enum`/`const` values (so adding a `type` that only restates them changes nothing). */
function effectiveTypes(schema: Record<string, unknown>): string[] | undefined {
  const declared = typesOf(schema);
  const values = valuesOf(schema);
  if (declared || !values) return declared;
  return [...new Set(values.map(jsonType))];
}

export function compareType(ctx: Ctx, a: ObjLoc, b: ObjLoc): Effect {
  const before = effectiveTypes(a.schema);
  const after = effectiveTypes(b.schema);
  if (before === undefined && after === undefined) return "none";
  const lost = (before ?? ALL_TYPES).filter((t) => !admits(after ?? ALL_TYPES, t));
  const gained = (after ?? ALL_TYPES).filter((t) => !admits(before ?? ALL_TYPES, t));
  if (lost.length === 0 && gained.length === 0) return "none";
  const describe = (types: string[] | undefined) => (types ? types.join(" | ") : "any type");
  const change = `type ${describe(before)} became ${describe(after)}`;
  const locA = child(a, "type");
  const locB = child(b, "type");
  if (lost.length > 0 && gained.length > 0) {
    return emit(ctx, "type-changed", locA, locB, "incomparable", `${change}: NEW rejects ${lost.join(", ")} and OLD rejects ${gained.join(", ")}`);
  }
  if (lost.length > 0) return emit(ctx, "type-narrowed", locA, locB, "tighter", `${change}: NEW rejects ${lost.join(", ")}`);
  return emit(ctx, "type-widened", locA, locB, "looser", `${change}: OLD rejects ${gained.join(", ")}`);
}

/** The values a schema is limited to by `const` or `enum`, or undefined. */
function valuesOf(schema: Record<string, unknown>): unknown[] | undefined {
  if ("const" in schema) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
}

export function compareValues(ctx: Ctx, a: ObjLoc, b: ObjLoc): Effect {
  const before = valuesOf(a.schema);
  const after = valuesOf(b.schema);
  const keyA = "const" in a.schema ? "const" : "enum";
  const keyB = "const" in b.schema ? "const" : "enum";
  const locA = child(a, keyA);
  const locB = child(b, keyB);
  if (before === undefined && after === undefined) return "none";
  if (before === undefined) {
    return emit(ctx, keyB === "const" ? "const-added" : "enum-added", a, locB, "tighter", `values are now limited to ${show(after)}`);
  }
  if (after === undefined) {
    return emit(ctx, keyA === "const" ? "const-removed" : "enum-removed", locA, b, "looser", `values were limited to ${show(before)} and no longer are`);
  }
  const inAfter = new Set(after.map(canonical));
  const inBefore = new Set(before.map(canonical));
  const removed = before.filter((v) => !inAfter.has(canonical(v)));
  const added = after.filter((v) => !inBefore.has(canonical(v)));
  if (keyA === "const" && keyB === "const") {
    if (removed.length === 0) return "none";
    return emit(ctx, "const-changed", locA, locB, "incomparable", `const changed from ${show(before[0])} to ${show(after[0])}`);
  }
  const effects = [
    ...removed.map((v) => emit(ctx, "enum-value-removed", locA, locB, "tighter", `value ${show(v)} is no longer allowed`)),
    ...added.map((v) => emit(ctx, "enum-value-added", locA, locB, "looser", `value ${show(v)} is now allowed`)),
  ];
  return combine(effects);
}
