import { describe, expect, it } from "vitest";
import { jsonErrorOffset } from "../src/json-scan.js";
import { seededRandom } from "../../../test/support.js";
import { createStandardSchema, DocumentParseError, formatIssues, issuesFromAjv, parsePointer, parseSourceDocument, toPointer, ValidationError, type CompiledValidator } from "../src/index.js";

describe("issuesFromAjv", () => {
  it.each([
    [{ instancePath: "/a", schemaPath: "#/required", keyword: "required", params: { missingProperty: "b/c" } }, "/a/b~1c", 'missing required property "b/c"'],
    [{ instancePath: "", schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: "x" } }, "/x", 'unexpected property "x" (not allowed here)'],
    [{ instancePath: "/n", schemaPath: "#/type", keyword: "type", params: { type: "integer" } }, "/n", "must be an integer"],
    [{ instancePath: "/n", schemaPath: "#/type", keyword: "type", params: { type: "string,null" } }, "/n", "must be a string or null"],
    [{ instancePath: "/s", schemaPath: "#/enum", keyword: "enum", params: { allowedValues: ["a", "b"] } }, "/s", 'must be one of "a", "b"'],
    [{ instancePath: "/s", schemaPath: "#/const", keyword: "const", params: { allowedValue: 2 } }, "/s", "must equal 2"],
    [{ instancePath: "/id", schemaPath: "#/format", keyword: "format", params: { format: "uuid" } }, "/id", 'must be a valid "uuid"'],
    [{ instancePath: "/n", schemaPath: "#/maximum", keyword: "maximum", params: { limit: 3 }, message: "must be <= 3" }, "/n", "must be <= 3"],
    // A property missing because another is present points, like `required`, to where it should be.
    [{ instancePath: "/a", schemaPath: "#/dependentRequired", keyword: "dependentRequired", params: { property: "x", missingProperty: "y/z", depsCount: 1, deps: "y/z" } }, "/a/y~1z", 'missing property "y/z" (required when "x" is present)'],
    [{ instancePath: "", schemaPath: "#/dependencies", keyword: "dependencies", params: { property: "x", missingProperty: "y", depsCount: 1, deps: "y" } }, "/y", 'missing property "y" (required when "x" is present)'],
  ])("%j → %s: %s", (error, path, message) => {
    expect(issuesFromAjv([error])).toEqual([{ path, message, keyword: error.keyword, params: error.params }]);
  });

  it("drops the errors of non-matching inline branches when a oneOf matched several", () => {
    const issues = issuesFromAjv([
      { instancePath: "/v", schemaPath: "#/oneOf/0/type", keyword: "type", params: { type: "string" } },
      { instancePath: "/v", schemaPath: "#/oneOf", keyword: "oneOf", params: { passingSchemas: [1, 2] } },
    ]);
    expect(issues.map((i) => i.keyword)).toEqual(["oneOf"]);
  });

  it("never returns an empty list for a failed validation", () => {
    expect(issuesFromAjv(null)).toHaveLength(1);
  });
});

describe("pointers", () => {
  it.each([
    ["", []],
    ["/a/0", ["a", "0"]],
    ["/a~1b/c~0d", ["a/b", "c~d"]],
  ])("%s ⇄ %j", (pointer, tokens) => {
    expect(parsePointer(pointer)).toEqual(tokens);
    expect(toPointer(tokens)).toBe(pointer);
  });
});

describe("ValidationError and Standard Schema", () => {
  const compiled: CompiledValidator = Object.assign((value: unknown) => {
    compiled.errors = value === 1 ? null : [{ instancePath: "", schemaPath: "#/const", keyword: "const", params: { allowedValue: 1 } }];
    return value === 1;
  });
  const schema = createStandardSchema<1>(compiled, "One", { const: 1 }, "draft-07");

  it("lists every issue as JSON Pointer: message", () => {
    const error = new ValidationError("Flow", [
      { path: "/steps/0/id", message: "must be a string", keyword: "type", params: {} },
      { path: "", message: "is bad", keyword: "x", params: {} },
    ]);
    expect(error.message).toBe("Invalid Flow:\n  /steps/0/id: must be a string\n  (root): is bad");
    expect(formatIssues(error.errors)).toBe("  /steps/0/id: must be a string\n  (root): is bad");
  });

  it("implements Standard Schema v1 with vendor flowspec", async () => {
    expect(schema["~standard"]).toMatchObject({ version: 1, vendor: "flowspec" });
    expect(await schema["~standard"].validate(1)).toEqual({ value: 1 });
    expect(await schema["~standard"].validate(2)).toEqual({ issues: [{ message: "must equal 1", path: [] }] });
  });

  it("implements Standard JSON Schema v1 for its own dialect and refuses others", () => {
    expect(schema["~standard"].jsonSchema.input({ target: "draft-07" })).toEqual({ const: 1 });
    expect(schema.jsonSchema).toEqual({ const: 1 });
    expect(() => schema["~standard"].jsonSchema.output({ target: "draft-2020-12" })).toThrow(/One's JSON Schema is draft-07; target "draft-2020-12" is not supported/);
  });
});

describe("parseSourceDocument", () => {
  const yaml = "name: demo\nsteps:\n  - id: one\n    component: /a\n  - id: two\n    component: /b\n";
  it("locates JSON Pointers in YAML", () => {
    const doc = parseSourceDocument(yaml, { file: "flow.yaml" });
    expect(doc.value).toEqual({ name: "demo", steps: [{ id: "one", component: "/a" }, { id: "two", component: "/b" }] });
    expect(doc.locate("/steps/1/component")).toEqual({ line: 6, column: 16 });
    expect(doc.describe("/steps/1")).toBe("flow.yaml:5:5");
    expect(doc.describe("/steps/1/missing")).toBe("flow.yaml:5:5");
  });

  it("locates JSON Pointers in JSON, parsed by JSON.parse", () => {
    const doc = parseSourceDocument('{\n  "a": {\n    "b~c": [10, 20]\n  }\n}', { file: "x.json" });
    expect(doc.format).toBe("json");
    expect(doc.describe("/a/b~0c/1")).toBe("x.json:3:17");
  });

  it("keeps YAML timestamps as strings (YAML 1.2 core schema)", () => {
    expect(parseSourceDocument("at: 2024-01-01T00:00:00Z\n", { format: "yaml" }).value).toEqual({ at: "2024-01-01T00:00:00Z" });
  });

  it.each([
    ['{"a": 1,,}', "x.json", 1, 9],
    ["a: [1\nb: 2\n", "x.yaml", 2, 1],
  ])("reports a syntax error in %j with its position", (text, file, line, column) => {
    const error = parseErrorOf(text, file);
    expect(error.location).toEqual({ line, column });
    expect(error.message).toMatch(new RegExp(`^${file}:${line}:${column}: `));
  });
});

/** The DocumentParseError parsing `text` throws (the test fails if it throws nothing else). */
function parseErrorOf(text: string, file: string): DocumentParseError {
  try {
    parseSourceDocument(text, { file });
  } catch (error) {
    expect(error).toBeInstanceOf(DocumentParseError);
    return error as DocumentParseError;
  }
  return expect.unreachable();
}

describe("parseSourceDocument: duplicate keys", () => {
  // JSON.parse would keep the last value silently; YAML refuses. Both fail alike, at the second key.
  it.each([
    ['{\n  "a": 1,\n  "a": "two"\n}', "x.json", 3, 3, "a"],
    ['{"outer": {"b": 1, "c": [{"k": 1, "k": 2}]}}', "x.json", 1, 35, "k"],
    ['{"a": 1, "\\u0061": 2}', "x.json", 1, 10, "a"],
    ['{"": 1, "x": {}, "": 2}', "x.json", 1, 18, ""],
    ["a: 1\nb: 2\na: 3\n", "x.yaml", 3, 1, "a"],
    ["steps:\n  - id: one\n    id: two\n", "x.yaml", 3, 5, "id"],
  ])("refuses %j, naming the second occurrence and the key", (text, file, line, column, key) => {
    const error = parseErrorOf(text, file);
    expect(error.location).toEqual({ line, column });
    expect(error.message).toBe(`${file}:${line}:${column}: duplicate key ${JSON.stringify(key)}`);
  });

  it("refuses a duplicate in JSON whose format is sniffed, not named", () => {
    expect(() => parseSourceDocument('{"a": 1, "a": 2}')).toThrow('<input>:1:10: duplicate key "a"');
  });

  it.each([
    '{"a": {"a": 1}, "b": {"a": 2}}',
    '[{"a": 1}, {"a": 2}]',
    '{"a": "\\"a\\": 1, \\"a\\": 2", "A": 3}',
    '{"__proto__": 1, "constructor": 2}',
  ])("accepts the same key in different objects or inside strings: %j", (text) => {
    expect(parseSourceDocument(text, { file: "x.json" }).value).toEqual(JSON.parse(text));
  });

  it("finds every duplicate JSON.parse would hide, and nothing else (differential)", () => {
    const random = seededRandom(7);
    const keys = ["a", "b", "\\u0061", "a\\n", "é"];
    let hidden = 0;
    for (let n = 0; n < 2000; n++) {
      let duplicate = false;
      const value = (depth: number): string => {
        if (depth > 3 || random(3) === 0) return String(random(10));
        if (random(3) === 0) return `[${Array.from({ length: random(3) }, () => value(depth + 1)).join(", ")}]`;
        const names = Array.from({ length: random(4) }, () => keys[random(keys.length)]!);
        if (new Set(names.map((k) => JSON.parse(`"${k}"`))).size < names.length) duplicate = true;
        return `{${names.map((k) => `"${k}": ${value(depth + 1)}`).join(",\n ")}}`;
      };
      const text = value(0);
      if (duplicate) hidden++;
      if (duplicate) expect(() => parseSourceDocument(text, { format: "json" }), text).toThrow(/duplicate key/);
      else expect(parseSourceDocument(text, { format: "json" }).value, text).toEqual(JSON.parse(text));
    }
    expect(hidden).toBeGreaterThan(200);
  });
});

describe("parseSourceDocument: locations the parsers disagree on", () => {
  it("reads a JSON file with a byte order mark, and does not count the BOM as a column", () => {
    const json = parseSourceDocument('\uFEFF{\n  "a": 1\n}', { file: "x.json" });
    expect(json.value).toEqual({ a: 1 });
    expect(json.locate("/a")).toEqual({ line: 2, column: 8 });
    expect(parseSourceDocument("\uFEFFa: 1\n", { file: "x.yaml" }).locate("/a")).toEqual({ line: 1, column: 4 });
  });

  it("gives the position of an unexpected token in JSON, without echoing the source", () => {
    try {
      parseSourceDocument('{\n  "a": 1,\n  "b": x\n}', { file: "x.json" });
      expect.unreachable();
    } catch (error) {
      expect((error as DocumentParseError).location).toEqual({ line: 3, column: 8 });
      expect((error as Error).message).toBe("x.json:3:8: Unexpected token 'x'");
    }
  });

  it("finds the offset V8 reports, for every broken JSON text where V8 gives one (differential)", () => {
    const random = seededRandom(11);
    const atom = () => ["0", "-1.5e3", "true", "false", "null", '"a\\n\\u00e9"', '""'][random(7)]!;
    const value = (depth: number): string => {
      if (depth > 3 || random(3) === 0) return atom();
      const items = Array.from({ length: random(4) }, () => value(depth + 1));
      return random(2) === 0 ? `[${items.join(", ")}]` : `{${items.map((item, i) => `"k${i}": ${item}`).join(",\n ")}}`;
    };
    const noise = ["x", ",", "]", "}", ":", '"', "0", "-", ".", "\\", "\n", " ", "\t", "e", "{", "["];
    let compared = 0;
    for (let n = 0; n < 3000; n++) {
      const text = value(0);
      const at = random(text.length + 1);
      const broken = random(2) === 0 ? text.slice(0, at) + noise[random(noise.length)] + text.slice(at) : text.slice(0, at) + text.slice(at + 1);
      let message: string | undefined;
      try {
        JSON.parse(broken);
      } catch (error) {
        message = (error as Error).message;
      }
      const reported = message === undefined ? undefined : /position (\d+)/.exec(message);
      if (message === undefined) expect(jsonErrorOffset(broken)).toBe(broken.length);
      else if (reported) {
        expect(jsonErrorOffset(broken), `${JSON.stringify(broken)}: ${message}`).toBe(Number(reported[1]));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it("locates a value in JSON with a lone CR, which YAML alone refuses", () => {
    expect(parseSourceDocument('{"a": 1}\r', { file: "x.json" }).locate("/a")).toEqual({ line: 1, column: 7 });
  });

  it("follows a YAML alias to the anchored node", () => {
    const doc = parseSourceDocument("base: &b\n  x: 1\n  y: 2\nother: *b\n", { file: "x.yaml" });
    expect(doc.value).toEqual({ base: { x: 1, y: 2 }, other: { x: 1, y: 2 } });
    expect(doc.locate("/other")).toEqual({ line: 4, column: 8 });
    expect(doc.locate("/other/y")).toEqual({ line: 3, column: 6 });
  });

  it("matches a null YAML key as the empty string, as the parsed value has it", () => {
    const doc = parseSourceDocument("a: 1\n~: 2\n", { file: "x.yaml" });
    expect(doc.value).toEqual({ a: 1, "": 2 });
    expect(doc.locate("/")).toEqual({ line: 2, column: 4 });
  });
});

describe("parseSourceDocument: YAML the parser reads but cannot turn into data", () => {
  it("reports an alias to an unknown anchor as a DocumentParseError at the alias", () => {
    expect(() => parseSourceDocument("a: 1\nb: [x, *nope]\n", { file: "x.yaml" })).toThrow(DocumentParseError);
    expect(() => parseSourceDocument("a: 1\nb: [x, *nope]\n", { file: "x.yaml" })).toThrow(/^x\.yaml:2:8: Unresolved alias .*: nope$/);
  });

  it("reports an alias bomb as a DocumentParseError, not a ReferenceError", () => {
    let text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
    for (let i = 0, last = "a"; i < 9; i++, last = `b${i - 1}`) text += `b${i}: &b${i} [${Array(10).fill(`*${last}`).join(", ")}]\n`;
    expect(() => parseSourceDocument(text, { file: "x.yaml" })).toThrow(DocumentParseError);
    expect(() => parseSourceDocument(text, { file: "x.yaml" })).toThrow(/^x\.yaml:\d+:\d+: Excessive alias count/);
  });

  it("gives plain data for explicit YAML 1.1 tags (!!set, !!omap, !!binary, !!timestamp)", () => {
    const doc = parseSourceDocument("s: !!set {x, y}\no: !!omap [a: 1]\nb: !!binary aGk=\nt: !!timestamp 2001-12-14\n", { file: "x.yaml" });
    expect(doc.value).toEqual({ s: { x: null, y: null }, o: [{ a: 1 }], b: "aGk=", t: "2001-12-14" });
  });
});

describe("parseSourceDocument: JSON errors", () => {
  it("does not repeat V8's 0-based position next to line:column", () => {
    expect(() => parseSourceDocument('{"a": 1} x', { file: "x.json" })).toThrow(/^x\.json:1:10: Unexpected non-whitespace character after JSON$/);
  });
});

describe("parseSourceDocument: JSON with lone CR line breaks", () => {
  it("counts a lone CR as a line break, in locations and in errors alike", () => {
    expect(parseSourceDocument('{\r"a": 1,\r"b": 2}', { file: "x.json" }).describe("/b")).toBe("x.json:3:6");
    expect(() => parseSourceDocument('{\r"a": 1,\r"b": x}', { file: "x.json" })).toThrow(/^x\.json:3:6: Unexpected token 'x'$/);
  });
});

describe("parseSourceDocument: nesting depth", () => {
  const nested = (depth: number) => `a: ${"[".repeat(depth)}${"]".repeat(depth)}\n`;

  it("refuses YAML nested deeper than 256 collections, flow or block, with the position, and never exhausts the stack", () => {
    // A syntax error first: it once left the YAML library in a state where the deep document below
    // overflowed the stack while V8 compiled a regex, which aborts the whole process.
    expect(() => parseSourceDocument("a:\n\tb: 1\n", { file: "t.yaml" })).toThrow(DocumentParseError);
    expect(() => parseSourceDocument(nested(20_000), { file: "flow.yaml" })).toThrow(/^flow\.yaml:1:260: nested more than 256 levels deep$/);
    let block = "";
    for (let i = 0; i < 300; i++) block += `${" ".repeat(i)}k:\n`;
    expect(() => parseSourceDocument(block, { file: "block.yaml" })).toThrow(/^block\.yaml:258:258: nested more than 256 levels deep$/);
    expect(parseSourceDocument(nested(255), { file: "ok.yaml" }).value).toEqual({ a: JSON.parse(nested(255).slice(3)) });
  });

  it("refuses JSON nested as deep alike, at the first value too deep", () => {
    const text = `{"a": ${"[".repeat(20_000)}${"]".repeat(20_000)}, "b": 1}`;
    expect(() => parseSourceDocument(text, { file: "deep.json" })).toThrow(/^deep\.json:1:263: nested more than 256 levels deep$/);
  });

  it("still refuses a second document", () => {
    expect(() => parseSourceDocument("a: 1\n---\nb: 2\n", { file: "two.yaml" })).toThrow(/^two\.yaml:2:1: Source contains multiple documents/);
  });
});
