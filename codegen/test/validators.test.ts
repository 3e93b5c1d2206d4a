import { describe, expect, it } from "vitest";
import { ucs2length } from "@flowspec/runtime/ajv";
import { decideLengthsByUnits, rewriteRequires } from "../src/validators.js";

/** What ajv emits for `{type: "string", maxLength: max, minLength: min}`, reduced to the checks. */
const ajvStyle = (max: number, min: number) =>
  [
    "const func1 = ucs2length;",
    "function validate(data){",
    "let errors = 0;",
    'if(typeof data === "string"){',
    `if(func1(data) > ${max}){`,
    "errors++;",
    "}",
    `if(func1(data) < ${min}){`,
    "errors++;",
    "}",
    "}",
    "return errors;",
    "}",
  ].join("\n");

const load = (code: string) => new Function("ucs2length", `${code}\nreturn validate;`)(ucs2length) as (data: unknown) => number;

describe("decideLengthsByUnits", () => {
  it("guards each ucs2length check with the string's length in UTF-16 units", () => {
    const code = decideLengthsByUnits(ajvStyle(256, 1));
    expect(code).toContain("if(data.length > 256 && func1(data) > 256){");
    expect(code).toContain("if(data.length < 2 && func1(data) < 1){");
  });

  it("gives the same answer as counting code points, for every string of pairs, lone surrogates and ASCII up to 6 units", () => {
    const pieces = ["a", "😀", "\ud83d", "\ude00"];
    const strings = [""];
    for (let i = 0; i < strings.length; i++) for (const piece of pieces) if (strings[i]!.length + piece.length <= 6) strings.push(strings[i]! + piece);
    strings.push("😀".repeat(300), "a".repeat(300), "😀".repeat(128) + "a");
    expect(strings.length).toBeGreaterThan(1500);
    for (let max = 0; max <= 5; max++)
      for (const min of [0, 1, 2, 3, 4, 256]) {
        const before = load(ajvStyle(max, min));
        const after = load(decideLengthsByUnits(ajvStyle(max, min)));
        for (const s of strings) if (after(s) !== before(s)) expect.fail(`maxLength ${max}, minLength ${min}, ${JSON.stringify(s)}: ${after(s)} errors, ajv ${before(s)}`);
      }
    const wide = load(decideLengthsByUnits(ajvStyle(256, 256)));
    expect([wide("😀".repeat(256)), wide("😀".repeat(255)), wide("😀".repeat(257)), wide("a".repeat(256))]).toEqual([0, 1, 1, 0]);
  });

  it("leaves code without ucs2length alone, and refuses a ucs2length call of a form it does not know, naming the schema place", () => {
    expect(decideLengthsByUnits("function validate(data){ return true; }")).toBe("function validate(data){ return true; }");
    const unknownForm = ['const func1 = ucs2length;', 'function validate10(data){', '/*# sourceURL="https://x.example/a.json" */;', "const n = func1(data) + 1;", 'const err0 = {instancePath,schemaPath:"#/properties/a/maxLength"};', "}"].join("\n");
    expect(() => decideLengthsByUnits(unknownForm)).toThrow('ajv emitted a func1() (ucs2length) call of a form codegen does not know, for https://x.example/a.json#/properties/a/maxLength: func1(data) + 1;');
  });

  it("guards the checks of a key under propertyNames (keyN) and of a property read, and leaves strings alone", () => {
    const code = [
      "const func2 = ucs2length;",
      'const schema1 = {"description":"func2(key0) > 4 is not code"};',
      "if(func2(key0) > 4){",
      'if(func2(data["a-b"]) < 2){',
      "if(func2(data.name) > 3){",
    ].join("\n");
    expect(decideLengthsByUnits(code).split("\n").slice(1)).toEqual([
      'const schema1 = {"description":"func2(key0) > 4 is not code"};',
      "if(key0.length > 4 && func2(key0) > 4){",
      'if(data["a-b"].length < 4 && func2(data["a-b"]) < 2){',
      "if(data.name.length > 3 && func2(data.name) > 3){",
    ]);
  });
});

describe("rewriteRequires", () => {
  it("rewrites ajv's require()s into imports, and leaves require( in strings (descriptions, patterns) alone", () => {
    const code = [
      '"use strict";',
      'const schema1 = {"description":"Loaded with require(\\"plugin\\")","pattern":"^require\\\\("};',
      'const func0 = require("ajv/dist/runtime/equal").default;',
      'const formats0 = require("@flowspec/runtime/ajv").formats["date-time"];',
      "const formats1 = /require\\(x\\)/;",
    ].join("\n");
    expect(rewriteRequires(code)).toBe(
      [
        'import { dateTimeFormat, equal } from "@flowspec/runtime/ajv";',
        "",
        'const schema1 = {"description":"Loaded with require(\\"plugin\\")","pattern":"^require\\\\("};',
        "const func0 = equal;",
        "const formats0 = dateTimeFormat;",
        "const formats1 = /require\\(x\\)/;",
      ].join("\n"),
    );
  });

  it("refuses a require() in code that it has no import for", () => {
    expect(() => rewriteRequires('const x = require("fs").readFileSync;')).toThrow('ajv emitted require("fs").readFileSync, which codegen has no import for');
    expect(() => rewriteRequires("const x = require(name);")).toThrow("ajv emitted require(name);, which codegen has no import for");
  });
});
