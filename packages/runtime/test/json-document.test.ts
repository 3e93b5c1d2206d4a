import { describe, expect, it } from "vitest";
import { DocumentParseError, parseJsonDocument, sourceFormat } from "@flowspec/runtime/json";
import { isJsonFloat, parseSourceDocument } from "@flowspec/runtime";

describe("@flowspec/runtime/json", () => {
  it("parses JSON as parseSourceDocument does, with the same locations", () => {
    const text = '\uFEFF{\n  "name": "x",\n  "steps": [\n    { "id": "a" },\n    { "id": "b" }\n  ]\n}\n';
    const json = parseJsonDocument(text, { file: "flow.json" });
    const source = parseSourceDocument(text, { file: "flow.json" });
    expect(json.value).toEqual(source.value);
    expect(json.format).toBe("json");
    for (const pointer of ["", "/name", "/steps/1/id", "/steps/9", "/missing"]) expect(json.describe(pointer)).toBe(source.describe(pointer));
    expect(json.describe("/steps/1/id")).toBe("flow.json:5:13");
  });

  it.each([
    { name: "a duplicate key, at its second occurrence", text: '{"a": 1,\n "a": 2}', message: 'x.json:2:2: duplicate key "a"' },
    { name: "a syntax error, at the parser's position", text: '{"a": }', message: /^x\.json:1:7: Unexpected token/ },
    { name: "a value nested too deep", text: "[".repeat(300) + "]".repeat(300), message: "x.json:1:258: nested more than 256 levels deep" },
  ])("refuses $name with a DocumentParseError", ({ text, message }) => {
    expect(() => parseJsonDocument(text, { file: "x.json" })).toThrow(DocumentParseError);
    expect(() => parseJsonDocument(text, { file: "x.json" })).toThrow(message);
  });

  it("keeps floats on request", () => {
    expect(isJsonFloat((parseJsonDocument('{"a": 1.0}', { keepFloats: true }).value as { a: unknown }).a)).toBe(true);
    expect(parseJsonDocument('{"a": 1.0}').value).toEqual({ a: 1 });
  });

  it.each([
    { text: "a: 1", file: "x.yml", format: "yaml" },
    { text: "{}", file: "x.YAML", format: "yaml" },
    { text: "a: 1", file: "x.json", format: "json" },
    { text: " \n[1]", file: undefined, format: "json" },
    { text: "\uFEFF{}", file: "x", format: "json" },
    { text: "a: 1", file: "x.txt", format: "yaml" },
  ])("sourceFormat($text, $file) is $format, as parseSourceDocument reads it", ({ text, file, format }) => {
    expect(sourceFormat(text, file)).toBe(format);
  });
});
