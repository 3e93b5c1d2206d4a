import { isRecord } from "../../json-text.js";
import { emit, type Ctx, type Loc } from "../context.js";
import type { ChangeKind, Effect } from "../types.js";
import { isAnnotation } from "./annotations.js";

type SlotState = "open" | "closed" | "schema";

/** Absent, `true` and a schema with no validating keyword accept everything; `false` accepts nothing. */
export function slotState(value: unknown): SlotState {
  if (value === undefined || value === true) return "open";
  if (value === false) return "closed";
  if (isRecord(value) && Object.keys(value).every(isAnnotation)) return "open";
  return "schema";
}

const DESCRIBE: Record<SlotState, string> = { open: "allows anything", closed: "allows nothing", schema: "is constrained by a schema" };

/**
 * Compares an optional subschema keyword (`additionalProperties`, `items`, a tuple position...):
 * opening or closing it is a change of its own; two schemas are compared keyword by keyword.
 */
export function compareSlot(ctx: Ctx, a: Loc, b: Loc, kinds: { tighter: ChangeKind; looser: ChangeKind }, what: string): Effect {
  const before = slotState(a.schema);
  const after = slotState(b.schema);
  if (before === "schema" && after === "schema") return ctx.compare(a, b);
  if (before === after) return "none";
  const tighter = after === "closed" || (before === "open" && after === "schema");
  const message = `${what} ${DESCRIBE[before]} in OLD and ${DESCRIBE[after]} in NEW`;
  return emit(ctx, tighter ? kinds.tighter : kinds.looser, a, b, tighter ? "tighter" : "looser", message);
}
