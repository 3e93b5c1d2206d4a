/** Deep copy of JSON-like data (plain objects, arrays, primitives); faster than structuredClone for small values. */
export function cloneJson<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const out: Record<string, unknown> = {};
  for (const key in value) out[key] = cloneJson((value as Record<string, unknown>)[key]);
  return out as T;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/**
 * Rule (g): what an executor returned, as the stored `result`. Plain objects are kept, other
 * JSON values are wrapped as `{value}`, `undefined` becomes `{}`; all of it as a JSON round-trip.
 */
export function toStoredResult(value: unknown): { ok: true; result: Record<string, unknown> } | { ok: false; reason: string } {
  if (value === undefined) return { ok: true, result: {} };
  if (isPlainObject(value) && isEmpty(value)) return { ok: true, result: {} };
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  if (text === undefined) return { ok: false, reason: `a ${typeof value} has no JSON form` };
  const parsed: unknown = JSON.parse(text);
  return { ok: true, result: isPlainObject(parsed) ? parsed : { value: parsed } };
}

/** Rule (g): the `error` text of a thrown value. */
export function errorMessageOf(error: unknown, executorKey: string): string {
  if (error instanceof Error && typeof error.message === "string" && error.message !== "") return error.message;
  if (error !== undefined && error !== null) {
    let text = "";
    try {
      text = typeof error === "object" && "message" in error && typeof error.message === "string" && error.message !== "" ? error.message : String(error);
    } catch {
      // String() throws for a null-prototype object or a throwing toString: use the fallback, or the task never settles
    }
    if (text !== "") return text;
  }
  return `executor ${executorKey} failed`;
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
    if (isPlainObject(v)) for (const key of Object.keys(v)) merged[key] = cloneJson(v[key]);
    else merged[id] = cloneJson(v);
  }
  return merged;
}

function isEmpty(value: object): boolean {
  for (const _ in value) return false;
  return true;
}
