import { isRecord } from "../json-text.js";
import type { Dialect, JsonObject } from "../read-schemas.js";
import { escape, getAt, mapSchema } from "../walk.js";
import { canonical } from "./json.js";
import { isAnnotation } from "./rules/annotations.js";

/**
 * One spelling for schemas that accept the same documents, so that rewrites between them are no
 * change: the dialects' own spellings (draft-04 `id` and boolean `exclusiveMinimum`, 2019-09
 * `$recursiveRef`), a `$ref` beside other keywords as an `allOf` entry, a union of plain types as a
 * `type` list, `if: {not: X}` with its branches swapped, `required` names gathered where they apply,
 * and property schemas that a branch restates from the schema around it left out. Every rule is
 * exact: a document passes the normal form exactly when it passes the schema (as ajv validates it).
 *
 * The normal form is a new tree. Each of its nodes remembers the JSON Pointer it has in the file
 * (`originOf`), so a change found in a node that moved is still reported where it is written.
 */

const ORIGINS = new WeakMap<object, string>();
/** For a keyword that moved into another node: where it is written. */
const KEY_ORIGINS = new WeakMap<object, Map<string, string>>();
/** For a `required` list gathered from several places: where each name was required. */
const REQUIRED_ORIGINS = new WeakMap<object, Map<string, string>>();

/** Where a node of a normal form is in its file, when it is a node of the file. */
export function originOf(value: unknown): string | undefined {
  return typeof value === "object" && value !== null ? ORIGINS.get(value) : undefined;
}

/** Where a keyword of a normal-form node is written, when it moved there from another node. */
export function keyOrigin(node: unknown, key: string): string | undefined {
  return typeof node === "object" && node !== null ? KEY_ORIGINS.get(node)?.get(key) : undefined;
}

export function keysFrom(node: JsonObject, origins: Iterable<[string, string]>): JsonObject {
  const map = new Map(KEY_ORIGINS.get(node));
  for (const [key, pointer] of origins) if (!map.has(key)) map.set(key, pointer);
  KEY_ORIGINS.set(node, map);
  return node;
}

/** A copy of a normal-form node that keeps where its moved keywords are written. */
export function copyOf(node: JsonObject, copy: JsonObject): JsonObject {
  const origins = KEY_ORIGINS.get(node);
  if (origins) KEY_ORIGINS.set(copy, origins);
  return copy;
}

/** Where a name of a gathered `required` list was required, when it was gathered from elsewhere. */
export function requiredOrigin(list: unknown, name: string): string | undefined {
  return typeof list === "object" && list !== null ? REQUIRED_ORIGINS.get(list)?.get(name) : undefined;
}

function placed<T>(value: T, pointer: string): T {
  if (typeof value === "object" && value !== null && !ORIGINS.has(value)) ORIGINS.set(value, pointer);
  return value;
}

export interface NormalForm {
  json: JsonObject;
  /** The normal form of the subschema at a pointer of the file (nodes may have moved, pointers did not). */
  nodeAt(pointer: string): unknown;
}

export function normalize(json: JsonObject, dialect: Dialect): NormalForm {
  const nodes = new Map<string, unknown>();
  const stripped = stripImplied(json);
  const rules: ((node: JsonObject, pointer: string) => JsonObject)[] = [
    ...(dialect === "draft-04" ? [fromDraft04] : dialect === "draft-2019-09" ? [fromDraft2019] : []),
    valueBranchesAbsorbed,
    tupleLengthsMerged,
    typeUnionAsList,
    everyNameAsAdditional,
    constNullAsType,
    conditionUnnegated,
    requiredGathered,
    refBesideOthers,
    conjunctsMerged,
  ];
  const root = mapSchema(stripped, (node, pointer) => {
    let next = node;
    for (const rule of rules) {
      const result = rule(next, pointer);
      // A rule that rewrote the node passes on where its moved keywords are written.
      if (result !== next && KEY_ORIGINS.has(next)) keysFrom(result, KEY_ORIGINS.get(next)!);
      next = result;
    }
    placed(next, pointer);
    nodes.set(pointer, next);
    return next;
  }) as JsonObject;
  return { json: root, nodeAt: (pointer) => (nodes.has(pointer) ? nodes.get(pointer) : undefined) };
}

const validating = (schema: JsonObject) => Object.keys(schema).filter((key) => !isAnnotation(key) && !NOT_VALIDATING.has(key));
const NOT_VALIDATING = new Set(["$schema", "$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary", "$defs", "definitions", "$comment"]);

/** draft-04: `id` is `$id`; `exclusiveMinimum: true` makes `minimum` exclusive (draft-06 on: a number of its own). */
function fromDraft04(node: JsonObject, pointer: string): JsonObject {
  const next = { ...node };
  if (typeof next.id === "string" && next.$id === undefined) {
    next.$id = next.id;
    delete next.id;
    keysFrom(next, [["$id", `${pointer}/id`]]);
  }
  for (const [bound, exclusive] of [
    ["minimum", "exclusiveMinimum"],
    ["maximum", "exclusiveMaximum"],
  ] as const) {
    if (typeof next[exclusive] !== "boolean") continue;
    if (next[exclusive] === true && typeof next[bound] === "number") {
      next[exclusive] = next[bound];
      delete next[bound];
    } else delete next[exclusive];
  }
  return next;
}

/** 2019-09: `$recursiveRef` resolves like `$ref` unless an outer schema sets `$recursiveAnchor` (a diff of one file at a time has none). */
function fromDraft2019(node: JsonObject, pointer: string): JsonObject {
  if (typeof node.$recursiveRef !== "string" || node.$ref !== undefined) return node;
  const { $recursiveRef: ref, ...rest } = node;
  return keysFrom({ ...rest, $ref: ref }, [["$ref", `${pointer}/$recursiveRef`]]);
}

/** The keywords that apply to values of one type only (`format` aside: see NUMBER_FORMATS). */
export const TYPE_KEYWORDS: Record<string, string[]> = {
  string: ["minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  integer: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  array: ["items", "additionalItems", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains", "unevaluatedItems"],
  object: [
    "properties",
    "patternProperties",
    "additionalProperties",
    "required",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "dependencies",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
  ],
  boolean: [],
  null: [],
};

/**
 * `anyOf: [{type: "string", maxLength: 9}, {type: "null"}]` is `type: ["string", "null"], maxLength: 9`:
 * each branch has one type and only keywords that apply to that type alone, and no two branches
 * share a type (a `oneOf` needs that too, or a number that is an integer would match twice).
 */
function typeUnionAsList(node: JsonObject, pointer: string): JsonObject {
  const outer = typeList(node.type);
  if (node.type !== undefined && !outer) return node;
  for (const keyword of ["anyOf", "oneOf"]) {
    const branches = node[keyword];
    if (!Array.isArray(branches) || branches.length === 0 || (keyword === "anyOf" ? node.oneOf : node.anyOf) !== undefined) continue;
    // A `type` beside the union that every branch's types fall within says nothing more (stylelint's
    // `{type: ["null", "object", "array"], oneOf: [{type: "null"}, {type: "object", …}, {type: "array", …}]}`).
    if (outer && !branches.every((branch) => isRecord(branch) && typeList(branch.type)?.every((t) => outer.includes(t) || (t === "integer" && outer.includes("number"))))) continue;
    const types: string[] = [];
    const merged: JsonObject = {};
    const origins: [string, string][] = [["type", `${pointer}/${keyword}`]];
    /** Per branch: its types, and the values its `enum`/`const` allows (undefined: no list). */
    const listed: { own: string[]; values?: unknown[] }[] = [];
    const fits = branches.every((branch, i) => {
      const own = isRecord(branch) ? (typeof branch.type === "string" ? [branch.type] : Array.isArray(branch.type) ? branch.type : []) : [];
      if (own.length === 0 || !own.every((t): t is string => typeof t === "string" && t in TYPE_KEYWORDS)) return false;
      for (const type of own) {
        const numeric = type === "integer" || type === "number";
        if (types.includes(type) || (numeric && types.some((t) => t === "integer" || t === "number"))) return false;
        types.push(type);
      }
      const values = "const" in (branch as JsonObject) ? [(branch as JsonObject).const] : Array.isArray((branch as JsonObject).enum) ? ((branch as JsonObject).enum as unknown[]) : undefined;
      if ("const" in (branch as JsonObject) && (branch as JsonObject).enum !== undefined) return false;
      listed.push({ own, values: values?.filter((value) => own.some((t) => ofType(value, t))) });
      for (const key of validating(branch as JsonObject)) {
        if (key === "type" || key === "enum" || key === "const") continue;
        if (!own.some((t) => TYPE_KEYWORDS[t]!.includes(key)) || key in merged || key in node) return false;
        // A number format checks numbers: beside a string type it checks nothing, so it cannot move.
        if (key === "format" && NUMBER_FORMATS.has(String((branch as JsonObject).format))) return false;
        merged[key] = (branch as JsonObject)[key];
        origins.push([key, `${originOf(branch) ?? `${pointer}/${keyword}/${i}`}/${escape(key)}`]);
      }
      return true;
    });
    if (!fits) continue;
    const { [keyword]: _union, ...rest } = node;
    if (listed.every((branch) => branch.values === undefined)) return keysFrom({ ...rest, type: types, ...merged }, origins);
    // Value lists: one `enum` holds them when every other branch is of types with few values
    // (`[{type: "string", enum: ["a"]}, {type: "boolean"}]` is `enum: ["a", true, false]`).
    // A branch whose values are none of its types accepts nothing, and its types go.
    if (node.enum !== undefined || "const" in node || listed.some((branch) => branch.values === undefined && !branch.own.every((t) => t in FINITE))) continue;
    const values = listed.flatMap((branch) => branch.values ?? branch.own.flatMap((t) => FINITE[t]!));
    const kept = types.filter((t) => values.some((value) => ofType(value, t)));
    return keysFrom({ ...rest, type: kept, ...merged, enum: values }, [...origins, ["enum", `${pointer}/${keyword}`]]);
  }
  return node;
}

/**
 * `patternProperties: {".*": S}` with no `properties` and no `additionalProperties` beside it is
 * `additionalProperties: S` (stylelint's `objectRule` went from one to the other): a pattern without
 * anchors or lookarounds that matches the empty string matches at the start of every name.
 */
function everyNameAsAdditional(node: JsonObject, pointer: string): JsonObject {
  const patterns = node.patternProperties;
  if (!isRecord(patterns) || node.additionalProperties !== undefined || (node.properties !== undefined && !(isRecord(node.properties) && Object.keys(node.properties).length === 0))) return node;
  const names = Object.keys(patterns);
  if (names.length !== 1 || /[\^$]|\\[bB]|\(\?[=!<]/.test(names[0]!) || patternTest(names[0]!, "") !== true) return node;
  const { patternProperties: _patterns, properties: _properties, ...rest } = node;
  return keysFrom({ ...rest, additionalProperties: patterns[names[0]!] }, [["additionalProperties", `${pointer}/patternProperties/${escape(names[0]!)}`]]);
}

/**
 * The inverse of typeUnionAsList, for the comparison of a schema with a `type` list against a union
 * of one-type branches that could not become one (a value list in a branch beside a type of endless
 * values): the schema as that union, one branch per type with the keywords of its type and the
 * listed values of its type. Its other keywords stay beside the union, and so does `type` when the
 * union it is compared with has one too. Exact: the branches take the types apart, so a `oneOf` of
 * them is their `anyOf`. Undefined when the schema has a union of its own or no plain type list (or
 * both `integer` and `number`, which overlap).
 */
export function typeListAsUnion(node: unknown, keyword: "anyOf" | "oneOf", pointer: string, keepType: boolean): JsonObject | undefined {
  const types = isRecord(node) ? typeList(node.type) : undefined;
  if (!isRecord(node) || !types || node.anyOf !== undefined || node.oneOf !== undefined) return undefined;
  if (!types.every((t) => t in TYPE_KEYWORDS) || (types.includes("integer") && types.includes("number"))) return undefined;
  const valueList = "const" in node ? [node.const] : Array.isArray(node.enum) ? (node.enum as unknown[]) : undefined;
  const typeOf = (key: string) => (key === "format" ? (NUMBER_FORMATS.has(String(node.format)) ? ["number", "integer"] : ["string"]) : Object.keys(TYPE_KEYWORDS).filter((t) => TYPE_KEYWORDS[t]!.includes(key)));
  const rest: JsonObject = {};
  for (const [key, value] of Object.entries(node)) if (key !== "enum" && key !== "const" && (key !== "type" || keepType) && typeOf(key).length === 0) rest[key] = value;
  const branches: JsonObject[] = [];
  for (const type of types) {
    const values = valueList?.filter((value) => ofType(value, type));
    // A type none of whose values is listed accepts nothing: it has no branch.
    if (values?.length === 0) continue;
    const branch: JsonObject = { type };
    for (const key of Object.keys(node)) if (typeOf(key).includes(type)) branch[key] = node[key];
    if (values) branch.enum = values;
    branches.push(placed(copyOf(node, branch), keyOrigin(node, "type") ?? pointer));
  }
  return branches.length === 0 ? undefined : copyOf(node, { ...rest, [keyword]: branches });
}

/**
 * An `anyOf` branch that only lists values (`enum`/`const`, perhaps with `type`), each of which
 * another branch accepts, adds nothing: `anyOf: [{enum: ["jest", "react"]}, {type: "string"}]` is
 * `anyOf: [{type: "string"}]`, so values added to or removed from that list change nothing (eslintrc's
 * plugin names, jscpd's formats). Only decided where the other branch's keywords are simple enough
 * to check each value exactly; not in a `oneOf`, where a value two branches accept is refused.
 */
function valueBranchesAbsorbed(node: JsonObject, pointer: string): JsonObject {
  const branches = node.anyOf;
  if (!Array.isArray(branches) || branches.length < 2) return node;
  const valuesOf = (branch: unknown): unknown[] | undefined => {
    if (!isRecord(branch) || !validating(branch).every((key) => key === "enum" || key === "const" || key === "type")) return undefined;
    const listed = "const" in branch ? [branch.const] : Array.isArray(branch.enum) ? branch.enum : undefined;
    const types = typeList(branch.type);
    return listed?.filter((value) => !types || types.some((t) => ofType(value, t)));
  };
  const kept = branches.filter((branch) => {
    const values = valuesOf(branch);
    // A list of none of its types accepts nothing: typeUnionAsList drops it with its types.
    if (values === undefined || values.length === 0) return true;
    return !values.every((value) => branches.some((other) => other !== branch && valuesOf(other) === undefined && acceptsExactly(other, value) === true));
  });
  if (kept.length === branches.length || kept.length === 0) return node;
  return copyOf(node, { ...node, anyOf: kept });
}

/** Whether a schema of simple keywords (type, string and number bounds, pattern, enum, const) accepts a value; undefined for any other keyword. */
export function acceptsExactly(schema: unknown, value: unknown): boolean | undefined {
  if (schema === true) return true;
  if (!isRecord(schema)) return undefined;
  const num = (key: string) => (typeof schema[key] === "number" ? (schema[key] as number) : undefined);
  for (const key of validating(schema)) {
    const n = num(key);
    let ok: boolean | undefined;
    if (key === "type") ok = (typeList(schema.type) ?? []).some((t) => ofType(value, t));
    else if (key === "enum") ok = Array.isArray(schema.enum) && schema.enum.some((v) => canonical(v) === canonical(value));
    else if (key === "const") ok = canonical(schema.const) === canonical(value);
    else if (typeof value === "string" && (key === "minLength" || key === "maxLength") && n !== undefined) ok = key === "minLength" ? [...value].length >= n : [...value].length <= n;
    else if (typeof value === "string" && key === "pattern" && typeof schema.pattern === "string") ok = patternTest(schema.pattern, value);
    else if (typeof value === "number" && n !== undefined && ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"].includes(key)) ok = key === "minimum" ? value >= n : key === "maximum" ? value <= n : key === "exclusiveMinimum" ? value > n : value < n;
    // A keyword of another type than the value's checks nothing.
    else if (key !== "format" && Object.entries(TYPE_KEYWORDS).every(([type, keys]) => !keys.includes(key) || !ofType(value, type)) && Object.values(TYPE_KEYWORDS).some((keys) => keys.includes(key))) ok = true;
    if (ok !== true) return ok;
  }
  return true;
}

function patternTest(pattern: string, value: string): boolean | undefined {
  try {
    return new RegExp(pattern, "u").test(value);
  } catch {
    return undefined;
  }
}

/**
 * A union of closed tuples, each a prefix of the longest, whose lengths together make one range, is
 * that tuple with that range: `oneOf: [{items: [A, B], minItems: 2, additionalItems: false},
 * {items: [A, B, C], minItems: 3, additionalItems: false}]` (each `type: "array"`) is `{items: [A, B, C],
 * minItems: 2, maxItems: 3}` (typescript-eslint's `quotes` options, split by length). In a `oneOf`
 * the ranges may not overlap, so no array matches twice.
 */
function tupleLengthsMerged(node: JsonObject, pointer: string): JsonObject {
  const keyword = validating(node).join();
  if (keyword !== "anyOf" && keyword !== "oneOf") return node;
  const branches = node[keyword];
  if (!Array.isArray(branches) || branches.length < 2) return node;
  const tuples = branches.map((branch, i) => {
    if (!isRecord(branch) || branch.type !== "array") return undefined;
    const positions = Array.isArray(branch.prefixItems) ? "prefixItems" : Array.isArray(branch.items) ? "items" : undefined;
    const rest = positions === "items" ? "additionalItems" : "items";
    if (!positions || !validating(branch).every((key) => ["type", positions, rest, "minItems", "maxItems"].includes(key))) return undefined;
    const items = branch[positions] as unknown[];
    const closed = branch[rest] === false ? items.length : Infinity;
    const max = Math.min(closed, typeof branch.maxItems === "number" ? branch.maxItems : Infinity);
    const min = typeof branch.minItems === "number" ? branch.minItems : 0;
    // Past its own positions a branch allows any item, which the merged tuple would not.
    if (max > items.length || min > max) return undefined;
    return { positions, items, min, max, at: originOf(branch) ?? `${pointer}/${keyword}/${i}` };
  });
  if (tuples.some((t) => t === undefined)) return node;
  const list = tuples as NonNullable<(typeof tuples)[number]>[];
  const longest = list.reduce((x, y) => (y.items.length > x.items.length ? y : x));
  if (list.some((t) => t.positions !== longest.positions || t.items.some((item, j) => canonical(item) !== canonical(longest.items[j])))) return node;
  // One range without gaps (and, in a oneOf, without overlaps).
  const sorted = [...list].sort((x, y) => x.min - y.min);
  for (let i = 1; i < sorted.length; i++) {
    const previous = sorted[i - 1]!;
    if (sorted[i]!.min > previous.max + 1 || (keyword === "oneOf" && sorted[i]!.min <= previous.max)) return node;
  }
  const max = Math.max(...list.map((t) => t.max));
  const { [keyword]: _union, ...annotations } = node;
  const merged: JsonObject = { ...annotations, type: "array", [longest.positions]: longest.items, maxItems: max };
  if (sorted[0]!.min > 0) merged.minItems = sorted[0]!.min;
  return keysFrom(merged, [
    ["type", `${longest.at}/type`],
    [longest.positions, `${longest.at}/${longest.positions}`],
    ["maxItems", `${pointer}/${keyword}`],
    ["minItems", `${sorted[0]!.at}/minItems`],
  ]);
}

/** Types with so few values that an `enum` can list them all. */
const FINITE: Record<string, unknown[]> = { boolean: [true, false], null: [null] };

/** Whether a JSON value is of a JSON Schema type (an integer is a number too). */
export function ofType(value: unknown, type: string): boolean {
  if (value === null) return type === "null";
  if (Array.isArray(value)) return type === "array";
  if (typeof value === "number") return type === "number" || (type === "integer" && Number.isInteger(value));
  return typeof value === type;
}

/** Formats that check numbers (ajv's and `@flowspec/runtime/ajv`'s); every other format checks strings. */
export const NUMBER_FORMATS = new Set(["int32", "int64", "uint16", "uint32", "uint64", "float", "double"]);

/** `const: null` is `type: "null"`. */
function constNullAsType(node: JsonObject, pointer: string): JsonObject {
  if (!("const" in node) || node.const !== null || node.enum !== undefined) return node;
  const types = typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? node.type : undefined;
  if (types && !types.includes("null")) return node;
  const { const: _const, ...rest } = node;
  return keysFrom({ ...rest, type: "null" }, [["type", `${pointer}/const`]]);
}

/** `if: {not: X}, then: A, else: B` is `if: X, then: B, else: A`; the branches keep their places in the file. */
function conditionUnnegated(node: JsonObject, pointer: string): JsonObject {
  const condition = node.if;
  if (!isRecord(condition) || validating(condition).join() !== "not" || node.not !== undefined) return node;
  const { then: whenTrue, else: whenFalse, ...rest } = node;
  const next: JsonObject = { ...rest, if: condition.not };
  if (whenFalse !== undefined) next.then = whenFalse;
  if (whenTrue !== undefined) next.else = whenTrue;
  return keysFrom(next, [
    ["if", `${pointer}/if/not`],
    ["then", `${pointer}/else`],
    ["else", `${pointer}/then`],
  ]);
}

/**
 * `required` names that hold wherever the schema holds, gathered into its own `required`: those of
 * its `allOf` entries, and those both `then` and `else` require. Entries left without a validating
 * keyword, and a `then`/`else` left open, are dropped.
 */
function requiredGathered(node: JsonObject, pointer: string): JsonObject {
  const names = new Map<string, string>();
  const own = strings(node.required);
  const gather = (list: string[], where: string) => {
    for (const name of list) if (!own.includes(name) && !names.has(name)) names.set(name, where);
  };
  let next = node;
  if (Array.isArray(node.allOf)) {
    const entries = node.allOf.map((entry, i) => {
      if (!isRecord(entry) || !Array.isArray(entry.required) || entry.$ref !== undefined) return entry;
      gather(strings(entry.required), `${originOf(entry) ?? `${pointer}/allOf/${i}`}/required`);
      const { required: _required, ...rest } = entry;
      return placed(rest, originOf(entry) ?? `${pointer}/allOf/${i}`);
    });
    const kept = entries.filter((entry) => !isRecord(entry) || validating(entry).length > 0 || entry.$ref !== undefined);
    next = { ...next, allOf: kept };
    if (kept.length === 0) delete next.allOf;
  }
  const whenTrue = next.then;
  const whenFalse = next.else;
  if (isRecord(whenTrue) && isRecord(whenFalse) && next.if !== undefined) {
    const both = strings(whenTrue.required).filter((name) => strings(whenFalse.required).includes(name));
    if (both.length > 0) {
      gather(both, `${originOf(whenTrue) ?? `${pointer}/then`}/required`);
      const without = (branch: JsonObject, where: string) => {
        const rest = strings(branch.required).filter((name) => !both.includes(name));
        const { required: _required, ...others } = branch;
        return placed(rest.length > 0 ? { ...others, required: rest } : others, originOf(branch) ?? where);
      };
      next = { ...next, then: without(whenTrue, `${pointer}/then`), else: without(whenFalse, `${pointer}/else`) };
      for (const key of ["then", "else"]) if (validating(next[key] as JsonObject).length === 0) delete next[key];
    }
  }
  if (names.size === 0) return next;
  const required = [...own, ...names.keys()];
  REQUIRED_ORIGINS.set(required, names);
  return { ...next, required };
}

/**
 * A `$ref` beside other validating keywords is one more conjunct: ajv applies both (in every
 * dialect), so `{$ref: R, items: X}` is `{allOf: [{$ref: R}], items: X}`.
 */
function refBesideOthers(node: JsonObject, pointer: string): JsonObject {
  return typeof node.$ref !== "string" || validating(node).length === 1 ? node : refAsConjunct(node, pointer);
}

/** `{$ref: R, ...rest}` as `{allOf: [{$ref: R}], ...rest}`. */
export function refAsConjunct(node: JsonObject, pointer: string): JsonObject {
  const { $ref: ref, ...rest } = node;
  const entry = placed({ $ref: ref }, pointer);
  return { ...rest, allOf: [entry, ...(Array.isArray(rest.allOf) ? rest.allOf : [])] };
}

/** Keywords that read each other within one schema object: a conjunct's cannot join another's. */
const TOGETHER = [
  ["properties", "patternProperties", "additionalProperties"],
  ["items", "additionalItems", "prefixItems"],
  ["if", "then", "else"],
  ["contains", "minContains", "maxContains"],
];

/**
 * `allOf` entries whose keywords the schema does not have (or has with the same value) are part of
 * the schema itself: `{type: "object", allOf: [{properties: P}]}` is `{type: "object", properties: P}`.
 * Entries with a `$ref`, with `unevaluated…` (which sees every keyword in place) or with keywords that
 * read keywords of the schema (`additionalProperties` beside its `properties`...) stay. What is left
 * of a single `{$ref}` entry is that `$ref`.
 */
function conjunctsMerged(node: JsonObject, pointer: string): JsonObject {
  if (!Array.isArray(node.allOf) || node.unevaluatedProperties !== undefined || node.unevaluatedItems !== undefined) return node;
  const { allOf: entries, ...merged } = node;
  const origins: [string, string][] = [];
  const kept = entries.filter((entry, i) => {
    if (!isRecord(entry) || entry.$ref !== undefined || entry.unevaluatedProperties !== undefined || entry.unevaluatedItems !== undefined) return true;
    if (Object.keys(entry).some((key) => NOT_VALIDATING.has(key) && key !== "$comment" && key !== "$schema")) return true;
    const keys = Object.keys(entry).filter((key) => !NOT_VALIDATING.has(key) || key === "$comment");
    const clashes = keys.some((key) => key in merged && !isAnnotation(key) && canonical(merged[key]) !== canonical(entry[key]));
    const splits = TOGETHER.some((group) => group.some((key) => key in entry) && group.some((key) => key in merged && !(key in entry)));
    if (clashes || splits || validating(entry).some((key) => key === "allOf")) return true;
    const at = originOf(entry) ?? `${pointer}/allOf/${i}`;
    for (const key of keys) {
      if (key in merged) continue;
      merged[key] = entry[key];
      origins.push([key, `${at}/${escape(key)}`]);
    }
    return false;
  });
  if (kept.length > 0) merged.allOf = kept;
  const single = kept.length === 1 && isRecord(kept[0]) && validating(merged).length === 1 ? kept[0] : undefined;
  if (single && typeof single.$ref === "string" && validating(single).length === 1) {
    delete merged.allOf;
    merged.$ref = single.$ref;
    origins.push(["$ref", `${originOf(single) ?? `${pointer}/allOf/0`}/$ref`]);
  }
  return kept.length === entries.length && !single ? node : keysFrom(merged, origins);
}

const IN_PLACE_LISTS = ["allOf", "anyOf", "oneOf"];
const IN_PLACE = ["if", "then", "else", "not"];

/** A schema that holds at the same place of the document as a branch: its pointer (when it is in the file) and itself. */
interface Around {
  pointer?: string;
  schema: JsonObject;
}

/**
 * What a branch says that the schemas around it already say. A branch (an `allOf`/`anyOf`/`oneOf`
 * entry, `if`/`then`/`else`, `not`) only matters where the schemas around it hold, so it need not
 * say again: a `required` name they require, a `type` at least as wide as theirs, a property schema
 * they declare (by a `$ref` to theirs, or written again), or a property that allows anything. The
 * same goes down into the branch's property and item schemas, against theirs. A branch that
 * decides about undeclared properties keeps its property names, and nothing is dropped under
 * `unevaluatedProperties`, which sees what branches declare. Runs on the file as written.
 */
function stripImplied(root: JsonObject): unknown {
  const resolveLocal = (schema: unknown): JsonObject | undefined => {
    let current = schema;
    for (let step = 0; step < 8 && isRecord(current) && typeof current.$ref === "string" && validating(current).length === 1; step++) {
      const pointer = refPointer(current.$ref);
      if (pointer === undefined) return undefined;
      current = getAt(root, pointer);
    }
    return isRecord(current) ? current : undefined;
  };

  /** The branch without what `around` implies; `around` are the schemas that hold where it does. */
  const implied = (branch: unknown, around: Around[]): unknown => {
    if (!isRecord(branch) || around.length === 0) return branch;
    let node = branch;
    const drop = (key: string) => {
      node = { ...node };
      delete node[key];
    };
    const outer = around.map((a) => ({ ...a, schema: resolveLocal(a.schema) ?? a.schema }));
    const outerRequired = new Set(outer.flatMap((a) => strings(a.schema.required)));
    const required = strings(node.required);
    if (required.length > 0 && required.some((name) => outerRequired.has(name))) {
      const rest = required.filter((name) => !outerRequired.has(name));
      if (rest.length === 0) drop("required");
      else node = { ...node, required: rest };
    }
    const types = typeList(node.type);
    if (types && outer.some((a) => typeList(a.schema.type)?.every((t) => types.includes(t) || (t === "integer" && types.includes("number"))))) drop("type");
    const ownDecides = node.additionalProperties !== undefined || node.patternProperties !== undefined || node.unevaluatedProperties !== undefined;
    if (isRecord(node.properties) && !ownDecides) {
      const kept: [string, unknown][] = [];
      for (const [name, sub] of Object.entries(node.properties)) {
        const theirs = outer.filter((a) => isRecord(a.schema.properties) && name in a.schema.properties).map((a) => ({ pointer: a.pointer === undefined ? undefined : `${a.pointer}/properties/${escape(name)}`, schema: (a.schema.properties as JsonObject)[name] }));
        const byRef = isRecord(sub) && typeof sub.$ref === "string" && validating(sub).length === 1 && theirs.some((t) => t.pointer !== undefined && refPointer(sub.$ref as string) === t.pointer);
        if (byRef || theirs.some((t) => canonical(t.schema) === canonical(sub))) continue;
        const next = implied(sub, theirs.filter((t) => isRecord(t.schema)) as Around[]);
        if (next === true || (isRecord(next) && validating(next).length === 0)) continue;
        kept.push([name, next]);
      }
      if (kept.length < Object.keys(node.properties).length || kept.some(([name, sub]) => sub !== (node.properties as JsonObject)[name])) {
        node = { ...node, properties: Object.fromEntries(kept) };
        if (kept.length === 0) drop("properties");
      }
    }
    if (isRecord(node.items)) {
      const theirs = outer.map((a) => a.schema.items).filter(isRecord).map((schema) => ({ schema }));
      const next = implied(node.items, theirs);
      if (next !== node.items) node = { ...node, items: next };
    }
    return node;
  };

  const walk = (schema: unknown, pointer: string, around: Around[]): unknown => {
    if (!isRecord(schema)) return schema;
    // A branch is simplified against the schemas around it; nothing is dropped under unevaluatedProperties.
    const underUnevaluated = around.some((a) => a.schema.unevaluatedProperties !== undefined) || schema.unevaluatedProperties !== undefined;
    let node = around.length > 0 && !underUnevaluated ? (implied(schema, around) as JsonObject) : schema;
    const inner = [...around, { pointer, schema: node }];
    const set = (key: string, value: unknown) => {
      if (value !== node[key]) node = { ...node, [key]: value };
    };
    for (const key of IN_PLACE_LISTS) {
      const list = node[key];
      if (!Array.isArray(list)) continue;
      const next = list.map((item, i) => walk(item, `${pointer}/${key}/${i}`, inner));
      if (next.some((item, i) => item !== list[i])) set(key, next);
    }
    for (const key of IN_PLACE) if (node[key] !== undefined) set(key, walk(node[key], `${pointer}/${key}`, inner));
    // Everything else is another place of the document (or a definition): nothing around applies there.
    for (const [key, value] of Object.entries(node)) {
      if (IN_PLACE_LISTS.includes(key) || IN_PLACE.includes(key)) continue;
      if (CHILD_LISTS.has(key) && Array.isArray(value)) {
        const next = value.map((item, i) => walk(item, `${pointer}/${key}/${i}`, []));
        if (next.some((item, i) => item !== value[i])) set(key, next);
      } else if (CHILD_SCHEMA.has(key)) {
        set(key, walk(value, `${pointer}/${key}`, []));
      } else if (CHILD_MAPS.has(key) && isRecord(value)) {
        let changed = false;
        const next = Object.fromEntries(
          Object.entries(value).map(([name, sub]) => {
            const walked = Array.isArray(sub) ? sub : walk(sub, `${pointer}/${key}/${escape(name)}`, []);
            changed ||= walked !== sub;
            return [name, walked];
          }),
        );
        if (changed) set(key, next);
      }
    }
    return node;
  };
  return walk(root, "", []);
}

const CHILD_SCHEMA = new Set(["items", "additionalItems", "additionalProperties", "unevaluatedItems", "unevaluatedProperties", "contains", "propertyNames", "contentSchema"]);
const CHILD_LISTS = new Set(["items", "prefixItems"]);
const CHILD_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"]);

export const typeList = (type: unknown): string[] | undefined => (typeof type === "string" ? [type] : Array.isArray(type) ? type.filter((t): t is string => typeof t === "string") : undefined);

/** The JSON Pointer of a same-document `$ref` ("#/a/b"), decoded; undefined for any other. */
function refPointer(ref: string): string | undefined {
  if (!ref.startsWith("#/") && ref !== "#") return undefined;
  try {
    return decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);
