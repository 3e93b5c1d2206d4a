/**
 * What ajv standalone validators need at run time: codegen rewrites every `require()` ajv emits
 * into an import of this module, by name, so a bundle keeps only what its validators use. Nothing
 * here compiles a schema, and it is plain ESM with no CommonJS inside (ajv's own helpers are
 * CommonJS, which bundlers cannot split and Node loads through its interop): the two helpers below
 * are ajv's, rewritten, and a differential test pins them to the originals.
 */

/**
 * Deep equality for `const`, `enum` and `uniqueItems`: fast-deep-equal 3 (MIT, (c) Evgeny
 * Poberezkin), which ajv uses, as ESM. Same answers: same constructor, arrays item by item, RegExps
 * by source and flags, objects with `valueOf`/`toString` of their own by those, other objects key
 * by key; NaN equals NaN.
 */
export function equal(a: any, b: any): boolean {
  if (a === b) return true;
  if (a && b && typeof a == "object" && typeof b == "object") {
    if (a.constructor !== b.constructor) return false;
    if (Array.isArray(a)) {
      const length = a.length;
      if (length != b.length) return false;
      for (let i = length; i-- !== 0; ) if (!equal(a[i], b[i])) return false;
      return true;
    }
    if (a.constructor === RegExp) return a.source === b.source && a.flags === b.flags;
    if (a.valueOf !== Object.prototype.valueOf) return a.valueOf() === b.valueOf();
    if (a.toString !== Object.prototype.toString) return a.toString() === b.toString();
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
  return a !== a && b !== b;
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
