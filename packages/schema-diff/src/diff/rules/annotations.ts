import { emit, child, type Ctx, type ObjLoc } from "../context.js";
import { jsonEqual, show } from "../json.js";
import type { Effect } from "../types.js";

/** Keywords that describe but never validate: changing them breaks no reader. */
const ANNOTATIONS = new Set([
  "title",
  "description",
  "default",
  "examples",
  "example",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
  "contentMediaType",
  "contentEncoding",
  "markdownDescription",
  "discriminator",
]);

export function isAnnotation(keyword: string): boolean {
  return ANNOTATIONS.has(keyword) || keyword.startsWith("x-");
}

export function compareAnnotations(ctx: Ctx, a: ObjLoc, b: ObjLoc): Effect {
  const keys = new Set([...Object.keys(a.schema), ...Object.keys(b.schema)].filter(isAnnotation));
  for (const key of [...keys].sort()) {
    const before = a.schema[key];
    const after = b.schema[key];
    if (jsonEqual(before, after)) continue;
    const what = before === undefined ? `added (${show(after)})` : after === undefined ? "removed" : `changed from ${show(before)} to ${show(after)}`;
    emit(ctx, "annotation-changed", child(a, key), child(b, key), "none", `"${key}" ${what}; an annotation, so no reader breaks`);
  }
  return "none";
}
