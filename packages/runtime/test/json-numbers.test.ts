import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { isJsonFloat, JsonFloat, jsonFloat, parseJsonKeepingFloats, parseSourceDocument, plainNumbers, stringifyJson } from "../src/index.js";

/** The value with every JsonFloat shown as `F(n)`, so that expectations see the difference. */
const shape = (value: unknown): unknown => {
  if (isJsonFloat(value)) return `F(${value.value})`;
  if (Array.isArray(value)) return value.map(shape);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) Object.defineProperty(out, key, { value: shape(item), enumerable: true });
  return out;
};

describe("parseJsonKeepingFloats", () => {
  it.each([
    ["171.0", "F(171)"],
    ["171", 171],
    ["85.5", 85.5],
    ["-0.0", "F(0)"],
    ["1e3", "F(1000)"],
    ["1.5e2", "F(150)"],
    ["1.25e1", 12.5],
    ["2E-0", "F(2)"],
    [' {"a": 1.0, "b": [1, 2.00, {"c": -3.0e0}], "d": "x: 1.0, y", "e": 0.5} ', { a: "F(1)", b: [1, "F(2)", { c: "F(-3)" }], d: "x: 1.0, y", e: 0.5 }],
    // Digits inside strings, keys and escapes never count.
    ['{"1.0": "2.0", "k\\"": 3, "h": "7e3"}', { "1.0": "2.0", 'k"': 3, h: "7e3" }],
    ['["\\\\", 4.0]', ["\\", "F(4)"]],
    ['{"__proto__": 1.0}', JSON.parse('{"__proto__": "F(1)"}')],
    // Each way a number may end: white space, a comma, a bracket, a brace, the end of the text.
    ["[1.0\n, 2.00\t]", ["F(1)", "F(2)"]],
    ['{"a": 1e2 }', { a: "F(100)" }],
    ["-4.0", "F(-4)"],
    // What a JSON-RPC message holds without any float: "2.0" and hex with e's inside strings.
    ['{"jsonrpc":"2.0","id":"3e4f0c1a-0b6f-4f2a-9e3b-5d7c1a2b3e40","result":{"output":[2.5,1e-1]}}', { jsonrpc: "2.0", id: "3e4f0c1a-0b6f-4f2a-9e3b-5d7c1a2b3e40", result: { output: [2.5, 0.1] } }],
  ])("%s", (text, expected) => {
    expect(shape(parseJsonKeepingFloats(text))).toEqual(expected);
  });

  it("keeps the sign of -0.0 and writes it back", () => {
    const value = parseJsonKeepingFloats("[-0.0, 0.0]") as JsonFloat[];
    expect(Object.is(value[0]!.value, -0)).toBe(true);
    expect(stringifyJson(value)).toBe("[-0.0,0.0]");
  });

  it.each(["01.0", "[1.0,]", '{"a": 1.0', "1.0 2", '"1.0', "[.5]", "-", "1.0e"])("refuses %s as JSON.parse does, with its error", (text) => {
    expect(() => parseJsonKeepingFloats(text)).toThrow(SyntaxError);
    let expected = "";
    try {
      JSON.parse(text);
    } catch (error) {
      expected = (error as Error).message;
    }
    expect(() => parseJsonKeepingFloats(text)).toThrow(expected);
  });

  it("reads any depth", () => {
    const text = "[".repeat(20_000) + "1.0" + "]".repeat(20_000);
    let value = parseJsonKeepingFloats(text);
    for (let i = 0; i < 20_000; i++) value = (value as unknown[])[0];
    expect(isJsonFloat(value)).toBe(true);
  });

  it("reads back what stringifyJson writes, floats and all, at any indentation", () => {
    const leaf = fc.oneof(
      fc.integer(),
      fc.integer({ min: -1e6, max: 1e6 }).map(jsonFloat),
      // Not 1e21 and up: JavaScript writes those with an exponent, which reads back as a float.
      fc.double({ noNaN: true, min: -1e20, max: 1e20 }).map((n) => (Object.is(n, -0) ? 0 : n)),
      fc.string(),
      fc.constantFrom(null, true, false),
    );
    const value = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: "small" }, leaf, tie("array"), tie("object")),
      array: fc.array(tie("value"), { maxLength: 4 }),
      object: fc.dictionary(fc.string(), tie("value"), { maxKeys: 4 }),
    })).value;
    fc.assert(
      fc.property(value, fc.constantFrom(undefined, 2), (v, space) => {
        expect(shape(parseJsonKeepingFloats(stringifyJson(v, space)!))).toEqual(shape(v));
      }),
      { numRuns: 300 },
    );
  });

  it("takes time linear in the text, however many digits and strings it holds", () => {
    const time = (text: string) => {
      const start = performance.now();
      for (let i = 0; i < 3; i++) parseJsonKeepingFloats(text);
      return performance.now() - start;
    };
    const body = (n: number) => `[${Array.from({ length: n }, (_, i) => `{"id":"7e3${i}","v":${i}.0,"s":"\\\\\\"1.0"}`).join(",")}]`;
    time(body(20_000));
    expect(time(body(200_000)) / time(body(20_000))).toBeLessThan(30);
    const digits = "1".repeat(1_000_000);
    expect(time(`[${digits}.0]`)).toBeLessThan(2_000);
  });
});

describe("stringifyJson", () => {
  it("writes a JsonFloat as a float and everything else as JSON.stringify does", () => {
    expect(stringifyJson({ a: jsonFloat(171), b: 171, c: 85.5, d: [jsonFloat(1e21), jsonFloat(2.5)] })).toBe('{"a":171.0,"b":171,"c":85.5,"d":[1e+21,2.5]}');
    expect(stringifyJson(jsonFloat(3))).toBe("3.0");
    expect(stringifyJson({ a: jsonFloat(1) }, 2)).toBe('{\n  "a": 1.0\n}');
    expect(stringifyJson(undefined)).toBeUndefined();
  });

  it("leaves a string that looks like a float being written alone", () => {
    const lookalike = "\u0000float-x:1.0";
    expect(stringifyJson({ s: lookalike, f: jsonFloat(1) })).toBe(`{"s":${JSON.stringify(lookalike)},"f":1.0}`);
  });

  it("JSON.stringify writes the plain number", () => {
    expect(JSON.stringify({ a: jsonFloat(171) })).toBe('{"a":171}');
    expect(jsonFloat(2).valueOf() * 2).toBe(4);
    expect(() => jsonFloat(Number.NaN)).toThrow(RangeError);
  });
});

describe("two copies of the module (ESM and CommonJS builds, sources and builds)", () => {
  it("each recognises and writes the other's floats", async () => {
    const other = (await import(/* @vite-ignore */ `../src/json-numbers.ts?copy=${Date.now()}`)) as typeof import("../src/json-numbers.js");
    expect(other.JsonFloat).not.toBe(JsonFloat);
    expect(isJsonFloat(other.jsonFloat(1))).toBe(true);
    expect(other.jsonFloat(1) instanceof JsonFloat).toBe(true);
    expect(stringifyJson({ a: other.jsonFloat(1) })).toBe('{"a":1.0}');
    expect(other.stringifyJson({ a: jsonFloat(1) })).toBe('{"a":1.0}');
  });
});

describe("plainNumbers", () => {
  it("replaces JsonFloats by numbers, copying only on the way to one", () => {
    const shared = { x: [1, 2] };
    const value = { a: jsonFloat(1), shared, list: [jsonFloat(2), 3] };
    const plain = plainNumbers(value);
    expect(plain).toEqual({ a: 1, shared: { x: [1, 2] }, list: [2, 3] });
    expect(plain.shared).toBe(shared);
    expect(isJsonFloat(value.a)).toBe(true);
    const untouched = { a: [1, { b: "c" }] };
    expect(plainNumbers(untouched)).toBe(untouched);
    expect(plainNumbers(jsonFloat(5))).toBe(5);
  });
});

describe("parseSourceDocument keepFloats", () => {
  it("keeps JSON floats only when asked", () => {
    expect(shape(parseSourceDocument('{"a": 1.0, "b": 1}', { format: "json", keepFloats: true }).value)).toEqual({ a: "F(1)", b: 1 });
    expect(parseSourceDocument('{"a": 1.0}', { format: "json" }).value).toEqual({ a: 1 });
  });

  it("keeps YAML floats: 1.0, 1e3, 1.; not ints, hex, quoted strings or keys", () => {
    const text = "a: 1.0\nb: 1\nc: 1e3\nd: 1.\ne: 0xE\nf: '1.0'\ng: [2.0, 2.5]\n1.0: key\nh: &x 3.0\ni: *x\n";
    const { value } = parseSourceDocument(text, { format: "yaml", keepFloats: true });
    expect(shape(value)).toEqual({ a: "F(1)", b: 1, c: "F(1000)", d: "F(1)", e: 14, f: "1.0", g: ["F(2)", 2.5], "1": "key", h: "F(3)", i: "F(3)" });
    expect(parseSourceDocument(text, { format: "yaml" }).value).toMatchObject({ a: 1, c: 1000, d: 1, h: 3 });
  });
});
