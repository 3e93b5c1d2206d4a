import fastDeepEqual from "fast-deep-equal";
import ajvUcs2length from "ajv/dist/runtime/ucs2length.js";
import { fullFormats } from "ajv-formats/dist/formats.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as runtimeAjv from "../src/ajv.js";
import { equal, formats, ucs2length } from "../src/ajv.js";

// @flowspec/runtime/ajv rewrites ajv's and ajv-formats' CommonJS helpers as ESM, one export each;
// these properties pin every rewrite to the original's answers.

const NUM_RUNS = 2_000;

type Check = (value: never) => boolean;
/** How ajv calls a format: a RegExp tests, a function is called, an object's `validate` is. */
function checkOf(format: unknown): Check {
  if (format instanceof RegExp) return ((value: string) => ((format.lastIndex = 0), format.test(value))) as Check;
  if (typeof format === "function") return format as Check;
  const validate = (format as { validate: RegExp | Check }).validate;
  return validate instanceof RegExp ? checkOf(validate) : validate;
}

/** A valid value of each string format, mutated by the property (and kept as it is now and then). */
const SEEDS: Record<string, string> = {
  date: "2024-02-29",
  time: "23:59:60Z",
  "date-time": "1990-12-31T15:59:60-08:00",
  "iso-time": "12:00:00.5",
  "iso-date-time": "2024-01-01 12:00:00+05:30",
  duration: "P1Y2M3DT4H5M6S",
  uri: "https://user@a.example:8080/x/y?q=1#frag",
  "uri-reference": "../a/b?c=d#e",
  "uri-template": "/orders/{id}{?page,limit}",
  url: "http://example.com:8080/path?x=1",
  email: "first.last+tag@mail.example.com",
  hostname: "a-b.example.com",
  ipv4: "192.168.0.255",
  ipv6: "2001:db8::ffff:1.2.3.4",
  regex: "^a+(b|c)\\d{2,}$",
  uuid: "urn:uuid:0b6f3a4e-8c1d-4f2a-9e3b-5d7c1a2b3c4d",
  "json-pointer": "/a~1b/0/~0",
  "json-pointer-uri-fragment": "#/a%20b/~1",
  "relative-json-pointer": "1/a/0#",
  byte: "aGVsbG8gd29ybGQ=",
};
const ALPHABET = [..."0123456789aAfFzZtT:-+./#?@%~[]{}()=&!$*,;'\"\\ \t\n_^|<>`", "\u00e9", "\u0660", "\ud83d\ude00", "\ud800"];

/** A seed with up to four random edits (insert, delete, replace), or any short string. */
const stringFor = (seed: string) =>
  fc.oneof(
    fc.tuple(fc.constant(seed), fc.array(fc.tuple(fc.nat(), fc.constantFrom(...ALPHABET), fc.integer({ min: 0, max: 2 })), { maxLength: 4 })).map(([text, edits]) => {
      for (const [position, char, op] of edits) {
        const at = position % (text.length + 1);
        text = op === 0 ? text.slice(0, at) + char + text.slice(at) : op === 1 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + char + text.slice(at + 1);
      }
      return text;
    }),
    fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 30 }),
    fc.string({ unit: "binary", maxLength: 30 }),
  );

const numbers = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, -0, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 2 ** 53 - 1, 2 ** 53, -(2 ** 53), 1e300, 0.5, NaN, Infinity, -Infinity),
);

describe("format checks, against ajv-formats' full formats", () => {
  const names = Object.keys(fullFormats);

  it("has every format of ajv-formats, plus the unsigned integer widths", () => {
    expect(Object.keys(formats).sort()).toEqual([...names, "uint16", "uint32", "uint64"].sort());
  });

  it("exports each checked format by its name in camelCase plus Format, the value the table holds", () => {
    for (const [name, format] of Object.entries(formats)) {
      if (format === true) continue;
      const exportName = name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) + "Format";
      expect((runtimeAjv as Record<string, unknown>)[exportName], exportName).toBe(format);
    }
  });

  it("keeps ajv-formats' type for each number format and its `true` for password and binary", () => {
    for (const name of names) {
      const theirs = fullFormats[name as keyof typeof fullFormats];
      const ours = formats[name as keyof typeof formats];
      if (theirs === true) expect(ours, name).toBe(true);
      else if (typeof theirs === "object" && "type" in theirs) expect((ours as { type: string }).type, name).toBe(theirs.type);
      else expect(typeof ours === "object" && ours !== null && "type" in ours, name).toBe(false);
    }
  });

  it.each(Object.keys(SEEDS))("%s answers as ajv-formats does on mutated and random strings", (name) => {
    const ours = checkOf(formats[name as keyof typeof formats]);
    const theirs = checkOf(fullFormats[name as keyof typeof fullFormats]);
    expect(ours(SEEDS[name]! as never), `the seed of ${name} is valid`).toBe(true);
    fc.assert(
      fc.property(stringFor(SEEDS[name]!), (value) => ours(value as never) === theirs(value as never)),
      { numRuns: NUM_RUNS },
    );
  });

  it("uri answers as ajv-formats does around its fast path (scheme://host/path, no userinfo or %-escapes)", () => {
    const ours = checkOf(formats.uri);
    const theirs = checkOf(fullFormats.uri);
    for (const seed of ["https://api.example.com:8443/v1/runs?limit=10&x=a:b#top", "urn://a.b/c;d=e/f@g", "HTTP://EXAMPLE.COM"]) {
      expect(ours(seed as never), seed).toBe(true);
      fc.assert(fc.property(stringFor(seed), (value) => ours(value as never) === theirs(value as never)), { numRuns: NUM_RUNS });
    }
  });

  it.each(["int32", "float", "double"])("%s answers as ajv-formats does on numbers", (name) => {
    const ours = checkOf(formats[name as keyof typeof formats]);
    const theirs = checkOf(fullFormats[name as keyof typeof fullFormats]);
    fc.assert(fc.property(numbers, (value) => ours(value as never) === theirs(value as never)), { numRuns: NUM_RUNS });
  });

  it("int64 is a safe integer where ajv-formats takes any integer (past 2^53 a number no longer holds what was sent)", () => {
    const int64 = checkOf(formats.int64);
    const theirs = checkOf(fullFormats.int64);
    fc.assert(
      fc.property(numbers, (value) => int64(value as never) === (theirs(value as never) && Number.isSafeInteger(value))),
      { numRuns: NUM_RUNS },
    );
    expect([int64((2 ** 53 - 1) as never), int64((2 ** 53) as never), theirs((2 ** 53) as never)]).toEqual([true, false, true]);
  });

  it.each([
    ["uint16", 0xffff],
    ["uint32", 0xffffffff],
    ["uint64", Number.MAX_SAFE_INTEGER],
  ] as const)("%s takes the integers from 0 to %d", (name, max) => {
    const check = checkOf(formats[name]);
    expect([0, max, 1.5, -1, max + 1, NaN].map((n) => check(n as never))).toEqual([true, true, false, false, false, false]);
  });
});

describe("equal, against fast-deep-equal", () => {
  /** The answer, or that it threw. */
  const outcome = (compare: (a: unknown, b: unknown) => boolean, a: unknown, b: unknown) => {
    try {
      return compare(a, b);
    } catch (error) {
      return (error as Error).constructor.name;
    }
  };
  /** Keys fast-deep-equal reads off the data itself, so JSON objects holding them trip it up. */
  const TRAP_KEYS = ["constructor", "valueOf", "toString"];
  /** Whether a value holds an object without a prototype or with a trap key, where the answers part on purpose. */
  const partsOnPurpose = (value: unknown): boolean =>
    typeof value === "object" &&
    value !== null &&
    ((!Array.isArray(value) && Object.getPrototypeOf(value) === null) ||
      Object.keys(value).some((key) => TRAP_KEYS.includes(key) || partsOnPurpose((value as Record<string, unknown>)[key])));

  const anything = fc.oneof(
    fc.jsonValue(),
    fc.anything({ withDate: true, withMap: true, withSet: true, withTypedArray: true, withNullPrototype: true, withBoxedValues: true }),
    fc.constantFrom(NaN, -0, /a/g, /a/i, new Date(0), [NaN], { a: undefined }, {}),
  );

  it("answers alike on random pairs, except on the JSON objects fast-deep-equal gets wrong", () => {
    fc.assert(
      fc.property(anything, anything, (a, b) => partsOnPurpose(a) || partsOnPurpose(b) || outcome(equal, a, b) === outcome(fastDeepEqual, a, b)),
      { numRuns: NUM_RUNS },
    );
  });

  it("answers alike on a value and a near copy (one key changed, dropped or added)", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 2 })), fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 1 }), fc.nat(2), (a, key, value, op) => {
        const copy = structuredClone(a);
        if (op === 0) copy[key] = value;
        else if (op === 1) delete copy[key];
        const b = op === 2 ? [copy] : copy;
        if (partsOnPurpose(a) || partsOnPurpose(b)) return true;
        return outcome(equal, a, b) === outcome(fastDeepEqual, a, b) && outcome(equal, a, structuredClone(a)) === outcome(fastDeepEqual, a, structuredClone(a));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  describe("on JSON data, whatever its keys and prototypes", () => {
    /** JSON with keys that trap fast-deep-equal, its objects built plain or without a prototype. */
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: "small" }, fc.constantFrom(null, true, false, 0, -0, 1, 1.5, "", "a"), fc.array(tie("value"), { maxLength: 3 }), tie("object")),
      object: fc
        .tuple(fc.uniqueArray(fc.tuple(fc.constantFrom(...TRAP_KEYS, "__proto__", "a", "b"), tie("value")), { selector: ([key]) => key, maxLength: 4 }), fc.boolean())
        .map(([entries, bare]) => {
          const object = bare ? Object.create(null) : {};
          for (const [key, value] of entries) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
          return object as unknown;
        }),
    })).value;
    /** JSON text with keys sorted: equal JSON values have the same. */
    const canonical = (value: unknown): string =>
      Array.isArray(value)
        ? `[${value.map(canonical).join(",")}]`
        : typeof value === "object" && value !== null
          ? `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(",")}}`
          : JSON.stringify(value);

    it("is equality of the canonical JSON text, and never throws", () => {
      fc.assert(fc.property(json, json, (a, b) => equal(a, b) === (canonical(a) === canonical(b))), { numRuns: NUM_RUNS });
      fc.assert(fc.property(json, (a) => equal(a, JSON.parse(JSON.stringify(a)))), { numRuns: NUM_RUNS });
    });

    it("handles the values fast-deep-equal throws on or gets wrong", () => {
      const bare = (entries: Record<string, unknown>) => Object.assign(Object.create(null) as object, entries);
      const cases: [unknown, unknown, boolean][] = [
        [{ valueOf: 1 }, { valueOf: 1 }, true],
        [{ toString: "x" }, { toString: "y" }, false],
        [{ constructor: {} }, { constructor: {} }, true],
        [bare({ a: 1 }), { a: 1 }, true],
        [bare({ a: 1 }), bare({ a: 2 }), false],
        [[bare({ k: [1] })], [{ k: [1] }], true],
      ];
      for (const [a, b, expected] of cases) expect(equal(a, b), `${canonical(a)} vs ${canonical(b)}`).toBe(expected);
      expect(outcome(fastDeepEqual, { valueOf: 1 }, { valueOf: 1 })).toBe("TypeError");
      expect(outcome(fastDeepEqual, bare({ a: 1 }), bare({ a: 1 }))).toBe("TypeError");
      expect(fastDeepEqual({ constructor: {} }, { constructor: {} })).toBe(false);
    });
  });
});

describe("ucs2length, against ajv's", () => {
  it("counts code points alike, lone surrogates included", () => {
    // CommonJS with `exports.default`: the function itself or under `default`, as the loader hands it over.
    const module = ajvUcs2length as unknown as { default?: (s: string) => number };
    const reference = module.default ?? (module as unknown as (s: string) => number);
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 40 }), (s) => ucs2length(s) === reference(s)), { numRuns: NUM_RUNS });
    for (const s of ["", "\ud83d\ude00", "\ud83d", "\ude00", "\ude00\ud83d", "a\ud83d\ud83d\ude00", "\ud83d\ude00\ude00"]) expect(ucs2length(s), JSON.stringify(s)).toBe(reference(s));
  });
});
