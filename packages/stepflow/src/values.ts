/** Small helpers over JSON values. */
import { isJsonFloat } from "@flowspec/runtime";

export type JsonObject = Record<string, unknown>;

/** A JSON object: not an array, and not a `JsonFloat`, which is a number. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !isJsonFloat(value);
}

/**
 * JSON deep equality as serde_json's `Value` has it: object key order is irrelevant, array order
 * matters, and an integer never equals a float (`1` is not `1.0`, a `JsonFloat`; `1.5` is `1.5`).
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isJsonFloat(a) || isJsonFloat(b)) return floatEqual(a, b);
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

/** A JsonFloat against anything: equal to a JsonFloat or a non-integral number (a float too) of its value. */
function floatEqual(a: unknown, b: unknown): boolean {
  const x = isJsonFloat(a) ? a.value : a;
  const y = isJsonFloat(b) ? b.value : b;
  return typeof x === "number" && x === y && (isJsonFloat(a) || !Number.isInteger(x)) === (isJsonFloat(b) || !Number.isInteger(y));
}

/**
 * The truthiness of a `skipIf` value in 0.2.x (protocol notes §6.3): `false`, zero and `""` are
 * falsy; everything else is truthy, including `null`, `[]` and `{}`.
 */
export function isTruthy(value: unknown): boolean {
  if (value === false || value === "") return false;
  if (typeof value === "number") return value !== 0;
  if (isJsonFloat(value)) return value.value !== 0;
  return true;
}
