import { describe, expect, it } from "vitest";
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
    try {
      parseSourceDocument(text, { file });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DocumentParseError);
      expect((error as DocumentParseError).location).toEqual({ line, column });
      expect((error as Error).message).toMatch(new RegExp(`^${file}:${line}:${column}: `));
    }
  });
});
