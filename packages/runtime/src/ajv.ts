/**
 * What ajv standalone validators need at run time: codegen rewrites every `require()` ajv emits
 * into an import of this module, by name, so a bundle keeps only what its validators use. Nothing
 * here compiles a schema, and it is plain ESM with no CommonJS inside (ajv's own helpers are
 * CommonJS, which bundlers cannot split and Node loads through its interop): the two helpers below
 * are ajv's, rewritten, and a differential test pins them to the originals.
 */

/**
 * Deep equality for `const`, `enum` and `uniqueItems`, as ajv's fast-deep-equal 3 (MIT, (c) Evgeny
 * Poberezkin) answers for every value it handles: arrays item by item, RegExps by source and flags,
 * other objects with `valueOf`/`toString` of their own by those, NaN equals NaN. One difference, for
 * JSON data: a plain object, or one without a prototype (as TOML parsers and `__proto__`-safe JSON
 * readers build), is compared key by key, whatever its keys are called. fast-deep-equal read
 * `constructor`, `valueOf` and `toString` off the data itself, so `{"valueOf": 1}` or any object
 * without a prototype made it throw, and `{"constructor": {}}` was unequal to itself.
 */
export function equal(a: any, b: any): boolean {
  if (a === b) return true;
  if (a && b && typeof a == "object" && typeof b == "object") {
    const prototype = Object.getPrototypeOf(a);
    if (isJsonObjectPrototype(prototype) && isJsonObjectPrototype(Object.getPrototypeOf(b))) return equalKeys(a, b);
    if (prototype !== Object.getPrototypeOf(b)) return false;
    if (Array.isArray(a)) {
      const length = a.length;
      if (length != b.length) return false;
      for (let i = length; i-- !== 0; ) if (!equal(a[i], b[i])) return false;
      return true;
    }
    if (a instanceof RegExp) return a.source === b.source && a.flags === b.flags;
    if (typeof a.valueOf == "function" && a.valueOf !== Object.prototype.valueOf) return a.valueOf() === b.valueOf();
    if (typeof a.toString == "function" && a.toString !== Object.prototype.toString) return a.toString() === b.toString();
    return equalKeys(a, b);
  }
  return a !== a && b !== b;
}

function isJsonObjectPrototype(prototype: unknown): boolean {
  return prototype === Object.prototype || prototype === null;
}

function equalKeys(a: any, b: any): boolean {
  const keys = Object.keys(a);
  const length = keys.length;
  if (length !== Object.keys(b).length) return false;
  for (let i = length; i-- !== 0; ) if (!Object.prototype.hasOwnProperty.call(b, keys[i]!)) return false;
  for (let i = length; i-- !== 0; ) {
    const key = keys[i]!;
    if (!equal(a[key], b[key])) return false;
  }
  return true;
}

/** The length of a string in code points, as `minLength`/`maxLength` count it (ajv's `ucs2length`). */
export function ucs2length(s: string): number {
  const units = s.length;
  let length = 0;
  let pos = 0;
  while (pos < units) {
    length++;
    const value = s.charCodeAt(pos++);
    // A high surrogate followed by a low one is one code point.
    if (value >= 0xd800 && value <= 0xdbff && pos < units && (s.charCodeAt(pos) & 0xfc00) === 0xdc00) pos++;
  }
  return length;
}

export * from "./formats.js";
