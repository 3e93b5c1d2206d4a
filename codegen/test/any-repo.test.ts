import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv } from "ajv";
import addFormats2 from "ajv-formats-2";
import { afterAll, describe, expect, it } from "vitest";
import type { FlowspecSchema } from "@flowspec/runtime/validation";
import type { Dialect } from "@flowspec/schema-diff/schema-files";
import { generateFolder as generateInTmp, typeCheck, verdicts } from "./support/generate-folder.js";
import { referenceAjv } from "./support/reference.js";

/**
 * Codegen on schemas from other repositories (issue 23: what SchemaStore's schemas needed). Each
 * case is the smallest schema that shows one failure of codegen before the fix (F1…F10, dialects,
 * formats, type noise); the output must type-check and the validators agree with ajv.
 */

const tmp = mkdtempSync(join(tmpdir(), "flowspec-codegen-any-repo-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const generateFolder = (files: Record<string, object>, options: { dialect?: Dialect } = {}) => generateInTmp(tmp, files, options);

describe("dialects: draft-04 and 2019-09, through ajv's own builds", () => {
  it("draft-04: `id`, boolean exclusiveMaximum, `id: \"#name\"` anchors; validators agree with ajv-draft-04", async () => {
    const generated = await generateFolder(
      {
        "order.json": {
          id: "https://shop.example/order.json#",
          title: "Order",
          type: "object",
          required: ["qty"],
          properties: { qty: { type: "integer", minimum: 0, maximum: 10, exclusiveMaximum: true }, code: { $ref: "common.json#code" }, tags: { type: "array", items: { $ref: "#/definitions/tag" }, uniqueItems: true } },
          definitions: { tag: { type: "string", minLength: 1 } },
        },
        "common.json": { id: "https://shop.example/common.json", definitions: { Code: { id: "#code", type: "string", pattern: "^[A-Z]+$" } } },
      },
      { dialect: "draft-04" },
    );
    const samples = [{ qty: 9, code: "AB", tags: ["a", "b"] }, { qty: 10 }, { qty: 1, code: "ab" }, { qty: 1, tags: ["a", "a"] }, { qty: 1, tags: [""] }, {}];
    const { codegen, ajv } = verdicts(generated, "Order", "order.json", samples);
    expect(codegen).toEqual([true, false, false, false, false, false]);
    expect(codegen).toEqual(ajv);
    expect(generated.types).toMatch(/export interface Order \{\n {2}qty: number;\n {2}code\?: Code;\n {2}tags\?: Tag\[\];/);
    expect(typeCheck(generated.dir)).toBe("");
    // XSchema names the dialect as Standard JSON Schema names its targets.
    const { OrderSchema } = (await import(pathToFileURL(join(generated.out, "index.ts")).href)) as { OrderSchema: FlowspecSchema<unknown> };
    expect(OrderSchema.dialect).toBe("draft-04");
    expect(OrderSchema["~standard"].jsonSchema.input({ target: "draft-04" })).toEqual(OrderSchema.jsonSchema);
    // The self-contained JSON Schema is draft-04 too, and validates alike.
    const bundled = JSON.parse(((await import(pathToFileURL(join(generated.out, "json-schemas.default.ts")).href)) as Record<string, string>).Order!);
    expect(bundled.$schema).toBe("http://json-schema.org/draft-04/schema#");
    const check = referenceAjv("draft-04", { strict: false }).compile(bundled);
    expect(samples.map((sample) => check(sample))).toEqual(codegen);
  });

  it("2019-09: $recursiveRef, $anchor, dependentRequired and unevaluatedProperties; validators agree with Ajv2019", async () => {
    const generated = await generateFolder(
      {
        "tree.json": {
          $id: "https://example.com/tree.json",
          $recursiveAnchor: true,
          title: "Tree",
          type: "object",
          properties: { name: { $ref: "#name" }, kids: { type: "array", items: { $recursiveRef: "#" } }, unit: { type: "string" }, size: { type: "number" } },
          dependentRequired: { size: ["unit"] },
          unevaluatedProperties: false,
          $defs: { name: { $anchor: "name", type: "string", maxLength: 3 } },
        },
      },
      { dialect: "draft-2019-09" },
    );
    const samples = [{ name: "a", kids: [{ name: "b", kids: [] }] }, { kids: [{ extra: 1 }] }, { size: 1 }, { size: 1, unit: "m" }, { name: "long" }, { other: 1 }];
    const { codegen, ajv } = verdicts(generated, "Tree", "tree.json", samples);
    expect(codegen).toEqual([true, false, false, true, false, false]);
    expect(codegen).toEqual(ajv);
    expect(typeCheck(generated.dir)).toBe("");
    const { TreeSchema } = (await import(pathToFileURL(join(generated.out, "index.ts")).href)) as { TreeSchema: FlowspecSchema<unknown> };
    expect(TreeSchema.dialect).toBe("draft-2019-09");
  });
});

describe("F1-F8, F10: what failed on SchemaStore's schemas", () => {
  it("F1: a description or pattern that says require( is text, not code", async () => {
    const generated = await generateFolder({
      "plugin.json": { title: "Plugin", description: 'Loaded with require("plugin") or require(name).', type: "object", properties: { entry: { type: "string", pattern: "^require\\(", description: "const x = require('y')" } } },
    });
    const { codegen, ajv } = verdicts(generated, "Plugin", "plugin.json", [{ entry: "require(x)" }, { entry: "import x" }]);
    expect(codegen).toEqual([true, false]);
    expect(codegen).toEqual(ajv);
  });

  it("F2: propertyNames maxLength/minLength count code points, as ajv does", async () => {
    const generated = await generateFolder({ "labels.json": { title: "Labels", type: "object", propertyNames: { maxLength: 3, minLength: 2 }, additionalProperties: { type: "string", maxLength: 2 } } });
    const samples = [{ ab: "x" }, { "😀😀😀": "😀😀" }, { abcd: "x" }, { a: "x" }, { "😀😀😀😀": "x" }, { ab: "xyz" }];
    const { codegen, ajv } = verdicts(generated, "Labels", "labels.json", samples);
    expect(codegen).toEqual([true, true, false, false, false, false]);
    expect(codegen).toEqual(ajv);
  });

  describe("F3: properties that also match patternProperties", () => {
    const files = (config: object) => ({
      "package.json": { title: "Package", type: "object", properties: { require: { type: "string" } }, patternProperties: { "^[^.0-9]+$": { type: ["string", "number"] } } },
      "codegen.json": { roots: { Package: "package.json" }, ...config },
    });

    it("are refused in strict mode, with the codegen.json setting that allows them", async () => {
      await expect(generateFolder(files({}))).rejects.toThrow(/property require matches pattern .*; if that is meant, relax the check in codegen\.json: "relaxStrict": \["allowMatchingProperties"\]/);
    });

    it('are generated with "relaxStrict": ["allowMatchingProperties"], both schemas applying', async () => {
      const generated = await generateFolder(files({ relaxStrict: ["allowMatchingProperties"] }));
      const { codegen, ajv } = verdicts(generated, "Package", "package.json", [{ require: "x", other: 1 }, { require: 1 }, { other: true }]);
      expect(codegen).toEqual([true, false, false]);
      expect(codegen).toEqual(ajv);
    });

    it("a relaxStrict name codegen does not know is a codegen.json error", async () => {
      await expect(generateFolder(files({ relaxStrict: ["strictTypes"] }))).rejects.toThrow('"relaxStrict" names "strictTypes", which is not one of allowMatchingProperties');
    });
  });

  it("F4: types are named as json-schema-to-typescript names them (I18NMessages, Uint32MaxValue), the root's also as the root", async () => {
    const generated = await generateFolder({
      "messages.json": {
        title: "i18n messages",
        type: "object",
        properties: { limit: { $ref: "#/definitions/var-or-uint32max" } },
        definitions: { "var-or-uint32max": { $ref: "#/definitions/uint32max-value" }, "uint32max-value": { type: "integer", maximum: 4294967295 } },
      },
    });
    expect(generated.types).toMatch(/export interface I18NMessages \{/);
    expect(generated.types).toMatch(/export type I18nMessages = I18NMessages;/);
    expect(typeCheck(generated.dir, `import { validateI18nMessages, type I18nMessages } from "./out/index.js";\nconst r = validateI18nMessages({});\nexport const m: I18nMessages | undefined = r.ok ? r.value : undefined;\n`)).toBe("");
  });

  it("F5: a root $id ending in an empty fragment (#)", async () => {
    const generated = await generateFolder({
      "thing.json": { $id: "https://x.example/thing.json#", title: "Thing", type: "object", properties: { part: { $ref: "#/definitions/part" }, next: { $ref: "#" } }, definitions: { part: { type: "string" } } },
    });
    const { codegen, ajv } = verdicts(generated, "Thing", "thing.json", [{ part: "a", next: { part: "b" } }, { next: { part: 1 } }]);
    expect(codegen).toEqual([true, false]);
    expect(codegen).toEqual(ajv);
  });

  it("F6: a $ref inside data (default, examples, enum, const) or an unknown keyword is data, never followed", async () => {
    const stray = { $ref: "#/definitions/nowhere" };
    const generated = await generateFolder({
      "thing.json": {
        title: "Thing",
        type: "object",
        properties: { a: { type: "object", default: stray, examples: [stray] }, e: { enum: [stray, 1] }, c: { const: stray }, m: { type: "string", "x-meta": stray } },
      },
      "codegen.json": { roots: { Thing: "thing.json" }, keywords: ["x-meta"] },
    });
    const { codegen, ajv } = verdicts(generated, "Thing", "thing.json", [{ e: stray, c: stray }, { e: 1 }, { e: { $ref: "#/other" } }, { c: {} }]);
    expect(codegen).toEqual([true, true, false, false]);
    expect(codegen).toEqual(ajv);
    expect(typeCheck(generated.dir, `import type { Thing } from "./out/index.js";\nexport const t: Thing = { e: { $ref: "#/definitions/nowhere" }, c: { $ref: "#/definitions/nowhere" } };\n`)).toBe("");
  });

  it("F7: a draft-07 deprecated string is an annotation (deprecated in the types)", async () => {
    const generated = await generateFolder({ "app.json": { title: "App", type: "object", properties: { homepage: { type: "string", deprecated: "use links.homepage" } } } });
    expect(generated.types).toMatch(/@deprecated\n\s+\*\/\n\s+homepage\?: string;/);
  });

  it("F7: a json-schema-to-typescript failure names the file and JSON Pointer it fails on", async () => {
    // A type overlay reaches the type generator only: validators never see it.
    const files = {
      "app.json": { title: "App", type: "object", properties: { ok: { type: "string" }, broken: { type: "string" } } },
      "overlays/types.json": { patches: { "app.json": [{ op: "add", path: "/properties/broken/anyOf", value: {} }] } },
      "codegen.json": { roots: { App: "app.json" }, typeOverlays: ["overlays/types.json"] },
    };
    await expect(generateFolder(files)).rejects.toThrow(/^json-schema-to-typescript failed on app\.json#\/properties\/broken \(in type App\): TypeError: /);
  });

  it("a schema with allOf beside keywords of its own that reaches itself through the allOf (accelerator.json, web-types.json: json-schema-to-typescript crashed reading 'push')", async () => {
    const generated = await generateFolder({
      "accelerator.json": {
        title: "Accelerator",
        type: "object",
        properties: { root: { $ref: "#/definitions/Chain-2" } },
        definitions: {
          "Chain-1": { type: "object", properties: { transformations: { type: "array", items: { oneOf: [{ $ref: "#/definitions/Chain-2" }, { $ref: "#/definitions/Combo-2" }] } } } },
          "Chain-2": { type: "object", properties: { type: { const: "Chain" } }, required: ["type"], allOf: [{ $ref: "#/definitions/Chain-1" }] },
          "Combo-1": { type: "object", properties: { chain: { $ref: "#/definitions/Chain-2" } } },
          "Combo-2": { type: "object", properties: { type: { const: "Combo" } }, allOf: [{ $ref: "#/definitions/Combo-1" }] },
        },
      },
    });
    expect(generated.types).toMatch(/export type Chain2 = Chain1 & \{\s+type: "Chain";/);
    const documents = [{ root: { type: "Chain", transformations: [{ type: "Combo", chain: { type: "Chain" } }] } }, { root: { transformations: [] } }, { root: { type: "Chain", transformations: [{ type: "Combo", chain: {} }] } }];
    const { codegen, ajv } = verdicts(generated, "Accelerator", "accelerator.json", documents);
    expect(codegen).toEqual([true, false, false]);
    expect(codegen).toEqual(ajv);
    expect(typeCheck(generated.dir)).toBe("");
  });

  it("F8: type lists beside oneOf/anyOf stay small and type-check (they grew exponentially)", async () => {
    const rule = {
      type: ["null", "string", "array"],
      oneOf: [{ type: "null" }, { type: "string", enum: ["always", "never"] }, { type: "array", items: { type: ["string", "object"], anyOf: [{ type: "string", enum: ["always", "never"] }, { $ref: "#/definitions/core" }] } }],
    };
    const properties = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`rule-${i}`, { $ref: "#/definitions/rule", description: `Rule ${i}`, deprecated: i % 2 === 0 }]));
    const generated = await generateFolder({
      "lint.json": { title: "Lint", type: "object", properties: { ...properties, inline: { description: "Inline", ...rule } }, definitions: { rule, core: { type: "object", properties: { severity: { enum: ["warning", "error"] } } } } },
    });
    expect(generated.types.length).toBeLessThan(3_000);
    expect(generated.types).toMatch(/export type Rule = null \| \("always" \| "never"\) \| \(\("always" \| "never"\) \| Core\)\[\];/);
    const { codegen, ajv } = verdicts(generated, "Lint", "lint.json", [{ "rule-1": ["always", { severity: "error" }], inline: null }, { "rule-2": 3 }, { inline: ["x"] }]);
    expect(codegen).toEqual([true, false, false]);
    expect(codegen).toEqual(ajv);
    expect(typeCheck(generated.dir)).toBe("");
  });

  it("F10: every unknown keyword and format, each with its places, in one error", async () => {
    const files = {
      "a.json": { title: "A", type: "object", properties: { b: { $ref: "b.json" }, x: { type: "string", exmaple: "x", format: "emial" }, y: { type: "string", format: "emial" } } },
      "b.json": { title: "B", type: "object", "x-internal": true, properties: { sku: { type: "string", format: "sku" } } },
    };
    const error = await generateFolder(files).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(error).toContain("4 unknown keyword(s) and format(s)");
    expect(error).toContain('unknown keyword: "exmaple" (at a.json#/properties/x)');
    expect(error).toContain('unknown keyword: "x-internal" (at b.json#)');
    expect(error).toContain('unknown format "emial" (at a.json#/properties/x, a.json#/properties/y)');
    expect(error).toContain('unknown format "sku" (at b.json#/properties/sku)');
  });
});

describe("formats for other repositories", () => {
  const files = (config: object) => ({
    "resource.json": { title: "Resource", type: "object", properties: { version: { type: "integer", format: "int64" }, port: { type: "integer", format: "uint16" } } },
    "codegen.json": { roots: { Resource: "resource.json" }, ...config },
  });
  const samples = [{ version: 2 ** 60 }, { port: 70000 }, { version: 1, port: 80 }];

  it("integer formats are annotations by default: an int64 beyond 2^53 (a Kubernetes resource version) passes", async () => {
    const generated = await generateFolder(files({}));
    const { codegen, ajv } = verdicts(generated, "Resource", "resource.json", samples);
    expect(codegen).toEqual([true, true, true]);
    expect(codegen).toEqual(ajv);
    expect(generated.text("validators.default.ts")).not.toMatch(/int64Format|uint16Format/);
  });

  it('"checkIntegerFormats": true checks them as number ranges (int64 as a safe integer), as the StepFlow schemas do', async () => {
    const generated = await generateFolder(files({ checkIntegerFormats: true }));
    const { codegen, ajv } = verdicts(generated, "Resource", "resource.json", samples);
    expect(codegen).toEqual([false, false, true]);
    expect(codegen).toEqual(ajv);
  });

  it("date-time requires a zone offset within ±23:59, and a leap second at 23:59:60 UTC (stricter than ajv-formats 2, as ajv-formats 3)", async () => {
    const generated = await generateFolder({ "event.json": { title: "Event", type: "string", format: "date-time" } });
    const strings = ["2024-01-01T10:00:00+23:59", "2024-01-01T10:00:00+24:00", "2024-01-01T10:00:00", "2024-12-31T23:59:60Z", "2024-12-31T23:59:60+01:00"];
    const formats2 = new Ajv({ strict: false });
    (addFormats2 as unknown as (ajv: Ajv) => void)(formats2);
    expect(strings.map((s) => generated.validators.Event!(s))).toEqual([true, false, false, true, false]);
    expect(strings.map((s) => formats2.validate({ type: "string", format: "date-time" }, s))).toEqual([true, true, true, true, true]);
  });
});

describe("data that ajv's deep equality trips on", () => {
  it("uniqueItems and object enum/const take objects without a prototype (a TOML parser's tables) and keys named valueOf or constructor", async () => {
    const generated = await generateFolder({
      "groups.json": {
        title: "Groups",
        type: "object",
        properties: { all: { type: "array", uniqueItems: true }, fixed: { enum: [{ valueOf: 1 }, { constructor: {} }] } },
      },
    });
    const table = (entries: object) => Object.assign(Object.create(null) as object, entries);
    const documents = [
      table({ all: [table({ "include-group": "a" }), table({ "include-group": "b" })] }),
      table({ all: [table({ "include-group": "a" }), { "include-group": "a" }] }),
      { all: [{ valueOf: 1 }, { valueOf: 2 }], fixed: { valueOf: 1 } },
      { all: [{ valueOf: 1 }, { valueOf: 1 }] },
      { fixed: table({ constructor: table({}) }) },
      { fixed: { constructor: { a: 1 } } },
    ];
    expect(documents.map((document) => generated.validators.Groups!(document))).toEqual([true, false, true, false, true, false]);
  });
});

describe("types without noise", () => {
  it("a oneOf of required-only branches (a GitHub workflow step) types the schema as its own interface", async () => {
    const generated = await generateFolder({
      "step.json": { title: "Step", type: "object", oneOf: [{ required: ["uses"] }, { required: ["run"] }], properties: { uses: { type: "string" }, run: { type: "string" } }, allOf: [{ not: { required: ["shell"] } }] },
    });
    expect(generated.types).toMatch(/^export interface Step \{$/m);
    expect(generated.types).not.toMatch(/Step1|Step2|unknown &|& unknown/);
    const { codegen, ajv } = verdicts(generated, "Step", "step.json", [{ uses: "a" }, { uses: "a", run: "b" }, {}]);
    expect(codegen).toEqual([true, false, false]);
    expect(codegen).toEqual(ajv);
  });

  it("numbered copies of one type are merged, each property keeping its own description", async () => {
    const param = (description: string) => ({ title: "Custom parameters", description, type: ["null", "string"] });
    const generated = await generateFolder({
      "scan.json": { title: "Scan", type: "object", properties: { go: { type: "object", properties: { params: param("Go parameters") } }, java: { type: "object", properties: { params: param("Java parameters") } } } },
    });
    expect(generated.types).not.toMatch(/CustomParameters1/);
    expect(generated.types).toMatch(/\* Java parameters\n\s+\*\/\n\s+params\?: CustomParameters;/);
    expect(typeCheck(generated.dir)).toBe("");
  });

  it("a definition made of itself (allOf with a $ref to its own definition) type-checks", async () => {
    const generated = await generateFolder({
      "vm.json": { title: "Vm", type: "object", properties: { props: { $ref: "#/definitions/props" } }, definitions: { props: { type: "object", allOf: [{ $ref: "#/definitions/props" }, { properties: { os: { type: "string" } } }] } } },
    });
    expect(typeCheck(generated.dir)).toBe("");
  });

  it("names a $ref'd subschema by the words of its pointer from the last name in it", async () => {
    const options = (values: string[]) => ({ type: "array", items: { enum: values } });
    const generated = await generateFolder({
      "lint.json": {
        title: "Lint",
        type: "object",
        properties: { whitespace: { $ref: "#/definitions/rules/properties/whitespace/definitions/options/items" }, quotes: { $ref: "#/definitions/rules/properties/quotes/definitions/options/items" } },
        definitions: { rules: { properties: { whitespace: { definitions: { options: options(["check-branch"]) } }, quotes: { definitions: { options: options(["single", "double"]) } } } } },
      },
    });
    expect(generated.types).toMatch(/whitespace\?: WhitespaceOptionsItems;\n\s+quotes\?: OptionsItems;/);
  });
});
