import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { DocumentParseError, parseSourceDocument } from "../src/index.js";
import { documentProperties } from "./document-properties.js";

describe("parseSourceDocument against JSON.parse and the yaml package (properties)", () => {
  it.each(documentProperties().map((p) => [p.name, p] as const))("%s", (_, { check }) => check());
});

describe("the documented differences, which the properties stay clear of", () => {
  const refused = (text: string, format: "json" | "yaml") => {
    try {
      parseSourceDocument(text, { format });
    } catch (error) {
      if (error instanceof DocumentParseError) return error.reason;
    }
    return undefined;
  };

  it("a repeated key is refused, where JSON.parse keeps the last value and the yaml package sees two keys in 1 and '1'", () => {
    expect(JSON.parse('{"a": 1, "a": 2}')).toEqual({ a: 2 });
    expect(refused('{"a": 1, "a": 2}', "json")).toBe('duplicate key "a"');
    expect(parseYaml("1: x\n'1': y\n")).toEqual({ 1: "y" });
    expect(refused("1: x\n'1': y\n", "yaml")).toBe('duplicate key "1"');
  });

  it("a value nested more than 256 collections deep is refused, where both read it", () => {
    const deep = "[".repeat(300) + "]".repeat(300);
    expect(() => JSON.parse(deep)).not.toThrow();
    expect(() => parseYaml(deep)).not.toThrow();
    expect(refused(deep, "json")).toBe("nested more than 256 levels deep");
    expect(refused(deep, "yaml")).toBe("nested more than 256 levels deep");
  });

  it("a byte order mark is dropped, where JSON.parse refuses it", () => {
    expect(() => JSON.parse('\uFEFF{"a": 1}')).toThrow(SyntaxError);
    expect(parseSourceDocument('\uFEFF{"a": 1}', { format: "json" }).value).toEqual({ a: 1 });
  });

  it("explicit YAML 1.1 tags give plain data, where the yaml package gives a Set and a Uint8Array", () => {
    const text = "s: !!set {x}\nb: !!binary aGk=\n";
    expect(parseYaml(text).s).toBeInstanceOf(Set);
    expect(parseSourceDocument(text, { format: "yaml" }).value).toEqual({ s: { x: null }, b: "aGk=" });
  });

  it("up to 10,000 alias expansions are read, where the yaml package stops at 100", () => {
    const text = `a: &a [1]\nb: [${Array(200).fill("*a").join(", ")}]\n`;
    expect(() => parseYaml(text)).toThrow(/Excessive alias count/);
    expect((parseSourceDocument(text, { format: "yaml" }).value as { b: unknown[] }).b).toHaveLength(200);
  });
});
