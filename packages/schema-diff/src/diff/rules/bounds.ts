import { emit, child, combine, type Ctx, type ObjLoc } from "../context.js";
import type { Effect } from "../types.js";
import { acceptsExactly } from "../normalize.js";
import { patternWidens, patternWrapsWidened } from "./pattern-inclusion.js";

interface Bound {
  value: number;
  exclusive: boolean;
  keyword: string;
}

const num = (value: unknown) => (typeof value === "number" ? value : undefined);

/** The effective lower (or upper) numeric bound, from the inclusive and the exclusive keyword. */
function numericBound(schema: Record<string, unknown>, side: "lower" | "upper"): Bound | undefined {
  const [inclusive, exclusive] = side === "lower" ? ["minimum", "exclusiveMinimum"] : ["maximum", "exclusiveMaximum"];
  const inc = num(schema[inclusive]);
  const exc = num(schema[exclusive]);
  const tighterOf = (x: number, y: number) => (side === "lower" ? x > y : x < y);
  if (inc === undefined && exc === undefined) return undefined;
  if (exc === undefined || (inc !== undefined && tighterOf(inc, exc))) return { value: inc!, exclusive: false, keyword: inclusive };
  return { value: exc, exclusive: true, keyword: exclusive };
}

/**
 * Whether one side lists its values (`enum`, `const`) and each meets `check`, a bound of the other
 * side: then that bound restricts nothing the listing side accepts (jscpd's formats: a list became
 * `{type: "string", minLength: 1}`, which every listed format meets).
 */
function metByListed(listing: ObjLoc, check: Record<string, unknown>): boolean {
  const values = "const" in listing.schema ? [listing.schema.const] : Array.isArray(listing.schema.enum) ? listing.schema.enum : undefined;
  return values !== undefined && values.every((value) => acceptsExactly(check, value) === true);
}

const MET_BY_LISTED = "; every value the other side lists meets it";

/** Positive when `after` admits fewer values than `before`. */
function boundEffect(before: Bound | undefined, after: Bound | undefined, side: "lower" | "upper"): Effect {
  if (!before && !after) return "none";
  if (!before) return "tighter";
  if (!after) return "looser";
  if (before.value === after.value) return before.exclusive === after.exclusive ? "none" : after.exclusive ? "tighter" : "looser";
  const raised = after.value > before.value;
  return side === "lower" ? (raised ? "tighter" : "looser") : raised ? "looser" : "tighter";
}

function describeBound(bound: Bound | undefined, side: "lower" | "upper"): string {
  if (!bound) return "none";
  return `${side === "lower" ? (bound.exclusive ? ">" : ">=") : bound.exclusive ? "<" : "<="} ${bound.value}`;
}

function compareNumericBound(ctx: Ctx, a: ObjLoc, b: ObjLoc, side: "lower" | "upper"): Effect {
  const before = numericBound(a.schema, side);
  const after = numericBound(b.schema, side);
  const effect = boundEffect(before, after, side);
  if (effect === "none") return "none";
  const locA = before ? child(a, before.keyword) : a;
  const locB = after ? child(b, after.keyword) : b;
  const message = `${side === "lower" ? "lower" : "upper"} bound ${describeBound(before, side)} became ${describeBound(after, side)}`;
  if (effect === "tighter" && after && metByListed(a, { [after.keyword]: after.value })) return emit(ctx, "bound-tightened", locA, locB, "none", message + MET_BY_LISTED);
  if (effect === "looser" && before && metByListed(b, { [before.keyword]: before.value })) return emit(ctx, "bound-loosened", locA, locB, "none", message + MET_BY_LISTED);
  return emit(ctx, effect === "tighter" ? "bound-tightened" : "bound-loosened", locA, locB, effect, message);
}

/** Length and count bounds: a larger minimum or a smaller maximum admits fewer documents. */
const COUNT_BOUNDS: [string, "lower" | "upper", string][] = [
  ["minLength", "lower", "string length"],
  ["maxLength", "upper", "string length"],
  ["minItems", "lower", "array length"],
  ["maxItems", "upper", "array length"],
  ["minProperties", "lower", "property count"],
  ["maxProperties", "upper", "property count"],
  ["minContains", "lower", "matching item count"],
  ["maxContains", "upper", "matching item count"],
];

export const BOUND_KEYWORDS = ["minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf", "uniqueItems", "pattern", "format", ...COUNT_BOUNDS.map(([k]) => k)];

export function compareBounds(ctx: Ctx, a: ObjLoc, b: ObjLoc): Effect {
  const effects: Effect[] = [compareNumericBound(ctx, a, b, "lower"), compareNumericBound(ctx, a, b, "upper")];
  for (const [keyword, side, what] of COUNT_BOUNDS) {
    // An absent lower count bound is its default (0, or 1 for minContains), not "no bound":
    // spelling out `minLength: 0` changes nothing, and `minContains: 0` loosens.
    const fallback = side === "lower" ? (keyword === "minContains" ? 1 : 0) : undefined;
    const before = num(a.schema[keyword]) ?? fallback;
    const after = num(b.schema[keyword]) ?? fallback;
    const effect = boundEffect(
      before === undefined ? undefined : { value: before, exclusive: false, keyword },
      after === undefined ? undefined : { value: after, exclusive: false, keyword },
      side,
    );
    if (effect === "none") continue;
    const message = `${keyword} (${what}) ${before ?? "none"} became ${after ?? "none"}`;
    if (effect === "tighter" ? metByListed(a, { [keyword]: after }) : metByListed(b, { [keyword]: before })) {
      effects.push(emit(ctx, effect === "tighter" ? "bound-tightened" : "bound-loosened", child(a, keyword), child(b, keyword), "none", message + MET_BY_LISTED));
      continue;
    }
    effects.push(emit(ctx, effect === "tighter" ? "bound-tightened" : "bound-loosened", child(a, keyword), child(b, keyword), effect, message));
  }
  effects.push(compareMultipleOf(ctx, a, b), compareUniqueItems(ctx, a, b), compareStringKeyword(ctx, a, b, "pattern"), compareStringKeyword(ctx, a, b, "format"));
  return combine(effects);
}

function compareMultipleOf(ctx: Ctx, a: ObjLoc, b: ObjLoc): Effect {
  const before = num(a.schema.multipleOf);
  const after = num(b.schema.multipleOf);
  if (before === after) return "none";
  const isMultiple = (x: number, of: number) => Number.isInteger(Number((x / of).toPrecision(12)));
  const effect: Effect =
    before === undefined ? "tighter" : after === undefined ? "looser" : isMultiple(after, before) ? "tighter" : isMultiple(before, after) ? "looser" : "incomparable";
  const kind = effect === "tighter" ? "bound-tightened" : effect === "looser" ? "bound-loosened" : "bound-changed";
  return emit(ctx, kind, child(a, "multipleOf"), child(b, "multipleOf"), effect, `multipleOf ${before ?? "none"} became ${after ?? "none"}`);
}

function compareUniqueItems(ctx: Ctx, a: ObjLoc, b: ObjLoc): Effect {
  const before = a.schema.uniqueItems === true;
  const after = b.schema.uniqueItems === true;
  if (before === after) return "none";
  return after
    ? emit(ctx, "bound-tightened", child(a, "uniqueItems"), child(b, "uniqueItems"), "tighter", "items must now be unique")
    : emit(ctx, "bound-loosened", child(a, "uniqueItems"), child(b, "uniqueItems"), "looser", "items no longer need to be unique");
}

/**
 * `pattern` and `format`: adding one restricts, removing one relaxes, replacing one does both,
 * unless the new pattern only adds alternatives to the old one (or only drops some), or wraps a
 * part of it in a group with an alternative that accepts at least that part (or the reverse).
 */
function compareStringKeyword(ctx: Ctx, a: ObjLoc, b: ObjLoc, keyword: "pattern" | "format"): Effect {
  const before = a.schema[keyword];
  const after = b.schema[keyword];
  if (before === after) return "none";
  const locA = child(a, keyword);
  const locB = child(b, keyword);
  if (before === undefined) {
    const met = keyword === "pattern" && metByListed(a, { pattern: after });
    return emit(ctx, `${keyword}-added`, locA, locB, met ? "none" : "tighter", `${keyword} ${JSON.stringify(after)} added${met ? MET_BY_LISTED : ""}`);
  }
  if (after === undefined) {
    const met = keyword === "pattern" && metByListed(b, { pattern: before });
    return emit(ctx, `${keyword}-removed`, locA, locB, met ? "none" : "looser", `${keyword} ${JSON.stringify(before)} removed${met ? MET_BY_LISTED : ""}`);
  }
  const message = `${keyword} changed from ${JSON.stringify(before)} to ${JSON.stringify(after)}`;
  if (keyword === "pattern" && typeof before === "string" && typeof after === "string") {
    if (patternWidens(before, after)) return emit(ctx, "pattern-changed", locA, locB, "looser", `${message}: it keeps every alternative and adds some`);
    if (patternWidens(after, before)) return emit(ctx, "pattern-changed", locA, locB, "tighter", `${message}: it drops alternatives and adds none`);
    if (patternWrapsWidened(before, after)) return emit(ctx, "pattern-changed", locA, locB, "looser", `${message}: the changed part became a group one of whose alternatives accepts at least what it did`);
    if (patternWrapsWidened(after, before)) return emit(ctx, "pattern-changed", locA, locB, "tighter", `${message}: a group became one of its alternatives, or less`);
  }
  return emit(ctx, `${keyword}-changed`, locA, locB, "incomparable", message);
}
