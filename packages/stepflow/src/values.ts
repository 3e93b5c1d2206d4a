/** Small helpers over JSON values. */

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** JSON deep equality: object key order is irrelevant, array order matters, numbers compare by value. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => deepEqual(item, other[i]));
  }
  const ka = Object.keys(a).filter((k) => (a as JsonObject)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as JsonObject)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as JsonObject)[k], (b as JsonObject)[k]));
}

/**
 * The truthiness of a `skipIf` value in 0.2.x (protocol notes §6.3): `false`, zero and `""` are
 * falsy; everything else is truthy, including `null`, `[]` and `{}`.
 */
export function isTruthy(value: unknown): boolean {
  if (value === false || value === "") return false;
  if (typeof value === "number") return value !== 0;
  return true;
}
