import { isRecord } from "../json-text.js";
import type { JsonObject } from "../read-schemas.js";
import { child, combine, emit, flip, type Ctx, type Loc, type ObjLoc } from "./context.js";
import { jsonEqual, show } from "./json.js";
import { escape } from "../walk.js";
import type { RefTarget } from "./load.js";
import { compareAnnotations, isAnnotation } from "./rules/annotations.js";
import { ARRAY_KEYWORDS, compareArrays } from "./rules/arrays.js";
import { BOUND_KEYWORDS, compareBounds } from "./rules/bounds.js";
import { COMBINATOR_KEYWORDS, compareCombinators, coveringBranch, probe } from "./rules/combinators.js";
import { copyOf, keysFrom, NUMBER_FORMATS, refAsConjunct, TYPE_KEYWORDS, typeListAsUnion } from "./normalize.js";
import { compareDefs, DEFS_KEYWORDS } from "./rules/defs.js";
import { compareObjects, OBJECT_KEYWORDS } from "./rules/objects.js";
import { compareType, compareValues } from "./rules/values.js";
import type { Effect } from "./types.js";

/** Keywords that identify or locate a schema; editing them changes no document's validity. */
const IDENTITY = new Set(["$schema", "$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary"]);

/**
 * Keywords a dialect (draft-04 to 2020-12) defines that no rule interprets: an edit to one counts as
 * breaking both ways. A keyword outside every dialect is ignored by validators (ajv's non-strict
 * mode, SchemaStore's set-up), so an edit to it changes no document's verdict.
 */
const UNINTERPRETED = new Set(["contentSchema", "$dynamicRef", "$recursiveRef"]);

const HANDLED = new Set(["$ref", "type", "enum", "const", ...OBJECT_KEYWORDS, ...ARRAY_KEYWORDS, ...BOUND_KEYWORDS, ...COMBINATOR_KEYWORDS, ...DEFS_KEYWORDS, ...IDENTITY]);

/**
 * Compares one subschema of OLD with one of NEW, recording each change, and returns the
 * combined effect on the documents they accept.
 */
export function compareSchemas(ctx: Ctx, a: Loc, b: Loc): Effect {
  // Equal subtrees accept the same documents: their $refs resolve to the same places in paired files.
  if (jsonEqual(a.schema, b.schema)) return "none";
  const wrapped = compareWrapped(ctx, a, b);
  if (wrapped) return wrapped;
  const refA = refOf(a);
  const refB = refOf(b);
  // `$ref: R` against `allOf: [{$ref: R}, X]`: one conjunct against the list, so that R pairs with R.
  if (refA && !refB && isRecord(b.schema) && Array.isArray(b.schema.allOf)) return compareSchemas(ctx, { ...a, schema: refAsConjunct(a.schema as JsonObject, a.pointer) }, b);
  if (refB && !refA && isRecord(a.schema) && Array.isArray(a.schema.allOf)) return compareSchemas(ctx, a, { ...b, schema: refAsConjunct(b.schema as JsonObject, b.pointer) });
  if (refA || refB) return compareRefs(ctx, a, b, refA, refB);
  const split = splitByType(a, b);
  if (split) return ctx.compare(split[0], split[1]);

  if (a.schema === false || b.schema === false) {
    return a.schema === false
      ? emit(ctx, "schema-loosened", a, b, "looser", "the schema was false (nothing allowed) and now allows documents")
      : emit(ctx, "schema-tightened", a, b, "tighter", "the schema is now false: nothing is allowed");
  }
  const objA = asObject(a);
  const objB = asObject(b);
  if (!objA || !objB) return emit(ctx, "keyword-changed", a, b, "incomparable", `not a schema: ${show(a.schema)} became ${show(b.schema)}`);
  return compareKeywords(ctx, objA, objB);
}

/** The union keyword of a schema with one union (`anyOf` or `oneOf`, not both). */
function unionOf(schema: unknown): "anyOf" | "oneOf" | undefined {
  if (!isRecord(schema) || (schema.anyOf !== undefined) === (schema.oneOf !== undefined)) return undefined;
  const keyword = schema.anyOf !== undefined ? "anyOf" : "oneOf";
  return Array.isArray(schema[keyword]) ? keyword : undefined;
}

const hasUnion = (schema: unknown) => isRecord(schema) && (schema.anyOf !== undefined || schema.oneOf !== undefined);

/**
 * A schema wrapped into a union (`X` became `anyOf: [X, Y]`, or `{type: [string, array], oneOf:
 * [{type: string}, X]}`), or unwrapped: when one branch holds every document of the other side,
 * what is compared with that side is the branch, with the keywords beside the union laid over it
 * as an `allOf` entry, and the other branches are added (or removed). Undefined when the shape or
 * the covering does not apply.
 */
function compareWrapped(ctx: Ctx, a: Loc, b: Loc): Effect | undefined {
  const wrapped = (plain: Loc, union: Loc, side: "old" | "new") => {
    const keyword = unionOf(union.schema);
    if (!keyword || hasUnion(plain.schema) || !isRecord(plain.schema)) return undefined;
    const { [keyword]: list, ...beside } = union.schema as JsonObject;
    const alone = Object.keys(beside).every((key) => isAnnotation(key) || IDENTITY.has(key));
    const locs = (list as unknown[]).map((_, i) => child(union, keyword, i));
    // Each branch under what is beside it, made once (probe's cache knows a schema by identity):
    // a `$ref` branch under a `type` as its target of the types both allow, any other as
    // `{...beside, allOf: [...beside.allOf, branch]}`.
    const scoped = new Map(
      locs.map((branch): [Loc, Loc] => {
        if (alone) return [branch, branch];
        const inlined = typedTarget(ctx, side, beside, branch);
        return [branch, { ...union, schema: inlined ?? copyOf(union.schema as JsonObject, { ...beside, allOf: [...(Array.isArray(beside.allOf) ? beside.allOf : []), branch.schema] }) }];
      }),
    );
    /** `run` on OLD and NEW in that order, the branch (scoped) being NEW's where `side` is "new". */
    const oldNew = <T>(run: (x: Loc, y: Loc) => T, branch: Loc): T => (side === "new" ? run(plain, scoped.get(branch)!) : run(scoped.get(branch)!, plain));
    const probed = (x: Loc, y: Loc) => probe(ctx, x, y);
    const effect = side === "new" ? "looser" : "tighter";
    const covering = coveringBranch(ctx, side, keyword, locs, (branch) => oldNew(probed, branch), effect);
    if (!covering) return undefined;
    const effects = [oldNew((x, y) => ctx.compare(x, y), covering)];
    for (const other of locs) {
      if (other === covering) continue;
      const index = other.pointer.split("/").pop();
      // A branch that accepts nothing the other side does not is no change of documents.
      const held = ["none", flip(effect)].includes(oldNew(probed, other));
      effects.push(
        side === "new"
          ? emit(ctx, "branch-added", plain, other, held ? "none" : "looser", `${keyword} branch ${index} added beside the branch that holds all of OLD: ${held ? "OLD accepts every document it accepts" : "OLD rejects documents that only it matches"}`)
          : emit(ctx, "branch-removed", other, plain, held ? "none" : "tighter", `${keyword} branch ${index} removed; the branch that holds all of NEW is kept: ${held ? "NEW accepts every document it accepted" : "NEW rejects documents that only it matched"}`),
      );
    }
    return combine(effects);
  };
  return wrapped(a, b, "new") ?? wrapped(b, a, "old");
}

/**
 * `{type: T}` and a branch that is only a `$ref` to a schema of the same file: that schema with the
 * types both allow, its keywords located where the target has them (stylelint's
 * `{type: ["string", "array"], oneOf: [{type: "string"}, {$ref: "#/definitions/simpleArrayStringRule"}]}`).
 * Undefined for any other shape, or when no type is left.
 */
function typedTarget(ctx: Ctx, side: "old" | "new", beside: JsonObject, branch: Loc): JsonObject | undefined {
  const ref = refOf(branch);
  const outer = typesOf(beside);
  if (!ref || !outer || Object.keys(beside).some((key) => key !== "type" && !isAnnotation(key) && !IDENTITY.has(key))) return undefined;
  if (Object.keys(branch.schema as JsonObject).some((key) => key !== "$ref" && !isAnnotation(key))) return undefined;
  let target: RefTarget;
  try {
    target = ctx[side].resolve(ref, branch.file, branch.pointer);
  } catch {
    return undefined;
  }
  if (target.file !== branch.file || target.notASchema || !isRecord(target.schema) || target.schema.$ref !== undefined) return undefined;
  const own = Object.fromEntries(Object.entries(target.schema).filter(([key]) => !isAnnotation(key) && !IDENTITY.has(key) && key !== "$defs" && key !== "definitions"));
  const inner = typesOf(own);
  const both = (t: string) => (inner!.includes(t) ? [t] : (t === "number" && inner!.includes("integer")) || (t === "integer" && inner!.includes("number")) ? ["integer"] : []);
  const types = inner ? [...new Set(outer.flatMap(both))] : outer;
  if (types.length === 0) return undefined;
  return keysFrom({ ...own, type: types }, Object.keys(own).map((key): [string, string] => [key, `${target.pointer}/${escape(key)}`]));
}

/** The union keyword of a schema whose union branches each have one type, no two the same (and not both `integer` and `number`). */
function typedUnion(schema: unknown): "anyOf" | "oneOf" | undefined {
  const keyword = unionOf(schema);
  if (!keyword) return undefined;
  const branches = (schema as JsonObject)[keyword] as unknown[];
  const types = branches.map((branch) => (isRecord(branch) && typeof branch.type === "string" ? branch.type : undefined));
  const distinct = new Set(types);
  return types.every((t) => t !== undefined) && distinct.size === types.length && !(distinct.has("integer") && distinct.has("number")) ? keyword : undefined;
}

/**
 * A union of one-type branches (one that normalize could not merge into a type list) against a
 * schema with a type list: that schema split into the same union (typeListAsUnion), so that the
 * branches pair by type instead of the union being compared with nothing.
 */
function splitByType(a: Loc, b: Loc): [Loc, Loc] | undefined {
  const keywordA = typedUnion(a.schema);
  const keywordB = typedUnion(b.schema);
  if (keywordA && !keywordB) {
    const schema = typeListAsUnion(b.schema, keywordA, b.pointer, (a.schema as JsonObject).type !== undefined);
    return schema && [a, { ...b, schema }];
  }
  if (keywordB && !keywordA) {
    const schema = typeListAsUnion(a.schema, keywordB, a.pointer, (b.schema as JsonObject).type !== undefined);
    return schema && [{ ...a, schema }, b];
  }
  return undefined;
}

function asObject(loc: Loc): ObjLoc | undefined {
  if (loc.schema === true || loc.schema === undefined) return { ...loc, schema: {} };
  return isRecord(loc.schema) ? (loc as ObjLoc) : undefined;
}

function compareKeywords(ctx: Ctx, objA: ObjLoc, objB: ObjLoc): Effect {
  const [a, b] = typeGated(objA, objB);
  const effects: Effect[] = [
    compareType(ctx, a, b),
    compareValues(ctx, a, b),
    compareObjects(ctx, a, b),
    compareArrays(ctx, a, b),
    compareBounds(ctx, a, b),
    compareCombinators(ctx, a, b),
    compareDefs(ctx, a, b),
    compareAnnotations(ctx, a, b),
    compareIdentity(ctx, a, b),
  ];
  // A keyword no rule knows: shown, and when a dialect defines it, counted as breaking both ways, so nothing passes unseen.
  const unknown = new Set([...Object.keys(a.schema), ...Object.keys(b.schema)].filter((k) => !HANDLED.has(k) && !isAnnotation(k)));
  for (const key of [...unknown].sort()) {
    if (jsonEqual(a.schema[key], b.schema[key])) continue;
    const what = `"${key}" changed (${show(a.schema[key])} to ${show(b.schema[key])})`;
    effects.push(
      UNINTERPRETED.has(key)
        ? emit(ctx, "keyword-changed", child(a, key), child(b, key), "incomparable", `${what}; flowspec diff does not interpret it, so it counts as breaking both ways`)
        : emit(ctx, "unknown-keyword-changed", child(a, key), child(b, key), "none", `${what}; no JSON Schema dialect defines it and validators ignore it, so no document breaks (a custom vocabulary or validator may give it a meaning)`),
    );
  }
  return combine(effects);
}

const typesOf = (schema: JsonObject): string[] | undefined =>
  typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type.filter((t): t is string => typeof t === "string") : undefined;

/**
 * Keywords of a type that one side's `type` refuses say nothing there: `{type: "string", items: X}`
 * accepts what `{type: "string"}` does. So where one side refuses every type a group of keywords
 * applies to, it takes the other side's keywords of that group, and only the `type` change is
 * reported (items dropped along with "array" from the type are no separate change).
 */
function typeGated(a: ObjLoc, b: ObjLoc): [ObjLoc, ObjLoc] {
  const typesA = typesOf(a.schema);
  const typesB = typesOf(b.schema);
  if (!typesA && !typesB) return [a, b];
  const admits = (types: string[] | undefined, group: string) => !types || types.includes(group) || (group === "integer" && types.includes("number")) || (group === "number" && types.includes("integer"));
  let schemaA = a.schema;
  let schemaB = b.schema;
  for (const [group, keys] of Object.entries(TYPE_KEYWORDS)) {
    const take = (from: JsonObject, to: JsonObject) => {
      const next = { ...to };
      for (const key of keys) {
        if (key === "format") continue;
        if (key in from) next[key] = from[key];
        else delete next[key];
      }
      return next;
    };
    if (!admits(typesB, group)) schemaB = take(schemaA, schemaB);
    else if (!admits(typesA, group) && admits(typesB, group)) schemaA = take(schemaB, schemaA);
  }
  // `format` applies to strings unless it is a number format: it is taken across where it checks nothing on either side.
  const idle = (format: unknown, types: string[] | undefined) => format === undefined || !admits(types, typeof format === "string" && NUMBER_FORMATS.has(format) ? "number" : "string");
  const withFormat = (schema: JsonObject, format: unknown) => {
    const { format: _own, ...rest } = schema;
    return format === undefined ? rest : { ...rest, format };
  };
  if (schemaA.format !== schemaB.format) {
    if (idle(schemaB.format, typesB) && idle(schemaA.format, typesB)) schemaB = withFormat(schemaB, schemaA.format);
    else if (idle(schemaA.format, typesA) && idle(schemaB.format, typesA)) schemaA = withFormat(schemaA, schemaB.format);
  }
  return [schemaA === a.schema ? a : { ...a, schema: copyOf(a.schema, schemaA) }, schemaB === b.schema ? b : { ...b, schema: copyOf(b.schema, schemaB) }];
}

function compareIdentity(ctx: Ctx, a: ObjLoc, b: ObjLoc): Effect {
  for (const key of ["$id", "$schema"]) {
    if (jsonEqual(a.schema[key], b.schema[key])) continue;
    emit(ctx, "annotation-changed", child(a, key), child(b, key), "none", `"${key}" changed from ${show(a.schema[key])} to ${show(b.schema[key])}`);
  }
  return "none";
}

function refOf(loc: Loc): string | undefined {
  return isRecord(loc.schema) && typeof loc.schema.$ref === "string" ? loc.schema.$ref : undefined;
}

/** A `$ref` target, marked when it is an array read as `{}`. */
type ResolvedLoc = Loc & { notASchema?: true };

function resolveRef(ctx: Ctx, loc: Loc, ref: string, side: "old" | "new"): ResolvedLoc {
  const target: RefTarget = ctx[side].resolve(ref, loc.file, loc.pointer);
  return { file: target.file, pointer: target.pointer, schema: target.schema, notASchema: target.notASchema };
}

/** The keywords beside a `$ref` (2020-12 applies them too), as a schema of their own. */
function siblings(loc: Loc): Loc {
  const { $ref: _ref, ...rest } = loc.schema as JsonObject;
  return { ...loc, schema: rest };
}

/**
 * `$ref`s: two `$ref`s to the same place (same file pair, same pointer) are equal here, because
 * every definition is compared in place. A `$ref` that now points elsewhere, or that replaced an
 * inline schema (or was replaced by one), is a `ref-changed` whose effect is that of the two
 * schemas compared (each pair of targets once, so recursive schemas terminate).
 */
function compareRefs(ctx: Ctx, a: Loc, b: Loc, refA: string | undefined, refB: string | undefined): Effect {
  const targetA: ResolvedLoc = refA ? resolveRef(ctx, a, refA, "old") : a;
  const targetB: ResolvedLoc = refB ? resolveRef(ctx, b, refB, "new") : b;
  let rest: Effect = "none";
  const sameTarget = ctx.pairOf(targetA.file) === ctx.pairOf(targetB.file) && defsAsOne(targetA.pointer) === defsAsOne(targetB.pointer);
  if (refA && refB) {
    rest = compareKeywords(ctx, siblings(a) as ObjLoc, siblings(b) as ObjLoc);
    if (sameTarget) return rest;
  } else if (sameTarget && Object.keys(siblings(refA ? a : b).schema as JsonObject).length === 0) {
    // A definition against a bare $ref to itself (a union branch that wraps it): compared in place.
    return "none";
  }
  const key = `${targetA.file.uri}#${targetA.pointer}|${targetB.file.uri}#${targetB.pointer}|${ctx.negated}`;
  const known = ctx.memo.get(key);
  let effect: Effect;
  if (known !== undefined) {
    effect = known === "pending" ? "none" : known;
  } else {
    ctx.memo.set(key, "pending");
    // With one side inline, the keywords beside the other side's $ref are laid over its target.
    const x = refA && !refB ? { ...targetA, schema: merged(targetA, a) } : targetA;
    const y = refB && !refA ? { ...targetB, schema: merged(targetB, b) } : targetB;
    effect = ctx.compare(x, y);
    ctx.memo.set(key, effect);
  }
  const describe = (ref: string | undefined) => (ref ? `$ref ${JSON.stringify(ref)}` : "an inline schema");
  const notes = [targetA.notASchema ? refA : undefined, targetB.notASchema ? refB : undefined]
    .filter((ref) => ref !== undefined)
    .map((ref) => `; ${JSON.stringify(ref)} points at an array, not a schema, which ajv (and so the generated validators) reads as {}, accepting anything`);
  const message = `${describe(refA)} became ${describe(refB)}${effect === "none" ? "; both accept the same documents" : ""}${notes.join("")}`;
  return combine([rest, emit(ctx, "ref-changed", refA ? child(a, "$ref") : a, refB ? child(b, "$ref") : b, effect, message)]);
}

/** A pointer with draft-07 `definitions` and 2020-12 `$defs` spelled alike: a dialect move keeps the definitions' names. */
const defsAsOne = (pointer: string) => pointer.replace(/\/definitions(?=\/)/g, "/$defs");

/** A `$ref` target with the keywords written beside the `$ref` laid over it. */
function merged(target: Loc, refLoc: Loc): unknown {
  const rest = siblings(refLoc).schema as JsonObject;
  if (Object.keys(rest).length === 0) return target.schema;
  if (target.schema === false) return false;
  return { ...(isRecord(target.schema) ? target.schema : {}), ...rest };
}
