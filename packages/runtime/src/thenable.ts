/**
 * Whether `value` is a thenable, as `Promise.resolve` reads it: an object or function with a
 * callable `then`. For code that answers synchronously when it can and waits only when it must
 * (a handler's result, a credential provider, a Standard Schema result).
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function";
}
