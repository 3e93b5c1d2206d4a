/**
 * `instanceof` for error classes that holds across the ESM and CJS builds of a package, and across
 * two installed copies of it: each build has its own class object, so the ordinary prototype check
 * fails for an error thrown by the other one.
 *
 * A class takes part by declaring a brand, a name unique to it among every package
 * (`"@flowspec/runtime:ValidationError"`), as its static `"~brand"`, and the root of each hierarchy
 * by answering `instanceof` with `isErrorInstance`. Like a `Symbol.for` key, a brand is global by
 * its name: any copy's class with the same brand is the same class. A string-keyed static keeps the
 * class tree-shakable (a computed symbol key would not be).
 */

/** The static every branded error class declares. */
export const ERROR_BRAND = "~brand";

type Branded = { readonly [ERROR_BRAND]?: string };

/**
 * What `value instanceof target` answers: true for an instance of `target` by the prototype chain,
 * or when a constructor on `value`'s prototype chain has `target`'s own brand (so an instance of a
 * subclass is an instance of its parents, not of its siblings). A class without a brand of its own
 * (a subclass written in user code) gets the ordinary check.
 */
export function isErrorInstance(target: abstract new (...args: never[]) => unknown, value: unknown): boolean {
  if (Function.prototype[Symbol.hasInstance].call(target, value)) return true;
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  if (!Object.hasOwn(target, ERROR_BRAND)) return false;
  const brand = (target as Branded)[ERROR_BRAND];
  for (let proto: unknown = Object.getPrototypeOf(value); proto !== null; proto = Object.getPrototypeOf(proto)) {
    const constructor = Object.hasOwn(proto as object, "constructor") ? ((proto as { constructor: unknown }).constructor as Branded) : undefined;
    if (typeof constructor === "function" && Object.hasOwn(constructor, ERROR_BRAND) && constructor[ERROR_BRAND] === brand) return true;
  }
  return false;
}
