/**
 * The fieldPath grammar of protocol notes §3.4 and the reads and writes of §3.5/§3.6. Every read
 * and write uses own properties only, so no document or response can reach `Object.prototype`.
 */

export type FieldPathProblem = { code: "fieldpath-syntax" | "fieldpath-unsafe"; message: string };

/** Splits a fieldPath on dots outside square brackets, or says why it is malformed. */
export function splitFieldPath(path: string): { segments: string[] } | FieldPathProblem {
  const segments: string[] = [];
  let current = "";
  let depth = 0;
  for (const char of path) {
    if (char === "[") depth++;
    else if (char === "]" && depth > 0) depth--;
    if (char === "." && depth === 0) {
      segments.push(current);
      current = "";
    } else current += char;
  }
  segments.push(current);
  if (depth > 0) return { code: "fieldpath-syntax", message: `fieldPath "${path}" has an unclosed "["` };
  const empty = segments.findIndex((segment) => segment === "");
  if (empty >= 0) {
    return { code: "fieldpath-syntax", message: `fieldPath "${path}" has an empty segment (leading, trailing or doubled dot) at position ${empty}` };
  }
  if (segments.includes("__proto__")) {
    return { code: "fieldpath-unsafe", message: `fieldPath "${path}" has a "__proto__" segment, which is never allowed` };
  }
  return { segments };
}

/** Like `splitFieldPath`, but throws a plain Error for malformed paths (callers have validated). */
export function parseFieldPath(path: string): string[] {
  const result = splitFieldPath(path);
  if ("segments" in result) return result.segments;
  throw new Error(result.message);
}

const INDEX = /^\d+$/;

type Container = Record<string, unknown> | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === "object" && value !== null;
}

/** True for plain objects (object literals, JSON, null-prototype records). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Reads one step: arrays by index, objects by own key; anything else is absent. */
export function step(value: unknown, segment: string): { found: true; value: unknown } | { found: false } {
  if (Array.isArray(value)) {
    if (!INDEX.test(segment)) return { found: false };
    const index = Number(segment);
    return index < value.length ? { found: true, value: value[index] } : { found: false };
  }
  if (isContainer(value) && Object.hasOwn(value, segment)) return { found: true, value: (value as Record<string, unknown>)[segment] };
  return { found: false };
}

export type ReadResult = { found: true; value: unknown } | { found: false; failedAt: number; reason: "absent" | "empty" };

/**
 * Walks `segments` from `root`. With `strictIntermediates` (reading `responses.success`), an
 * intermediate that is absent, `null`, `""`, `{}` or `[]` fails at that segment; otherwise the
 * first absent value ends the walk as absent.
 */
export function readPath(root: unknown, segments: readonly string[], strictIntermediates = false): ReadResult {
  let value = root;
  for (let i = 0; i < segments.length; i++) {
    const next = step(value, segments[i]!);
    const last = i === segments.length - 1;
    if (!next.found) return { found: false, failedAt: i, reason: "absent" };
    if (strictIntermediates && !last && isEmptyValue(next.value)) return { found: false, failedAt: i, reason: "empty" };
    value = next.value;
  }
  return { found: true, value };
}

function isEmptyValue(value: unknown): boolean {
  if (value === null || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  return isPlainObject(value) && Object.keys(value).length === 0;
}

/** A deep copy of JSON-like data (plain objects and arrays); other values are kept as they are. */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => cloneJson(item)) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) defineOwn(out, key, cloneJson(value[key]));
    return out as T;
  }
  return value;
}

/** Sets an own data property, even for keys like `__proto__` that assignment would treat specially. */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // On a plain or null-prototype object only `__proto__` is special: it is an accessor of
  // Object.prototype. Every other inherited name (`constructor`, `toString`…) is a writable data
  // property, so assigning it makes an own one, and assignment is much cheaper than defineProperty.
  if (key !== "__proto__") target[key] = value;
  else Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Deep-merges `incoming` into `existing` (both plain objects), incoming winning; returns `existing`. */
export function deepMerge(existing: Record<string, unknown>, incoming: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(incoming)) {
    const current = Object.hasOwn(existing, key) ? existing[key] : undefined;
    const next = incoming[key];
    if (isPlainObject(current) && isPlainObject(next)) deepMerge(current, next);
    else defineOwn(existing, key, cloneJson(next));
  }
  return existing;
}

export type WriteProblem = { failedAt: number; message: string };

/**
 * Writes `value` at `segments` under `root` (§3.6): missing containers are created (an array when
 * the next segment is all digits), index n of an array of length n appends, a larger index or a
 * write through a scalar is a problem, plain objects are deep-merged, values are deep-cloned.
 */
export function writePath(root: Container, segments: readonly string[], value: unknown): WriteProblem | undefined {
  let container: Container = root;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const last = i === segments.length - 1;
    if (Array.isArray(container)) {
      if (!INDEX.test(segment)) return { failedAt: i, message: `"${segment}" is not an index into an array` };
      const index = Number(segment);
      if (index > container.length) {
        return { failedAt: i, message: `index ${index} is past the end of an array of length ${container.length} (arrays never get holes)` };
      }
    }
    const has = Array.isArray(container) ? Number(segment) < container.length : Object.hasOwn(container, segment);
    const existing = has ? (container as Record<string, unknown>)[segment] : undefined;
    if (last) {
      const next = isPlainObject(existing) && isPlainObject(value) ? deepMerge(existing, value) : cloneJson(value);
      put(container, segment, next);
      return undefined;
    }
    if (has && isContainer(existing)) {
      container = existing;
      continue;
    }
    if (has && existing !== undefined && existing !== null) {
      return { failedAt: i, message: `cannot write through the ${typeof existing} at "${segments.slice(0, i + 1).join(".")}"` };
    }
    const created: Container = INDEX.test(segments[i + 1]!) ? [] : {};
    put(container, segment, created);
    container = created;
  }
  return undefined;
}

function put(container: Container, segment: string, value: unknown): void {
  if (Array.isArray(container)) container[Number(segment)] = value;
  else defineOwn(container, segment, value);
}
