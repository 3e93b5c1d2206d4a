import { describe, expect, it } from "vitest";
import { ucs2length } from "@flowspec/runtime/ajv";
import { decideLengthsByUnits } from "../src/validators.js";

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

  it("leaves code without ucs2length alone, and refuses a ucs2length call of a form it does not know", () => {
    expect(decideLengthsByUnits("function validate(data){ return true; }")).toBe("function validate(data){ return true; }");
    expect(() => decideLengthsByUnits("const func1 = ucs2length;\nconst n = func1(data) + 1;")).toThrow(/ucs2length/);
  });
});
