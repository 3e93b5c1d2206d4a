import { isRecord } from "../../json-text.js";
import { child, combine, emit, quote, type Ctx, type Loc, type ObjLoc } from "../context.js";
import type { Effect } from "../types.js";

export const DEFS_KEYWORDS = ["$defs", "definitions"];

/** Named definitions of either keyword (a draft-07 → 2020-12 move from `definitions` to `$defs` keeps names). */
function defsOf(loc: ObjLoc): Map<string, Loc> {
  const defs = new Map<string, Loc>();
  for (const keyword of DEFS_KEYWORDS) {
    const map = loc.schema[keyword];
    if (isRecord(map)) for (const name of Object.keys(map)) if (!defs.has(name)) defs.set(name, child(loc, keyword, name));
  }
  return defs;
}

/**
 * Definitions are compared in place, whether or not anything references them: each is a type of
 * the generated code, and other schemas may `$ref` it. Removing one removes that type: breaking for
 * code that imports it (`breaking.forCode`), while no document's verdict changes (a `$ref` NEW still
 * had to it would not resolve, and one OLD had is compared where it stands).
 */
export function compareDefs(ctx: Ctx, a: ObjLoc, b: ObjLoc): Effect {
  const before = defsOf(a);
  const after = defsOf(b);
  const effects: Effect[] = [];
  for (const name of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const x = before.get(name);
    const y = after.get(name);
    if (x && y) effects.push(ctx.compare(x, y));
    else if (x) effects.push(emit(ctx, "def-removed", x, b, "none", `definition ${quote(name)} removed: its generated type and any $ref to it are gone`));
    else if (y) effects.push(emit(ctx, "def-added", a, y, "none", `definition ${quote(name)} added`));
  }
  return combine(effects);
}
