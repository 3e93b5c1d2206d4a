/**
 * Checks of numeric options, made where they are passed rather than where they are used: a NaN,
 * negative or string delay reaches setTimeout as 1 ms, and a NaN count never stops a loop
 * (`retry >= NaN` is always false), so either would misbehave silently.
 */

/** A bad option's value as written in source: NaN and -Infinity as such, strings quoted. */
function shown(value: unknown): string {
  return typeof value === "number" ? String(value) : String(JSON.stringify(value));
}

/** A duration: a number ≥ 0 (what 0 and Infinity mean is the option's to say). Returns it, or undefined when absent. */
export function checkMs<T extends number | undefined>(name: string, value: T, unit = "milliseconds"): T {
  if (value !== undefined && (typeof value !== "number" || !(value >= 0))) {
    throw new RangeError(`${name} must be a number of ${unit} ≥ 0, got ${shown(value)}`);
  }
  return value;
}

/** A count: an integer ≥ 0, or Infinity. Returns it, or undefined when absent. */
export function checkCount<T extends number | undefined>(name: string, value: T): T {
  if (value !== undefined && (typeof value !== "number" || !(value >= 0) || !(Number.isInteger(value) || value === Infinity))) {
    throw new RangeError(`${name} must be an integer ≥ 0 (or Infinity), got ${shown(value)}`);
  }
  return value;
}

/** A whole number ≥ `min` (a page size, a sequence). Returns it, or undefined when absent. */
export function checkInteger<T extends number | undefined>(name: string, value: T, min: number): T {
  if (value !== undefined && !(Number.isInteger(value) && (value as number) >= min)) {
    throw new RangeError(`${name} must be an integer ≥ ${min}, got ${shown(value)}`);
  }
  return value;
}
