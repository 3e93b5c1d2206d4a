import { defineOwn } from "../fieldpath.js";

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
  const text = (input: string) => {
    let out = input;
    for (const secret of secretValues) if (secret.length >= 3 && out.includes(secret)) out = out.split(secret).join(MASK);
    return out;
  };
  // A secret placed in a path segment (or anywhere a URL holds it) is percent-encoded there.
  const patterns = new Map<string, RegExp>();
  const maskEncoded = (href: string) => {
    if (!href.includes("%")) return href;
    let out = href;
    for (const secret of secretValues) {
      if (secret.length < 3) continue;
      let pattern = patterns.get(secret);
      if (!pattern) patterns.set(secret, (pattern = encodedPattern(secret)));
      out = out.replace(pattern, MASK);
    }
    return out;
  };
  const containsSecret = (value: unknown, depth: number): boolean => {
    if (typeof value === "string") {
      for (const secret of secretValues) if (secret.length >= 3 && value.includes(secret)) return true;
      return false;
    }
    if (value === null || typeof value !== "object" || depth > 100) return false;
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) if (containsSecret(key, depth + 1) || containsSecret(record[key], depth + 1)) return true;
    return false;
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
      return maskEncoded(masked ? text(masked.href.replace(/%2A%2A%2A/g, MASK)) : text(url.href));
    },
    text,
    value(value) {
      if (typeof value === "string") return text(value);
      if (secretValues.size === 0 || value === null || typeof value !== "object" || value instanceof Uint8Array) return value;
      // Copy only when some string holds a secret; most bodies are returned as they are.
      return containsSecret(value, 0) ? (JSON.parse(text(JSON.stringify(value))) as unknown) : value;
    },
  };
}

const utf8 = new TextEncoder();

/** Matches a secret however a URL percent-encodes it: each character as itself or as its UTF-8 %XX triples, in either hex case. */
function encodedPattern(secret: string): RegExp {
  let source = "";
  for (const char of secret) {
    let triples = "";
    for (const byte of utf8.encode(char)) {
      const hex = byte.toString(16).toUpperCase().padStart(2, "0");
      triples += "%" + hex.replace(/[A-F]/g, (digit) => `[${digit}${digit.toLowerCase()}]`);
    }
    source += `(?:${char.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")}|${triples})`;
  }
  return new RegExp(source, "g");
}
