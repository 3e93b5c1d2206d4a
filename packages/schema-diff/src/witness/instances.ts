import { isRecord } from "../json-text.js";
import type { JsonObject } from "../read-schemas.js";
import { child, type Loc } from "../diff/context.js";
import { canonical } from "../diff/json.js";
import type { SchemaSide } from "../diff/load.js";
import { matching } from "./pattern.js";

/**
 * Documents a schema plausibly accepts, generated from its keywords (a normal form, `$ref`s
 * followed on its side): the plainest first, then variants that take each union branch, each type,
 * each `enum` value and every optional property. Plausibly: `if`/`not` and some combinations are not
 * solved here; whoever uses a value validates it. Generation is bounded in depth and breadth.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** How deep generation goes before it writes the plainest value of a type. */
const MAX_DEPTH = 8;
/** Optional properties written in "full" mode, per object. */
const MAX_OPTIONAL = 24;
const TYPES = ["object", "array", "string", "integer", "number", "boolean", "null"];

const FORMATS: Record<string, string> = {
  "date-time": "2024-01-02T03:04:05Z",
  date: "2024-01-02",
  time: "03:04:05Z",
  duration: "P1D",
  email: "a@example.com",
  "idn-email": "a@example.com",
  hostname: "example.com",
  "idn-hostname": "example.com",
  ipv4: "127.0.0.1",
  ipv6: "::1",
  uri: "https://example.com/",
  "uri-reference": "https://example.com/",
  iri: "https://example.com/",
  "iri-reference": "https://example.com/",
  "uri-template": "https://example.com/{id}",
  url: "https://example.com/",
  uuid: "00000000-0000-0000-0000-000000000000",
  regex: "a+",
  "json-pointer": "/a",
  "relative-json-pointer": "0",
  byte: "YQ==",
  color: "#ffffff",
};

type Holder = Loc & { schema: JsonObject };
type Mode = { full: boolean; branch?: number; type?: string; enumIndex?: number };

export interface ValueGenerator {
  /**
   * The plainest value: only required properties, first branches, fewest items (`full`: every
   * optional property too). `via`, a pointer under `loc`, picks the union branch that leads there.
   */
  plain(loc: Loc, options?: { full?: boolean; via?: string }): Json;
  /** Up to `limit` different values, the plainest first. */
  variants(loc: Loc, limit: number): Json[];
}

export function generator(side: SchemaSide): ValueGenerator {
  const resolve = (loc: Loc): Loc | undefined => {
    let current = loc;
    for (let step = 0; step < 16 && isRecord(current.schema) && typeof current.schema.$ref === "string"; step++) {
      const { $ref, ...rest } = current.schema;
      try {
        const target = side.resolve($ref, current.file, current.pointer);
        // Keywords beside the $ref are annotations in a normal form; the target is what validates.
        current = Object.keys(rest).length === 0 || !isRecord(target.schema) ? target : { ...target, schema: { ...rest, ...target.schema } };
      } catch {
        return undefined;
      }
    }
    return current;
  };

  /**
   * `mode.full` adds optional properties; `mode.branch` and `mode.type` pick a union branch and a
   * type at the top. `outer`: the schemas around this one at the same place of the document (a
   * branch may require a property that only the schema around it describes).
   */
  const value = (loc: Loc, depth: number, mode: Mode, outer: Holder[] = []): Json => {
    const target = resolve(loc);
    if (!target) return null;
    const schema = target.schema;
    if (schema === true || schema === undefined) return "x";
    if (!isRecord(schema)) return null;
    const at = target as Holder;
    if ("const" in schema) return schema.const as Json;
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[Math.min(mode.enumIndex ?? 0, schema.enum.length - 1)] as Json;
    const inner = { full: mode.full && depth < 3, type: mode.type };
    const around = [at, ...outer];
    const union = Array.isArray(schema.anyOf) ? "anyOf" : Array.isArray(schema.oneOf) ? "oneOf" : undefined;
    let own = ownValue(at, depth, mode, outer);
    if (depth > MAX_DEPTH) return own;
    if (union) {
      const branches = schema[union] as unknown[];
      const index = Math.min(mode.branch ?? preferredBranch(at, union), branches.length - 1);
      own = merge(own, value(child(at, union, index), depth + 1, inner, around), typesOf(schema) === undefined && !hasShape(schema));
    }
    if (Array.isArray(schema.allOf)) {
      for (let i = 0; i < schema.allOf.length; i++) own = merge(own, value(child(at, "allOf", i), depth + 1, inner, around), false);
    }
    // A condition: the branch that applies to the value so far adds what it requires.
    if (schema.if !== undefined) {
      const branch = holds(schema.if, own) === false ? "else" : "then";
      if (schema[branch] !== undefined) own = merge(own, value(child(at, branch), depth + 1, inner, around), false);
    }
    return own;
  };

  /** The value the schema's own keywords call for (unions and allOf aside). */
  const ownValue = (loc: Holder, depth: number, mode: Mode, outer: Holder[]): Json => {
    const schema = loc.schema;
    const allowed = typesOf(schema);
    const type = mode.type && (!allowed || allowed.includes(mode.type) || (mode.type === "integer" && allowed.includes("number"))) ? mode.type : (allowed?.[0] ?? shapeOf(schema));
    switch (type) {
      case "object":
        return objectValue(loc, depth, mode.full, outer);
      case "array":
        return arrayValue(loc, depth, mode.full);
      case "string":
        return stringValue(schema);
      case "integer":
      case "number":
        return numberValue(schema, type === "integer");
      case "boolean":
        return true;
      case "null":
        return null;
      default:
        return NOTHING;
    }
  };

  const objectValue = (loc: Holder, depth: number, full: boolean, outer: Holder[]): Json => {
    const schema = loc.schema;
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const required = strings(schema.required);
    const optional = full ? Object.keys(properties).filter((name) => !required.includes(name)).slice(0, MAX_OPTIONAL) : [];
    const out: { [key: string]: Json } = {};
    const add = (name: string) => {
      if (name in out) return;
      const declaring = [loc, ...outer].find((holder) => declares(holder.schema, name)) ?? loc;
      out[name] = depth > MAX_DEPTH ? "x" : orAny(value(propertyLoc(declaring, name), depth + 1, { full: full && depth < 3 }));
    };
    for (const name of [...required, ...optional]) add(name);
    // Names that present names bring in.
    for (const keyword of ["dependentRequired", "dependencies"]) {
      const map = isRecord(schema[keyword]) ? (schema[keyword] as JsonObject) : {};
      for (const [name, names] of Object.entries(map)) if (name in out && Array.isArray(names)) strings(names).forEach(add);
    }
    const min = typeof schema.minProperties === "number" ? Math.min(schema.minProperties, 64) : 0;
    for (const name of Object.keys(properties)) if (Object.keys(out).length < min) add(name);
    // Then names the patterns allow, then undeclared ones.
    const patterns = Object.keys(isRecord(schema.patternProperties) ? schema.patternProperties : {});
    for (const pattern of patterns) {
      const name = matching(pattern);
      if (name !== undefined && Object.keys(out).length < min) add(name);
    }
    for (let n = 0; Object.keys(out).length < min; n++) add(`x${n}`);
    return out;
  };

  const arrayValue = (loc: Holder, depth: number, full: boolean): Json => {
    const schema = loc.schema;
    const positions = Array.isArray(schema.prefixItems) ? "prefixItems" : Array.isArray(schema.items) ? "items" : undefined;
    const count = positions ? (schema[positions] as unknown[]).length : 0;
    const rest = positions === "items" ? "additionalItems" : "items";
    const min = Math.min(typeof schema.minItems === "number" ? schema.minItems : 0, 64);
    const length = Math.max(min, full ? Math.max(count, schema[rest] === false ? 0 : 1) : 0, schema.contains !== undefined ? 1 : 0);
    const out: Json[] = [];
    const taken = new Set<string>();
    for (let i = 0; i < length && depth <= MAX_DEPTH; i++) {
      const itemLoc = positions && i < count ? child(loc, positions, i) : schema.contains !== undefined && i === 0 ? child(loc, "contains") : child(loc, rest);
      let item = orAny(value(itemLoc, depth + 1, { full: false }));
      // Unique items: another value the item schema allows, before a made-up one ("always1" is in no enum).
      if (schema.uniqueItems === true && taken.has(canonical(item)) && !pickingUnique) {
        pickingUnique = true;
        try {
          item = variants(itemLoc, 8).find((v) => !taken.has(canonical(v))) ?? item;
        } finally {
          pickingUnique = false;
        }
      }
      taken.add(canonical(item));
      out.push(item);
    }
    return schema.uniqueItems === true ? distinct(out) : out;
  };
  // Set while a unique item is picked among variants, whose arrays then take the plain way (bounded).
  let pickingUnique = false;

  const variants = (loc: Loc, limit: number): Json[] => {
    const target = resolve(loc);
    const schema = target && isRecord(target.schema) ? target.schema : {};
    const modes: Mode[] = [{ full: false }, { full: true }];
    const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : [];
    union.forEach((_, branch) => modes.push({ full: false, branch }, { full: true, branch }));
    for (const type of typesOf(schema) ?? []) modes.push({ full: false, type }, { full: true, type });
    if (Array.isArray(schema.enum)) schema.enum.forEach((_, enumIndex) => modes.push({ full: false, enumIndex }));
    const out: Json[] = [];
    const seen = new Set<string>();
    for (const mode of modes) {
      if (out.length >= limit) break;
      const v = value(loc, 0, mode);
      const key = canonical(v);
      if (v === NOTHING || seen.has(key)) continue;
      seen.add(key);
      out.push(v);
    }
    if (schema.type === "boolean" || (Array.isArray(schema.type) && schema.type.includes("boolean"))) out.push(false);
    if (out.length === 0) out.push("x");
    return out.slice(0, limit);
  };

  // The same locations are asked for again and again (every document is built along the same
  // path): values are made once. They are never changed afterwards, only copied into documents.
  const plainMemo = new Map<string, Json>();
  const variantsMemo = new Map<string, Json[]>();
  const keyOf = (loc: Loc, extra: string) => (isRecord(loc.schema) || loc.schema === undefined || typeof loc.schema === "boolean" ? `${loc.file.uri}#${loc.pointer}|${extra}` : undefined);
  return {
    plain: (loc, options = {}) => {
      const branch = options.via === undefined ? undefined : /^\/(?:anyOf|oneOf)\/(\d+)/.exec(options.via.slice(loc.pointer.length))?.[1];
      const key = keyOf(loc, `${options.full ?? false}|${branch}`);
      if (key !== undefined && plainMemo.has(key)) return plainMemo.get(key)!;
      const v = orAny(value(loc, 0, { full: options.full ?? false, branch: branch === undefined ? undefined : Number(branch) }));
      if (key !== undefined) plainMemo.set(key, v);
      return v;
    },
    variants: (loc, limit) => {
      const key = keyOf(loc, String(limit));
      if (key !== undefined && variantsMemo.has(key)) return variantsMemo.get(key)!;
      const v = variants(loc, limit);
      if (key !== undefined) variantsMemo.set(key, v);
      return v;
    },
  };
}

/** Stands for "the schema asks for no type": what a union branch or conjunct gives replaces it, else "x". */
const NOTHING: Json = Object.freeze({}) as Json;
const orAny = (v: Json): Json => (v === NOTHING ? "x" : v);

/** Prefers a union branch that is not `null` (a document is more telling with a value). */
function preferredBranch(loc: Loc & { schema: JsonObject }, union: string): number {
  const branches = loc.schema[union] as unknown[];
  const index = branches.findIndex((branch) => !(isRecord(branch) && branch.type === "null"));
  return Math.max(index, 0);
}

/** The schema of a property as a document's value sees it: declared, matched by a pattern, or undeclared. */
export function propertyLoc(loc: Loc & { schema: JsonObject }, name: string): Loc {
  const schema = loc.schema;
  if (isRecord(schema.properties) && name in schema.properties) return child(loc, "properties", name);
  for (const pattern of Object.keys(isRecord(schema.patternProperties) ? schema.patternProperties : {})) {
    try {
      if (new RegExp(pattern, "u").test(name)) return child(loc, "patternProperties", pattern);
    } catch {
      // An invalid pattern matches nothing.
    }
  }
  return child(loc, "additionalProperties");
}

/** Whether a schema describes a property by name (declared, or matched by a pattern). */
function declares(schema: JsonObject, name: string): boolean {
  if (isRecord(schema.properties) && name in schema.properties) return true;
  return Object.keys(isRecord(schema.patternProperties) ? schema.patternProperties : {}).some((pattern) => {
    try {
      return new RegExp(pattern, "u").test(name);
    } catch {
      return false;
    }
  });
}

/**
 * Whether a value passes a schema, for the few keywords conditions use (`required`, `properties`,
 * `const`, `enum`, `type`, `not` and the combinators); undefined when another keyword would decide.
 */
function holds(schema: unknown, value: Json): boolean | undefined {
  if (schema === true || schema === undefined) return true;
  if (schema === false) return false;
  if (!isRecord(schema)) return undefined;
  const verdicts: (boolean | undefined)[] = [];
  for (const [keyword, sub] of Object.entries(schema)) {
    if (isAnnotationKeyword(keyword)) continue;
    switch (keyword) {
      case "required":
        verdicts.push(!isRecord(value) || strings(sub).every((name) => name in value));
        break;
      case "properties":
        if (isRecord(value) && isRecord(sub)) for (const [name, s] of Object.entries(sub)) if (name in value) verdicts.push(holds(s, (value as { [k: string]: Json })[name]!));
        break;
      case "const":
        verdicts.push(canonical(sub) === canonical(value));
        break;
      case "enum":
        verdicts.push(Array.isArray(sub) && sub.some((v) => canonical(v) === canonical(value)));
        break;
      case "type": {
        const types = typeof sub === "string" ? [sub] : Array.isArray(sub) ? sub : [];
        const own = value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "number" ? (Number.isInteger(value) ? "integer" : "number") : typeof value;
        verdicts.push(types.includes(own) || (own === "integer" && types.includes("number")));
        break;
      }
      case "not": {
        const inner = holds(sub, value);
        verdicts.push(inner === undefined ? undefined : !inner);
        break;
      }
      case "allOf":
      case "anyOf":
      case "oneOf": {
        const each = Array.isArray(sub) ? sub.map((s) => holds(s, value)) : [];
        if (each.includes(undefined)) verdicts.push(undefined);
        else if (keyword === "allOf") verdicts.push(each.every(Boolean));
        else if (keyword === "anyOf") verdicts.push(each.some(Boolean));
        else verdicts.push(each.filter(Boolean).length === 1);
        break;
      }
      default:
        verdicts.push(undefined);
    }
  }
  return verdicts.includes(false) ? false : verdicts.includes(undefined) ? undefined : true;
}

const isAnnotationKeyword = (keyword: string) => ["title", "description", "$comment", "default", "examples", "markdownDescription", "deprecated"].includes(keyword) || keyword.startsWith("x-");

/** A conjunct's or branch's value `b` with the schema's own `a`: objects merge (own keys win); otherwise the more specific `b`. */
function merge(a: Json, b: Json | undefined, replace: boolean): Json {
  if (b === undefined || b === NOTHING) return a;
  if (replace || a === NOTHING) return b;
  if (isRecord(a) && isRecord(b)) return { ...(b as { [key: string]: Json }), ...(a as { [key: string]: Json }) };
  return b;
}

function typesOf(schema: JsonObject): string[] | undefined {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === "string" && TYPES.includes(t));
  return undefined;
}

const OBJECT_KEYWORDS = ["properties", "required", "additionalProperties", "patternProperties", "minProperties", "maxProperties", "propertyNames", "dependentRequired", "dependencies"];
const ARRAY_KEYWORDS = ["items", "prefixItems", "additionalItems", "minItems", "maxItems", "uniqueItems", "contains"];
const STRING_KEYWORDS = ["minLength", "maxLength", "pattern", "format"];
const NUMBER_KEYWORDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];

/** The type a schema without `type` is shaped for, by its keywords. */
function shapeOf(schema: JsonObject): string | undefined {
  if (OBJECT_KEYWORDS.some((k) => k in schema)) return "object";
  if (ARRAY_KEYWORDS.some((k) => k in schema)) return "array";
  if (STRING_KEYWORDS.some((k) => k in schema)) return "string";
  if (NUMBER_KEYWORDS.some((k) => k in schema)) return "number";
  return undefined;
}

const hasShape = (schema: JsonObject) => shapeOf(schema) !== undefined;

function stringValue(schema: JsonObject): string {
  let s = (typeof schema.format === "string" ? FORMATS[schema.format] : undefined) ?? (typeof schema.pattern === "string" ? matching(schema.pattern) : undefined) ?? "x";
  const min = typeof schema.minLength === "number" ? Math.min(schema.minLength, 4096) : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Infinity;
  if ([...s].length < min) s = s + "x".repeat(min - [...s].length);
  if ([...s].length > max) s = [...s].slice(0, max).join("");
  return s;
}

function numberValue(schema: JsonObject, integer: boolean): number {
  const num = (v: unknown) => (typeof v === "number" ? v : undefined);
  const step = integer ? 1 : 0.5;
  const lower = num(schema.exclusiveMinimum) !== undefined ? num(schema.exclusiveMinimum)! + step : num(schema.minimum);
  const upper = num(schema.exclusiveMaximum) !== undefined ? num(schema.exclusiveMaximum)! - step : num(schema.maximum);
  let n = lower ?? (upper !== undefined ? Math.min(0, upper) : 0);
  if (integer) n = Math.ceil(n);
  const multipleOf = num(schema.multipleOf);
  if (multipleOf && multipleOf > 0) n = Math.ceil(n / multipleOf) * multipleOf;
  return n;
}

function distinct(items: Json[]): Json[] {
  const seen = new Set<string>();
  return items.map((item, i) => {
    let next = item;
    if (seen.has(canonical(next))) next = typeof item === "string" ? `${item}${i}` : typeof item === "number" ? item + i : item;
    seen.add(canonical(next));
    return next;
  });
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);
