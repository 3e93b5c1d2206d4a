let cache = new WeakMap<object, string>();

/**
 * Starts a fresh memo for `canonical`. A diff run starts one, so that schemas a caller edits
 * between two runs are never compared by a stale text.
 */
export function resetCanonicalMemo(): void {
  cache = new WeakMap();
}

/**
 * JSON with object keys sorted, so equal values give equal strings whatever their key order.
 * Memoised per object: the diff asks about the same subtrees at every level of a schema.
 */
export function canonical(value: unknown): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
  const known = cache.get(value);
  if (known !== undefined) return known;
  const text = Array.isArray(value)
    ? `[${value.map(canonical).join(",")}]`
    : `{${Object.keys(value)
        .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
        .sort()
        .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
        .join(",")}}`;
  cache.set(value, text);
  return text;
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  return a === b || canonical(a) === canonical(b);
}

/** A value as it appears in a message: JSON, shortened. */
export function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
