import type { OpenApiParameter } from "../sources/openapi.js";

// `#`, `[` and `]` are reserved too, but not allowed in a query (OpenAPI 3.1.1 allowReserved): `#`
// would start the fragment and cut the query short.
const UNRESERVED_KEEP = /[:/?@!$&'()*+,;=]/g;

/** Percent-encodes a value; with `allowReserved`, RFC 3986 reserved characters a query allows stay as they are. */
export function encode(value: string, allowReserved = false): string {
  const encoded = encodeURIComponent(value);
  if (!allowReserved) return encoded;
  return encoded.replace(/%([0-9A-F]{2})/g, (match, hex: string) => {
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
  if (Array.isArray(value)) {
    if (style === "spaceDelimited") return [`${name}=${value.map((item) => enc(scalarText(item))).join("%20")}`];
    if (style === "pipeDelimited") return [`${name}=${value.map((item) => enc(scalarText(item))).join("|")}`];
    if (explode) return value.map((item) => `${name}=${enc(scalarText(item))}`);
    return [`${name}=${value.map((item) => enc(scalarText(item))).join(",")}`];
  }
  if (isObject(value)) {
    if (explode) return Object.entries(value).map(([k, v]) => `${encode(k)}=${enc(scalarText(v))}`);
    return [`${name}=${Object.entries(value).map(([k, v]) => `${enc(k)},${enc(scalarText(v))}`).join(",")}`];
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

/** One cookie pair `name=value` (values percent-encoded). */
export function cookiePair(name: string, value: unknown): string {
  const text = Array.isArray(value) ? value.map(scalarText).join(",") : scalarText(value);
  return `${name}=${encode(text)}`;
}
