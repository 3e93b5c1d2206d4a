import { child, combine, type Ctx, type Loc, type ObjLoc } from "../context.js";
import type { Effect } from "../types.js";
import { compareSlot } from "./slot.js";

export const ARRAY_KEYWORDS = ["items", "prefixItems", "additionalItems", "unevaluatedItems", "contains"];

interface Tuple {
  /** The positional item schemas. */
  positions: Loc[];
  /** What applies to items after the positions. */
  rest: Loc;
}

/** Items in either dialect: draft-07 `items: [...]` + `additionalItems`, or 2020-12 `prefixItems` + `items`. */
function tupleOf(loc: ObjLoc): Tuple {
  const schema = loc.schema;
  if (Array.isArray(schema.prefixItems)) {
    return { positions: schema.prefixItems.map((_, i) => child(loc, "prefixItems", i)), rest: child(loc, "items") };
  }
  if (Array.isArray(schema.items)) {
    return { positions: schema.items.map((_, i) => child(loc, "items", i)), rest: child(loc, "additionalItems") };
  }
  return { positions: [], rest: child(loc, "items") };
}

export function compareArrays(ctx: Ctx, a: ObjLoc, b: ObjLoc): Effect {
  const before = tupleOf(a);
  const after = tupleOf(b);
  const effects: Effect[] = [];
  const count = Math.max(before.positions.length, after.positions.length);
  for (let i = 0; i < count; i++) {
    const x = before.positions[i];
    const y = after.positions[i];
    if (x && y) effects.push(ctx.compare(x, y));
    else if (x) effects.push(compareSlot(ctx, x, after.rest, { tighter: "tuple-item-removed", looser: "tuple-item-removed" }, `tuple item ${i}`));
    else if (y) effects.push(compareSlot(ctx, before.rest, y, { tighter: "tuple-item-added", looser: "tuple-item-added" }, `tuple item ${i}`));
  }
  effects.push(
    compareSlot(ctx, before.rest, after.rest, { tighter: "items-tightened", looser: "items-loosened" }, count > 0 ? "items after the tuple" : "items"),
    compareSlot(ctx, child(a, "unevaluatedItems"), child(b, "unevaluatedItems"), { tighter: "items-tightened", looser: "items-loosened" }, "unevaluatedItems"),
    compareSlot(ctx, child(a, "contains"), child(b, "contains"), { tighter: "items-tightened", looser: "items-loosened" }, "contains"),
  );
  return combine(effects);
}
