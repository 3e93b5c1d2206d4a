import type { OpenApiParameter } from "../sources/openapi.js";

// `#`, `[` and `]` are reserved too, but not allowed in a query (OpenAPI 3.1.1 allowReserved): `#`
// would start the fragment and cut the query short.
const UNRESERVED_KEEP = /[:/?@!$&'()*+,;=]/g;

/** A value that cannot be placed in a URL, form or cookie; the caller names the parameter or field. */
export class ValueProblem extends Error {}

/** `encodeURIComponent`, but a lone surrogate (which has no UTF-8 form) is a `ValueProblem` saying where, not a bare URIError. */
export function percentEncode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    const lone = LONE_SURROGATE.exec(value);
    const where = lone ? ` (U+${lone[0].charCodeAt(0).toString(16).toUpperCase()} at index ${lone.index})` : "";
    throw new ValueProblem(`contains a lone surrogate${where}, which has no UTF-8 form`);
  }
}
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Percent-encodes a value; with `allowReserved`, RFC 3986 reserved characters a query allows and
 * percent-encoded triples (`%XX`) stay as they are (OpenAPI 3.1.1), while a lone `%` is encoded.
 */
export function encode(value: string, allowReserved = false): string {
  const encoded = percentEncode(value);
  if (!allowReserved) return encoded;
  return encoded.replace(/%([0-9A-F]{2})/g, (match, hex: string, at: number) => {
    // A "%" of the value is "%25" here; the two characters after it are still as the value had them.
    if (hex === "25") return /^[0-9A-Fa-f]{2}/.test(encoded.slice(at + 3, at + 5)) ? "%" : match;
    const char = String.fromCharCode(parseInt(hex, 16));
    UNRESERVED_KEEP.lastIndex = 0;
    return UNRESERVED_KEEP.test(char) ? char : match;
  });
}

/** A scalar as text: booleans `true`/`false`, objects as JSON. */
export function scalarText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  return JSON.stringify(value);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A path parameter, style `simple` (§4.5): arrays comma-joined, everything percent-encoded. */
export function pathValue(parameter: OpenApiParameter, value: unknown): string {
  if (parameter.content) return encode(JSON.stringify(value));
  const explode = parameter.explode === true;
  const style = parameter.style ?? "simple";
  const matrix = style === "matrix";
  const prefix = style === "label" ? "." : matrix ? `;${parameter.name}=` : "";
  // Exploded label/matrix values repeat their prefix per item (`.a.b`, `;id=a;id=b`, `;R=1;G=2`).
  const separator = !explode || style === "simple" ? "," : matrix ? ";" : ".";
  if (Array.isArray(value)) {
    const items = value.map((item) => encode(scalarText(item)));
    return prefix + items.join(explode && matrix ? prefix : separator);
  }
  if (isObject(value)) {
    const pairs = Object.entries(value).map(([k, v]) => (explode ? `${encode(k)}=${encode(scalarText(v))}` : `${encode(k)},${encode(scalarText(v))}`));
    return (explode && matrix ? ";" : prefix) + pairs.join(separator);
  }
  return prefix + encode(scalarText(value));
}

/** Query pairs for one parameter: form/explode by default; explode:false, spaceDelimited, pipeDelimited, deepObject honoured. */
export function queryPairs(parameter: OpenApiParameter, value: unknown): string[] {
  const name = encode(parameter.name);
  const reserved = parameter.allowReserved === true;
  const enc = (text: string) => encode(text, reserved);
  if (parameter.content) return [`${name}=${enc(JSON.stringify(value))}`];
  const style = parameter.style ?? "form";
  const explode = parameter.explode ?? style === "form";
  if (style === "deepObject" && isObject(value)) {
    return Object.entries(value).map(([k, v]) => `${name}%5B${encode(k)}%5D=${enc(scalarText(v))}`);
  }
  // spaceDelimited and pipeDelimited join with their delimiter; exploded, they are form (OpenAPI 3.2).
  const delimiter = style === "spaceDelimited" ? "%20" : style === "pipeDelimited" ? "|" : ",";
  if (Array.isArray(value)) {
    if (explode) return value.map((item) => `${name}=${enc(scalarText(item))}`);
    return [`${name}=${value.map((item) => enc(scalarText(item))).join(delimiter)}`];
  }
  if (isObject(value)) {
    if (explode) return Object.entries(value).map(([k, v]) => `${encode(k)}=${enc(scalarText(v))}`);
    return [`${name}=${Object.entries(value).map(([k, v]) => `${enc(k)}${delimiter}${enc(scalarText(v))}`).join(delimiter)}`];
  }
  return [`${name}=${enc(scalarText(value))}`];
}

/** A header value, style `simple`. */
export function headerValue(parameter: OpenApiParameter, value: unknown): string {
  if (parameter.content) return JSON.stringify(value);
  if (Array.isArray(value)) return value.map(scalarText).join(",");
  if (isObject(value)) return Object.entries(value).map(([k, v]) => (parameter.explode ? `${k}=${scalarText(v)}` : `${k},${scalarText(v)}`)).join(",");
  return scalarText(value);
}

// RFC 9110 field-name: a token. Headers.set throws a TypeError for anything else.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Whether an OpenAPI header parameter name can be sent as an HTTP header name. */
export function isHeaderName(name: string): boolean {
  return HEADER_NAME.test(name);
}

/** The error text for a header parameter whose name cannot be sent. */
export function headerNameProblem(actionId: string, operationId: string, name: string): string {
  return (
    `action "${actionId}" (operation "${operationId}"): header parameter "${name}" is not a valid HTTP header name ` +
    "(RFC 9110 token: letters, digits and !#$%&'*+-.^_`|~); fix the name in the OpenAPI document or with an override"
  );
}

// What undici's Headers refuses in a value (its TypeError shows the value, which may be a secret).
const UNSENDABLE_IN_HEADER = /[\0\n\r\u0100-\uffff]/;

/** Why a header value cannot be sent, or undefined when it can. */
export function headerValueProblem(value: string): string | undefined {
  const at = value.search(UNSENDABLE_IN_HEADER);
  if (at < 0) return undefined;
  const code = value.charCodeAt(at);
  const what = code === 13 ? "a CR (\\r)" : code === 10 ? "an LF (\\n)" : code === 0 ? "a NUL" : "a character beyond Latin-1";
  return `contains ${what} at index ${at}`;
}

/**
 * A cookie parameter as `name=value` (values percent-encoded), style `form`: arrays comma-joined,
 * objects `name=k,v,…` without explode, with explode (the form default) one `k=v` pair per property.
 */
export function cookiePair(parameter: OpenApiParameter, value: unknown): string {
  const { name } = parameter;
  if (parameter.content) return `${name}=${encode(JSON.stringify(value))}`;
  if (isObject(value)) {
    if (parameter.explode ?? true) return Object.entries(value).map(([k, v]) => `${encode(k)}=${encode(scalarText(v))}`).join("; ");
    value = Object.entries(value).flatMap(([k, v]) => [k, v]);
  }
  // The commas are encoded too: RFC 6265 cookie-octet excludes them.
  const text = Array.isArray(value) ? value.map(scalarText).join(",") : scalarText(value);
  return `${name}=${encode(text)}`;
}
