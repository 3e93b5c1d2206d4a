import { pairUp } from "../pair.js";
import { isRecord } from "../../config.js";
import { child, combine, emit, flip, type Ctx, type Loc, type ObjLoc } from "../context.js";
import { canonical, jsonEqual } from "../json.js";
import type { Effect } from "../types.js";
import { slotState } from "./slot.js";

export const COMBINATOR_KEYWORDS = ["anyOf", "oneOf", "allOf", "not", "if", "then", "else"];

/** How a branch is recognised after an edit: its `$ref`, its `title`, or the `const`s that discriminate it. */
function signature(schema: unknown): string | undefined {
  if (!isRecord(schema)) return undefined;
  if (typeof schema.$ref === "string") return `ref:${schema.$ref}`;
  if (typeof schema.title === "string") return `title:${schema.title}`;
  const consts = Object.entries(isRecord(schema.properties) ? schema.properties : {})
    .filter(([, sub]) => isRecord(sub) && "const" in sub)
    .map(([name, sub]) => `${name}=${canonical((sub as Record<string, unknown>).const)}`);
  return consts.length > 0 ? `const:${consts.sort().join(",")}` : undefined;
}

/**
 * Pairs the entries of two subschema lists: equal entries first, then entries with the same
 * signature, then a last unmatched pair (an edited entry). The rest are added or removed.
 */
function pairLists(before: Loc[], after: Loc[]): { pairs: [Loc, Loc][]; removed: Loc[]; added: Loc[] } {
  const pairing = pairUp(before, after)
    .take((x, y) => jsonEqual(x.schema, y.schema))
    .take((x, y) => signature(x.schema) !== undefined && signature(x.schema) === signature(y.schema));
  if (pairing.removed.length === 1 && pairing.added.length === 1) pairing.pairs.push([pairing.removed.pop()!, pairing.added.pop()!]);
  return pairing;
}

const listOf = (loc: ObjLoc, keyword: string): Loc[] => (Array.isArray(loc.schema[keyword]) ? (loc.schema[keyword] as unknown[]).map((_, i) => child(loc, keyword, i)) : []);

/** `anyOf`/`oneOf`: a removed branch admits fewer documents, an added one more. */
function compareUnion(ctx: Ctx, a: ObjLoc, b: ObjLoc, keywordA: string, keywordB: string): Effect {
  const hasA = Array.isArray(a.schema[keywordA]);
  const hasB = Array.isArray(b.schema[keywordB]);
  if (!hasA && !hasB) return "none";
  if (!hasA) return emit(ctx, "union-added", a, child(b, keywordB), "tighter", `"${keywordB}" added: documents must now match one of its branches`);
  if (!hasB) return emit(ctx, "union-removed", child(a, keywordA), b, "looser", `"${keywordA}" removed: documents no longer need to match one of its branches`);
  const effects: Effect[] = [];
  if (keywordA !== keywordB) {
    const tighter = keywordB === "oneOf";
    effects.push(emit(ctx, "keyword-changed", child(a, keywordA), child(b, keywordB), tighter ? "tighter" : "looser", `"${keywordA}" became "${keywordB}": ${tighter ? "NEW rejects documents that match several branches" : "OLD rejects documents that match several branches"}`));
  }
  const { pairs, removed, added } = pairLists(listOf(a, keywordA), listOf(b, keywordB));
  for (const [x, y] of pairs) effects.push(ctx.compare(x, y));
  for (const x of removed) effects.push(emit(ctx, "branch-removed", x, child(b, keywordB), "tighter", `${keywordA} branch ${x.pointer.split("/").pop()} removed: NEW rejects documents that only it matched`));
  for (const y of added) effects.push(emit(ctx, "branch-added", child(a, keywordA), y, "looser", `${keywordB} branch ${y.pointer.split("/").pop()} added: OLD rejects documents that only it matches`));
  return combine(...effects);
}

/** `allOf`: every conjunct must hold, so an added conjunct restricts and a removed one relaxes. */
function compareAllOf(ctx: Ctx, a: ObjLoc, b: ObjLoc): Effect {
  const { pairs, removed, added } = pairLists(listOf(a, "allOf"), listOf(b, "allOf"));
  const effects = pairs.map(([x, y]) => ctx.compare(x, y));
  for (const x of removed) if (slotState(x.schema) !== "open") effects.push(emit(ctx, "conjunct-removed", x, child(b, "allOf"), "looser", `allOf entry ${x.pointer.split("/").pop()} removed: OLD may reject documents NEW accepts`));
  for (const y of added) if (slotState(y.schema) !== "open") effects.push(emit(ctx, "conjunct-added", child(a, "allOf"), y, "tighter", `allOf entry ${y.pointer.split("/").pop()} added: NEW may reject documents OLD accepted`));
  return combine(...effects);
}

function compareNot(ctx: Ctx, a: ObjLoc, b: ObjLoc): Effect {
  const x = child(a, "not");
  const y = child(b, "not");
  if (x.schema === undefined && y.schema === undefined) return "none";
  if (x.schema === undefined) return emit(ctx, "keyword-changed", a, y, "tighter", `"not" added: NEW rejects documents that match it`);
  if (y.schema === undefined) return emit(ctx, "keyword-changed", x, b, "looser", `"not" removed: OLD rejects documents that match it`);
  ctx.negated = !ctx.negated;
  try {
    return flip(ctx.compare(x, y));
  } finally {
    ctx.negated = !ctx.negated;
  }
}

/** `if`/`then`/`else` are compared as a whole: any edit may restrict some documents and relax others. */
function compareConditional(ctx: Ctx, a: ObjLoc, b: ObjLoc): Effect {
  const pick = (s: Record<string, unknown>) => ({ if: s.if, then: s.then, else: s.else });
  if (jsonEqual(pick(a.schema), pick(b.schema))) return "none";
  const key = ["if", "then", "else"].find((k) => !jsonEqual(a.schema[k], b.schema[k]))!;
  return emit(ctx, "keyword-changed", child(a, key), child(b, key), "incomparable", `the if/then/else condition changed ("${key}"); counted as breaking both ways`);
}

export function compareCombinators(ctx: Ctx, a: ObjLoc, b: ObjLoc): Effect {
  const unionA = ["oneOf", "anyOf"].filter((k) => Array.isArray(a.schema[k]));
  const unionB = ["oneOf", "anyOf"].filter((k) => Array.isArray(b.schema[k]));
  const effects: Effect[] = [];
  if (unionA.length === 1 && unionB.length === 1 && unionA[0] !== unionB[0]) {
    effects.push(compareUnion(ctx, a, b, unionA[0]!, unionB[0]!));
  } else {
    effects.push(compareUnion(ctx, a, b, "anyOf", "anyOf"), compareUnion(ctx, a, b, "oneOf", "oneOf"));
  }
  effects.push(compareAllOf(ctx, a, b), compareNot(ctx, a, b), compareConditional(ctx, a, b));
  return combine(...effects);
}
