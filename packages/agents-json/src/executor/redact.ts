import { defineOwn, isPlainObject } from "../fieldpath.js";

/** Collects secret values and header/parameter names, and masks them in what traces and errors show (§6). */
export interface Redactor {
  secretValues: Set<string>;
  secretQuery: Set<string>;
  /** Header names (lower-case) a run masks besides the ones that always carry secrets. */
  secretHeaders: Set<string>;
  /** Whether a header (lower-case name) carries a secret: masked in traces, never sent to another origin on a redirect. */
  isSecretHeader(name: string): boolean;
  /** A record of the headers with secret ones masked (a record's names must be lower-case, as a Headers gives them). */
  headers(headers: Headers | Record<string, string>): Record<string, string>;
  url(url: URL): string;
  text(text: string): string;
  value(value: unknown): unknown;
}

const MASK = "***";
/** Headers that always carry secrets; a run adds the names its credentials use to `secretHeaders`. */
const ALWAYS_SECRET_HEADERS: ReadonlySet<string> = new Set(["authorization", "cookie", "proxy-authorization", "set-cookie"]);

export function createRedactor(): Redactor {
  const secretValues = new Set<string>();
  const secretQuery = new Set<string>();
  const secretHeaders = new Set<string>();
  const isSecretHeader = (name: string) => ALWAYS_SECRET_HEADERS.has(name) || secretHeaders.has(name);
  // A secret placed in a URL is percent-encoded there, and bodies and error texts echo such URLs.
  const patterns = new Map<string, RegExp>();
  const maskEncoded = (input: string) => {
    if (!input.includes("%") && !input.includes("+")) return input;
    let out = input;
    for (const secret of secretValues) {
      if (secret.length < 3) continue;
      let pattern = patterns.get(secret);
      if (!pattern) patterns.set(secret, (pattern = encodedPattern(secret)));
      out = out.replace(pattern, MASK);
    }
    return out;
  };
  const text = (input: string) => {
    if (secretValues.size === 0) return input;
    let out = input;
    for (const secret of secretValues) if (secret.length >= 3 && out.includes(secret)) out = out.split(secret).join(MASK);
    return maskEncoded(out);
  };
  // Masks strings, keys and numbers (a numeric secret is sent as its text) in place of a JSON text
  // round trip, which missed JSON-escaped secrets and broke on secrets that look like JSON syntax.
  // Containers are copied only where something changed; most bodies are returned as they are.
  const mask = (value: unknown, depth: number): unknown => {
    if (typeof value === "string") return text(value);
    if (typeof value === "number" || typeof value === "bigint") {
      const shown = String(value);
      return text(shown) === shown ? value : MASK;
    }
    if (value === null || typeof value !== "object") return value;
    // Deeper than any real body: fail closed rather than walk on.
    if (depth > 1000) return MASK;
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        const masked = mask(item, depth + 1);
        if (masked !== item) (out ??= value.slice())[i] = masked;
      }
      return out ?? value;
    }
    if (!isPlainObject(value)) return value;
    const keys = Object.keys(value);
    let out: Record<string, unknown> | undefined;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const item = value[key];
      const maskedKey = text(key);
      const masked = mask(item, depth + 1);
      if (!out && (maskedKey !== key || masked !== item)) {
        out = {};
        for (let j = 0; j < i; j++) defineOwn(out, keys[j]!, value[keys[j]!]);
      }
      if (out) defineOwn(out, maskedKey, masked);
    }
    return out ?? value;
  };
  return {
    secretValues,
    secretQuery,
    secretHeaders,
    isSecretHeader,
    headers(headers) {
      const out: Record<string, string> = {};
      const put = (value: string, name: string) => defineOwn(out, name, isSecretHeader(name) ? MASK : text(value));
      if (headers instanceof Headers) headers.forEach(put);
      else for (const name of Object.keys(headers)) put(headers[name]!, name);
      return out;
    },
    url(url) {
      if (secretQuery.size === 0 && secretValues.size === 0) return url.href;
      // Only a URL that carries a secret query parameter needs a copy to mask it in.
      let masked: URL | undefined;
      if (secretQuery.size > 0 && url.search !== "") {
        for (const name of secretQuery) {
          if (!url.searchParams.has(name)) continue;
          masked ??= new URL(url.href);
          masked.searchParams.set(name, MASK);
        }
      }
      return text(masked ? masked.href.replace(/%2A%2A%2A/g, MASK) : url.href);
    },
    text,
    value(value) {
      if (secretValues.size === 0) return value;
      return mask(value, 0);
    },
  };
}

const utf8 = new TextEncoder();

/**
 * Matches a secret however a URL or a form body percent-encodes it, once or again and again (a
 * login redirect's `?return_to=` carries a whole encoded URL, so a secret in that URL's query is
 * encoded twice): each character as itself or as its UTF-8 %XX triples, with %25 for the "%" of
 * each further level, in either hex case, and a space also as "+" (itself encoded as %2B later).
 */
function encodedPattern(secret: string): RegExp {
  const triple = (byte: number) => {
    const hex = byte.toString(16).toUpperCase().padStart(2, "0");
    return "%(?:25)*" + hex.replace(/[A-F]/g, (digit) => `[${digit}${digit.toLowerCase()}]`);
  };
  let source = "";
  for (const char of secret) {
    let triples = "";
    for (const byte of utf8.encode(char)) triples += triple(byte);
    source += `(?:${char.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")}|${triples}${char === " " ? `|\\+|${triple(0x2b)}` : ""})`;
  }
  return new RegExp(source, "g");
}
