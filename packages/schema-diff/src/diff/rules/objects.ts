import { isRecord } from "../../json-text.js";
import { child, combine, emit, quote, type Ctx, type Loc, type ObjLoc } from "../context.js";
import { canonical } from "../json.js";
import { requiredOrigin } from "../normalize.js";
import type { Effect } from "../types.js";
import { probe } from "./combinators.js";
import { compareSlot, slotState } from "./slot.js";

export const OBJECT_KEYWORDS = ["properties", "required", "additionalProperties", "patternProperties", "propertyNames", "unevaluatedProperties", "dependentRequired", "dependentSchemas", "dependencies"];

const record = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

/**
 * What applies to a property a schema does not declare: the first matching `patternProperties`
 * entry, else `additionalProperties`, else (2020-12) `unevaluatedProperties` (absent means anything).
 */
function undeclared(loc: ObjLoc, name: string): Loc {
  for (const pattern of Object.keys(record(loc.schema.patternProperties)).sort()) {
    try {
      if (new RegExp(pattern, "u").test(name)) return child(loc, "patternProperties", pattern);
    } catch {
      // An invalid pattern matches nothing here; the keyword comparison reports its change.
    }
  }
  // unevaluatedProperties sees only what no applicator evaluated; where a subschema in place may
  // still declare the name (or a $ref we do not follow here might), it is left as "anything".
  if (loc.schema.additionalProperties === undefined && loc.schema.unevaluatedProperties !== undefined && !mayEvaluate(loc.file.nodeAt(loc.pointer), name) && !mayEvaluate(loc.schema, name)) {
    return child(loc, "unevaluatedProperties");
  }
  return child(loc, "additionalProperties");
}

/** Whether a property name may be evaluated by a subschema applied in place (allOf, anyOf, oneOf, if/then/else, dependentSchemas, $ref). */
function mayEvaluate(schema: unknown, name: string): boolean {
  if (!isRecord(schema)) return false;
  if (typeof schema.$ref === "string" || typeof schema.$dynamicRef === "string") return true;
  const inPlace = [
    ...["allOf", "anyOf", "oneOf"].flatMap((k) => (Array.isArray(schema[k]) ? (schema[k] as unknown[]) : [])),
    schema.if,
    schema.then,
    schema.else,
    ...Object.values(record(schema.dependentSchemas)),
  ];
  return inPlace.some(
    (sub) =>
      isRecord(sub) &&
      (name in record(sub.properties) || Object.keys(record(sub.patternProperties)).length > 0 || sub.additionalProperties !== undefined || sub.unevaluatedProperties !== undefined || mayEvaluate(sub, name)),
  );
}

/** The `required` list that names a property, where the file has it (a normal form gathers names from `allOf` entries). */
function requiredAt(loc: ObjLoc, name: string): Loc {
  const list = child(loc, "required");
  const origin = requiredOrigin(loc.schema.required, name);
  return origin ? { ...list, pointer: origin } : list;
}

export function compareObjects(ctx: Ctx, a: ObjLoc, b: ObjLoc): Effect {
  const effects: Effect[] = [];
  const before = record(a.schema.properties);
  const after = record(b.schema.properties);
  for (const name of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const locA = child(a, "properties", name);
    const locB = child(b, "properties", name);
    if (name in before && name in after) {
      effects.push(ctx.compare(locA, locB));
    } else if (name in before) {
      // Writers generated from NEW no longer write it; what NEW readers do with it depends on what
      // now applies to undeclared properties.
      const rest = undeclared(b, name);
      const state = slotState(rest.schema);
      if (state === "open") {
        // NEW accepts any value under the name, where OLD accepted only its schema's: breaking under strict.
        const underStrict = declaredAround(b, name) ? "none" : probe(ctx, locA, rest);
        const effect = ctx.strict ? underStrict : "none";
        const message =
          effect !== "none"
            ? `property ${quote(name)} removed; NEW accepts any value under it, and OLD rejects documents whose value there its schema refused (strict)`
            : underStrict !== "none"
              ? `property ${quote(name)} removed; NEW accepts it as an undeclared property of any value (breaking only under --strict: NEW writers may now put any value there)`
              : `property ${quote(name)} removed; NEW accepts it as an undeclared property`;
        effects.push(emit(ctx, "property-removed", locA, b, effect, message));
        if (underStrict !== "none" && !ctx.strict) markOnlyUnderStrict(ctx);
      } else if (state === "closed") {
        effects.push(emit(ctx, "property-removed", locA, b, "tighter", `property ${quote(name)} removed and undeclared properties are not allowed: NEW rejects documents that carry it`));
      } else {
        const effect = ctx.compare(locA, rest);
        effects.push(emit(ctx, "property-removed", locA, b, effect, `property ${quote(name)} removed; NEW checks it against ${rest.pointer.split("/").slice(-2).join("/")}`));
      }
    } else {
      const rest = undeclared(a, name);
      const state = slotState(rest.schema);
      if (state === "open") {
        // OLD accepted any value under the name. By default that breaks no one (writers write only
        // the properties their schema declares); strict counts the documents that used the name.
        const underStrict = declaredAround(a, name) ? "none" : probe(ctx, rest, locB);
        const effect = ctx.strict ? underStrict : "none";
        const message =
          effect !== "none"
            ? `property ${quote(name)} added where OLD accepts any value under it: NEW rejects documents that already use it with a value it refuses (strict)`
            : underStrict !== "none"
              ? `property ${quote(name)} added; OLD accepts it as an undeclared property of any value (breaking only under --strict: documents may already use it with another value)`
              : `property ${quote(name)} added; OLD accepts it as an undeclared property`;
        effects.push(emit(ctx, "property-added", a, locB, effect, message));
        if (underStrict !== "none" && !ctx.strict) markOnlyUnderStrict(ctx);
      } else if (state === "closed") {
        effects.push(emit(ctx, "property-added", a, locB, "looser", `property ${quote(name)} added where OLD allows no undeclared properties: OLD rejects documents that carry it`));
      } else {
        const effect = ctx.compare(rest, locB);
        effects.push(emit(ctx, "property-added", a, locB, effect, `property ${quote(name)} added; OLD checked it against ${rest.pointer.split("/").slice(-2).join("/")}`));
      }
    }
  }

  const requiredBefore = strings(a.schema.required);
  const requiredAfter = strings(b.schema.required);
  for (const name of requiredAfter.filter((n) => !requiredBefore.includes(n))) {
    effects.push(emit(ctx, "required-added", requiredAt(a, name), requiredAt(b, name), "tighter", `property ${quote(name)} is now required: NEW rejects documents without it`));
  }
  for (const name of requiredBefore.filter((n) => !requiredAfter.includes(n))) {
    effects.push(emit(ctx, "required-removed", requiredAt(a, name), requiredAt(b, name), "looser", `property ${quote(name)} is no longer required: OLD rejects documents without it`));
  }

  effects.push(
    compareSlot(ctx, child(a, "additionalProperties"), child(b, "additionalProperties"), { tighter: "additional-properties-tightened", looser: "additional-properties-loosened" }, "additionalProperties"),
    compareSlot(ctx, child(a, "unevaluatedProperties"), child(b, "unevaluatedProperties"), { tighter: "additional-properties-tightened", looser: "additional-properties-loosened" }, "unevaluatedProperties"),
    compareSlot(ctx, child(a, "propertyNames"), child(b, "propertyNames"), { tighter: "keyword-changed", looser: "keyword-changed" }, "propertyNames"),
    compareSchemaMap(ctx, a, b, "patternProperties", "pattern property"),
    compareDependents(ctx, a, b),
  );
  return combine(effects);
}

/**
 * Whether a schema around a branch (it being an `allOf`/`anyOf`/`oneOf` entry or `then`/`else`)
 * declares the property: then the branch only adds to what that schema says of it, and strict mode
 * does not read the branch's "undeclared" as "any value".
 */
function declaredAround(loc: ObjLoc, name: string): boolean {
  let pointer = loc.pointer;
  for (;;) {
    const m = /\/(?:(?:allOf|anyOf|oneOf)\/\d+|then|else)$/.exec(pointer);
    if (!m) return false;
    pointer = pointer.slice(0, m.index);
    const around = loc.file.nodeAt(pointer);
    if (isRecord(around) && isRecord(around.properties) && name in around.properties) return true;
  }
}

/** The change just recorded breaks someone only under strict mode (`SchemaChange.onlyUnderStrict`). */
function markOnlyUnderStrict(ctx: Ctx): void {
  const change = ctx.changes.at(-1);
  if (change) change.onlyUnderStrict = true;
}

/** Whether a schema has `patternProperties`: without them, what a pattern matched falls to `additionalProperties`. */
const hasPatterns = (loc: ObjLoc) => Object.keys(record(loc.schema.patternProperties)).length > 0;

/**
 * A map of subschemas where each entry constrains more documents (patternProperties,
 * dependentSchemas). A pattern added where there was none takes names from `additionalProperties`
 * (and gives them back when removed), so it is compared with that.
 */
function compareSchemaMap(ctx: Ctx, a: ObjLoc, b: ObjLoc, keyword: string, what: string): Effect {
  const before = record(a.schema[keyword]);
  const after = record(b.schema[keyword]);
  const effects: Effect[] = [];
  for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const locA = child(a, keyword, key);
    const locB = child(b, keyword, key);
    if (key in before && key in after) effects.push(ctx.compare(locA, locB));
    else if (key in after) effects.push(emit(ctx, "keyword-changed", a, locB, keyword === "patternProperties" && !hasPatterns(a) ? probe(ctx, child(a, "additionalProperties"), locB) : slotState(after[key]) === "open" ? "none" : "tighter", `${what} ${quote(key)} added`));
    else effects.push(emit(ctx, "keyword-changed", locA, b, keyword === "patternProperties" && !hasPatterns(b) ? probe(ctx, locA, child(b, "additionalProperties")) : slotState(before[key]) === "open" ? "none" : "looser", `${what} ${quote(key)} removed`));
  }
  return combine(effects);
}

/**
 * What each property's presence brings in, in either dialect: draft-07 `dependencies` holds names
 * and schemas, 2020-12 splits them into `dependentRequired` and `dependentSchemas`, so a dialect
 * move pairs by property name.
 */
function dependentsOf(loc: ObjLoc): Map<string, Loc> {
  const dependents = new Map<string, Loc>();
  for (const keyword of ["dependentRequired", "dependentSchemas", "dependencies"]) {
    for (const key of Object.keys(record(loc.schema[keyword]))) if (!dependents.has(key)) dependents.set(key, child(loc, keyword, key));
  }
  return dependents;
}

/** Dependent names as the schema they amount to, so names compare with a dependent schema. */
const asSchema = (loc: Loc): Loc => (Array.isArray(loc.schema) ? { ...loc, schema: { required: strings(loc.schema) } } : loc);

function compareDependents(ctx: Ctx, a: ObjLoc, b: ObjLoc): Effect {
  const effects: Effect[] = [];
  const before = dependentsOf(a);
  const after = dependentsOf(b);
  for (const key of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    // An absent entry is located under the keyword the other side uses.
    const keywordOf = (loc: Loc | undefined) => loc!.pointer.split("/").at(-2)!;
    const locA = before.get(key) ?? child(a, keywordOf(after.get(key)), key);
    const locB = after.get(key) ?? child(b, keywordOf(before.get(key)), key);
    const names = (loc: Loc) => Array.isArray(loc.schema) || loc.schema === undefined;
    if (!names(locA) || !names(locB)) {
      effects.push(compareSlot(ctx, asSchema(locA), asSchema(locB), { tighter: "keyword-changed", looser: "keyword-changed" }, `the dependent schema of ${quote(key)}`));
      continue;
    }
    const namesBefore = strings(locA.schema);
    const namesAfter = strings(locB.schema);
    if (canonical([...namesBefore].sort()) === canonical([...namesAfter].sort())) continue;
    const gained = namesAfter.filter((n) => !namesBefore.includes(n));
    const lost = namesBefore.filter((n) => !namesAfter.includes(n));
    const effect: Effect = gained.length && lost.length ? "incomparable" : gained.length ? "tighter" : "looser";
    effects.push(emit(ctx, "keyword-changed", locA, locB, effect, `when ${quote(key)} is present, required properties ${JSON.stringify(namesBefore)} became ${JSON.stringify(namesAfter)}`));
  }
  return combine(effects);
}
