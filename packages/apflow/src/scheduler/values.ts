/**
 * Deep copy of JSON-like data (plain objects, arrays, primitives); faster than structuredClone for
 * small values. Recursive while shallow (the common case, and the fastest); past `RECURSE_DEPTH`
 * levels the rest is copied with an explicit stack, since a task's inputs or result can be nested
 * deeper than the call stack allows. A `__proto__` key is copied as a key, not set as the prototype.
 * An object's own enumerable properties are copied (what JSON.stringify reads), not inherited ones.
 */
export function cloneJson<T>(value: T): T {
  return cloneShallow(value, 0) as T;
}

const RECURSE_DEPTH = 200;

function cloneShallow(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (depth === RECURSE_DEPTH) return cloneDeep(value);
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneShallow(value[i], depth + 1);
    return out;
  }
  // A spread copies the own enumerable properties in one step (a `__proto__` key as a key), with
  // the source's layout, instead of adding them one by one; then only nested values are replaced.
  const out: Record<string, unknown> = { ...value };
  for (const key in out) {
    const nested = out[key];
    if (typeof nested === "object" && nested !== null) setKey(out, key, cloneShallow(nested, depth + 1));
  }
  return out;
}

function cloneDeep(value: object): unknown {
  const top: unknown = Array.isArray(value) ? [] : {};
  // Pairs of (source, its empty copy) still to fill.
  const stack: unknown[] = [value, top];
  while (stack.length > 0) {
    const out = stack.pop();
    const from = stack.pop() as object;
    if (Array.isArray(from)) {
      for (let i = 0; i < from.length; i++) (out as unknown[]).push(copyOne(from[i], stack));
    } else {
      for (const key in from) {
        if (Object.hasOwn(from, key)) setKey(out as Record<string, unknown>, key, copyOne((from as Record<string, unknown>)[key], stack));
      }
    }
  }
  return top;
}

/** A primitive as it is; an object or array as an empty copy, queued to be filled. */
function copyOne(value: unknown, stack: unknown[]): unknown {
  if (typeof value !== "object" || value === null) return value;
  const copy = Array.isArray(value) ? [] : {};
  stack.push(value, copy);
  return copy;
}

/** `out[key] = value`, except that a `__proto__` key becomes an own property instead of setting the prototype. */
export function setKey(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Freezes `value` and everything reachable from it; iterative, like cloneJson, so depth is unbounded. */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next === "object" && next !== null && !Object.isFrozen(next)) {
      Object.freeze(next);
      for (const key in next) stack.push((next as Record<string, unknown>)[key]);
    }
  }
  return value;
}

/**
 * Rule (g): what an executor returned, as the stored `result`. Plain objects are kept, other
 * JSON values are wrapped as `{value}`, `undefined` becomes `{}`; all of it as a JSON round-trip.
 * A value that cannot be stored gives a string instead: why (no wrapper object per task).
 */
export function toStoredResult(value: unknown): Record<string, unknown> | string {
  // All of this reads the executor's value, which can throw (toJSON, a getter, a proxy trap, or
  // nesting too deep for JSON.stringify): a throw fails the task instead of escaping the scheduler.
  try {
    if (value === undefined) return {};
    if (isPlainObject(value) && isEmpty(value)) return {};
    const text = JSON.stringify(value);
    if (text === undefined) return `a ${typeof value} has no JSON form`;
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) ? parsed : { value: parsed };
  } catch (error) {
    return messageOf(error) || "it could not be read";
  }
}

/** Rule (g): the `error` text of a thrown value. */
export function errorMessageOf(error: unknown, executorKey: string): string {
  return messageOf(error) || `executor ${executorKey} failed`;
}

/** `err.message` if a non-empty string, else `String(err)`; "" for null/undefined or when reading it throws. */
function messageOf(error: unknown): string {
  try {
    if (error instanceof Error && typeof error.message === "string" && error.message !== "") return error.message;
    if (error === undefined || error === null) return "";
    return typeof error === "object" && "message" in error && typeof error.message === "string" && error.message !== "" ? error.message : String(error);
  } catch {
    // a message getter, toString or proxy trap that throws (String() of a null-prototype object
    // does too): use the fallback, or the task never settles
    return "";
  }
}

/**
 * Compatibility mode `mergeDependencyResults: "flat"` (notes §4.4): the v1 server's fallback
 * merge of dependency results into a copy of the inputs, later dependencies winning.
 */
export function mergeFlat(
  inputs: Record<string, unknown>,
  completedResults: readonly (readonly [id: string, result: Record<string, unknown>])[],
): Record<string, unknown> {
  const merged = cloneJson(inputs);
  for (const [id, result] of completedResults) {
    let v: unknown = result;
    if (isPlainObject(v) && Object.prototype.hasOwnProperty.call(v, "result")) v = v.result;
    if (isPlainObject(v)) for (const key of Object.keys(v)) setKey(merged, key, cloneJson(v[key]));
    else setKey(merged, id, cloneJson(v));
  }
  return merged;
}

function isEmpty(value: object): boolean {
  for (const _ in value) return false;
  return true;
}
