import { isPlainObject } from "../fieldpath.js";
import { bareMediaType } from "../sources/media.js";
import type { RequestBody } from "./options.js";
import { encode, scalarText } from "./serialize.js";

type Json = Record<string, unknown>;

/** Why a body cannot be serialised; the caller turns it into `UnsupportedMediaTypeError`. */
export class BodyProblem extends Error {}

/** Serialises a request body for its media type (§4.5). */
export function serializeBody(value: unknown, mediaType: string, schema: Json | undefined, encoding: Json | undefined): RequestBody {
  const bare = bareMediaType(mediaType);
  if (bare === "application/json" || bare.endsWith("+json")) return JSON.stringify(stripNulls(value, schema));
  if (bare === "application/x-www-form-urlencoded") {
    if (!isPlainObject(value)) throw new BodyProblem(`${mediaType} needs an object body`);
    // URLSearchParams encodes every reserved character; with allowReserved on some field (OpenAPI
    // 3.1.1 Encoding Object) the body is written as text, each value encoded as a query value is.
    const asText = encoding !== undefined && Object.values(encoding).some((entry) => isPlainObject(entry) && entry.allowReserved === true);
    const form = new URLSearchParams();
    const pairs: string[] = [];
    for (const [name, field] of Object.entries(value)) {
      if (field === null || field === undefined) continue;
      const fieldEncoding = isPlainObject(encoding?.[name]) ? (encoding[name] as Json) : undefined;
      const keep = fieldEncoding?.allowReserved === true;
      const append = asText ? (key: string, text: string) => void pairs.push(`${encode(key)}=${encode(text, keep)}`) : (key: string, text: string) => form.append(key, text);
      if (fieldEncoding?.style === "deepObject" && typeof field === "object") appendDeep(append, name, field);
      else if (Array.isArray(field)) {
        const style = fieldEncoding?.style;
        // spaceDelimited and pipeDelimited default to explode: false (OpenAPI 3.1.1 Encoding Object).
        const delimiter = style === "spaceDelimited" ? " " : style === "pipeDelimited" ? "|" : ",";
        if ((fieldEncoding?.explode ?? delimiter === ",") === false) append(name, field.map(scalarText).join(delimiter));
        else for (const item of field) append(name, scalarText(item));
      } else if (isPlainObject(field) && (fieldEncoding?.style !== undefined || fieldEncoding?.explode !== undefined)) {
        // An encoding entry with a style or explode says how an object goes; without one it is JSON text.
        if (fieldEncoding.explode ?? fieldEncoding.style === "form") for (const [key, item] of Object.entries(field)) append(key, scalarText(item));
        else append(name, Object.entries(field).flatMap(([key, item]) => [key, scalarText(item)]).join(","));
      } else append(name, scalarText(field));
    }
    return asText ? pairs.join("&") : form;
  }
  if (bare === "multipart/form-data") {
    if (!isPlainObject(value)) throw new BodyProblem(`${mediaType} needs an object body`);
    const form = new FormData();
    for (const [name, field] of Object.entries(value)) {
      if (field === null || field === undefined) continue;
      // An array is one part per item (OpenAPI 3.1.1 multipart: repeated parts, e.g. several files).
      if (Array.isArray(field)) for (const item of field) appendPart(form, name, item);
      else appendPart(form, name, field);
    }
    return form;
  }
  if (typeof value === "string") return value;
  if (value instanceof Uint8Array || value instanceof ArrayBuffer || value instanceof Blob) return value;
  throw new BodyProblem(`a ${mediaType} body must be a string or bytes, got ${Array.isArray(value) ? "an array" : typeof value}`);
}

function appendPart(form: FormData, name: string, field: unknown): void {
  if (field === null || field === undefined) return;
  // A File keeps its own name (a third argument would replace it).
  if (field instanceof Blob) form.append(name, field, field instanceof File ? field.name : "file");
  else if (field instanceof Uint8Array || field instanceof ArrayBuffer) form.append(name, new Blob([field]), "file");
  else if (typeof field === "object") form.append(name, new Blob([JSON.stringify(field)], { type: "application/json" }));
  else form.append(name, scalarText(field));
}

/** deepObject form fields, nested as Stripe reads them: `a[b][c]=v`, arrays `a[0]=v`. */
function appendDeep(append: (name: string, value: string) => void, name: string, value: unknown): void {
  if (Array.isArray(value)) value.forEach((item, index) => appendDeep(append, `${name}[${index}]`, item));
  else if (isPlainObject(value)) for (const [key, item] of Object.entries(value)) appendDeep(append, `${name}[${key}]`, item);
  else if (value !== null && value !== undefined) append(name, scalarText(value));
}

/**
 * Removes null-valued object properties that the schema does not mark nullable (3.0 `nullable`, 3.1
 * type lists). A value with no null property anywhere, which is most bodies, is returned as it is.
 */
export function stripNulls(value: unknown, schema: Json | undefined): unknown {
  return hasStrippableNull(value) ? strip(value, schema) : value;
}

function strip(value: unknown, schema: Json | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => strip(item, asSchema(schema?.items)));
  if (!isPlainObject(value)) return value;
  const properties = asSchema(schema?.properties);
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) {
    const propertySchema = asSchema(properties?.[key]);
    if (item === null && !isNullable(propertySchema)) continue;
    Object.defineProperty(out, key, { value: strip(item, propertySchema), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Whether `strip` could change a JSON body: true when a plain object anywhere in it (through plain
 * objects and arrays, the only containers `strip` walks) has a null-valued property.
 */
function hasStrippableNull(value: unknown, depth = 0): boolean {
  if (depth > 1000) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (hasStrippableNull(item, depth + 1)) return true;
    return false;
  }
  if (!isPlainObject(value)) return false;
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (item === null || hasStrippableNull(item, depth + 1)) return true;
  }
  return false;
}

function asSchema(value: unknown): Json | undefined {
  return isPlainObject(value) ? value : undefined;
}

function isNullable(schema: Json | undefined): boolean {
  if (!schema) return false;
  if (schema.nullable === true) return true;
  if (Array.isArray(schema.type) && schema.type.includes("null")) return true;
  if (schema.type === "null") return true;
  for (const key of ["anyOf", "oneOf"]) {
    const list = schema[key];
    if (Array.isArray(list) && list.some((inner) => isNullable(asSchema(inner)))) return true;
  }
  return false;
}
