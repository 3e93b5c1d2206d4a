import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { formats } from "@flowspec/runtime/ajv";
import type { Dialect } from "@flowspec/schema-diff/schema-files";
import { generate } from "../src/index.js";
import { generateFolder as generateInTmp, SCHEMA_URI, typeCheck, verdicts } from "./support/generate-folder.js";

/**
 * Codegen on schemas a user might write: the output must type-check, and each generated validator
 * must agree with ajv compiling the same schemas at run time.
 */

const tmp = mkdtempSync(join(tmpdir(), "flowspec-codegen-user-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const DRAFT_07: Dialect = "draft-07";
const DRAFT_2020: Dialect = "draft-2020-12";
const generateFolder = (files: Record<string, object>, options: { dialect?: Dialect } = {}) => generateInTmp(tmp, files, options);

describe("codegen on users' schemas", () => {
  it("gives a root that is only a $ref (a tree) its own type", async () => {
    const generated = await generateFolder({
      "tree.json": {
        title: "Tree",
        $ref: "#/definitions/node",
        definitions: { node: { type: "object", required: ["value"], properties: { value: { type: "number" }, children: { type: "array", items: { $ref: "#/definitions/node" } } } } },
      },
    });
    expect(generated.types).toMatch(/export type Tree = Node;/);
    expect(typeCheck(generated.dir, `import type { Tree } from "./out/index.js";\nexport const t: Tree = { value: 1, children: [{ value: 2 }] };\n`)).toBe("");
    const { codegen, ajv } = verdicts(generated, "Tree", "tree.json", [{ value: 1, children: [{ value: 2 }] }, { value: 1, children: [{ value: "x" }] }]);
    expect(codegen).toEqual(ajv);
  });

  it("types a root that extends a $ref with its own keywords as both", async () => {
    const generated = await generateFolder(
      {
        "base.json": { title: "Base", type: "object", properties: { a: { type: "string" } } },
        "ext.json": { title: "Ext", $ref: "base.json", type: "object", required: ["b"], properties: { b: { type: "number" } }, unevaluatedProperties: false },
      },
      { dialect: DRAFT_2020 },
    );
    expect(generated.types).not.toMatch(/Base1/);
    expect(typeCheck(generated.dir, `import type { Ext } from "./out/index.js";\nexport const e: Ext = { a: "x", b: 1 };\n// @ts-expect-error b is required\nexport const f: Ext = { a: "x" };\n`)).toBe("");
    const { codegen, ajv } = verdicts(generated, "Ext", "ext.json", [{ a: "x", b: 1 }, { a: "x" }, { a: "x", b: 1, c: 2 }]);
    expect(codegen).toEqual(ajv);
  });

  it("keeps validators working when roots are named like globals they use (Array, Object, RegExp)", async () => {
    const generated = await generateFolder({
      "array.json": { title: "Array", type: "array", items: { type: "string" } },
      "object.json": { title: "Object", type: "object", properties: { tags: { $ref: "array.json" }, code: { type: "string", pattern: "^[a-z]+$" } } },
      "regexp.json": { title: "RegExp", type: "string", pattern: "^x" },
    });
    const samples = [{ tags: ["a"] }, { tags: [1] }, { code: "abc" }, { code: "ABC" }, [], "x"];
    expect(verdicts(generated, "Object", "object.json", samples)).toEqual({ codegen: [true, false, true, false, false, false], ajv: [true, false, true, false, false, false] });
    expect(verdicts(generated, "Array", "array.json", [["a"], [1], {}])).toEqual({ codegen: [true, false, false], ajv: [true, false, false] });
    expect(verdicts(generated, "RegExp", "regexp.json", ["xy", "y"])).toEqual({ codegen: [true, false], ajv: [true, false] });
    expect(typeCheck(generated.dir)).toBe("");
  });

  it("accepts valid schemas that ajv's strictTypes, strictTuples and strictRequired would refuse", async () => {
    // Each is standard JSON Schema, as the specification's own examples write it: a keyword without
    // its type beside it, an open tuple, a dependent schema requiring a property declared elsewhere.
    const generated = await generateFolder(
      {
        "thing.json": {
          title: "Thing",
          type: "object",
          properties: {
            name: { type: "string" },
            code: { if: { type: "string" }, then: { minLength: 2 }, else: { type: "number" } },
            pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] },
          },
          dependentSchemas: { name: { required: ["code"] } },
        },
      },
      { dialect: DRAFT_2020 },
    );
    const samples = [{ name: "a", code: "ab" }, { name: "a" }, { code: "a" }, { code: 1 }, { code: true }, { pair: ["a", 1, null] }, { pair: [1] }];
    const { codegen, ajv } = verdicts(generated, "Thing", "thing.json", samples);
    expect(codegen).toEqual([true, false, false, true, false, true, false]);
    expect(codegen).toEqual(ajv);
  });

  it.each([
    ["draft-07 items: [...]", DRAFT_07, { items: [{ type: "string" }, { type: "number" }] }],
    ["2020-12 prefixItems", DRAFT_2020, { prefixItems: [{ type: "string" }, { type: "number" }] }],
  ] as const)("types a %s tuple without a rule for further items as open, as it validates", async (_name, dialect, tuple) => {
    const generated = await generateFolder({ "pair.json": { title: "Pair", type: "array", ...tuple } }, { dialect });
    expect(verdicts(generated, "Pair", "pair.json", [["a", 1, true]])).toEqual({ codegen: [true], ajv: [true] });
    expect(typeCheck(generated.dir, `import type { Pair } from "./out/index.js";\nexport const p: Pair = ["a", 1, true];\n`)).toBe("");
  });

  it("follows $refs to boolean schemas (true: anything, false: nothing)", async () => {
    const generated = await generateFolder({
      "box.json": { title: "Box", type: "object", properties: { any: { $ref: "#/definitions/Anything" }, none: { $ref: "#/definitions/Nothing" } }, definitions: { Anything: true, Nothing: false } },
    });
    expect(generated.types).toMatch(/export type Anything = unknown;/);
    expect(generated.types).toMatch(/export type Nothing = never;/);
    const { codegen, ajv } = verdicts(generated, "Box", "box.json", [{ any: { x: 1 } }, { none: 1 }, {}]);
    expect(codegen).toEqual([true, false, true]);
    expect(codegen).toEqual(ajv);
    expect(typeCheck(generated.dir)).toBe("");
  });

  it.each([
    ["an unknown keyword", { type: "string", exmaple: "x" }, /unknown keyword: "exmaple".*at b\.json#\/definitions\/Code\/properties\/id/],
    ["an unknown format", { type: "string", format: "emial" }, /unknown format "emial".*at b\.json#\/definitions\/Code\/properties\/id/],
  ])("names the file and JSON Pointer of %s in a $ref'd file", async (_name, id, message) => {
    const files = {
      "a.json": { title: "A", type: "object", properties: { code: { $ref: "b.json#/definitions/Code" } } },
      "b.json": { definitions: { Code: { type: "object", properties: { id } } } },
    };
    await expect(generateFolder(files)).rejects.toThrow(message);
  });

  it("takes the standard formats ajv-formats cannot check (iri, idn-email, …) as annotations", async () => {
    const generated = await generateFolder({
      "contact.json": { title: "Contact", type: "object", properties: { home: { type: "string", format: "iri" }, ref: { type: "string", format: "iri-reference" }, mail: { type: "string", format: "idn-email" }, host: { type: "string", format: "idn-hostname" }, web: { type: "string", format: "uri" } } },
    });
    const check = generated.validators.Contact!;
    expect([check({ home: "anything at all", ref: "", mail: "x", host: "-" }), check({ web: "not a uri" })]).toEqual([true, false]);
  });

  it("names file:line:column for a JSON syntax error in codegen.json or in a schema", async () => {
    const dir = join(tmp, `syntax-${Math.random().toString(36).slice(2)}`);
    mkdirSync(join(dir, "schemas"), { recursive: true });
    writeFileSync(join(dir, "schemas", "item.json"), JSON.stringify({ $schema: SCHEMA_URI[DRAFT_07], type: "string" }));
    writeFileSync(join(dir, "schemas", "codegen.json"), '{\n  "roots": { "Item": "item.json" },,\n}\n');
    await expect(generate({ schemaDir: join(dir, "schemas"), outDir: join(dir, "out") })).rejects.toThrow(/codegen\.json:2:36: not valid JSON: /);
    rmSync(join(dir, "schemas", "codegen.json"));
    writeFileSync(join(dir, "schemas", "item.json"), '{\n  "type": "string"\n  "format": "email"\n}');
    await expect(generate({ schemaDir: join(dir, "schemas"), outDir: join(dir, "out") })).rejects.toThrow(/item\.json:3:3: not valid JSON: /);
  });

  it("takes the formats codegen.json lists as annotations, and still refuses other unknown ones and listing a checked one", async () => {
    const schema = { title: "Item", type: "object", properties: { sku: { type: "string", format: "sku" } } };
    const generated = await generateFolder({ "item.json": schema, "codegen.json": { formats: ["sku"], roots: { Item: "item.json" } } });
    expect(generated.validators.Item!({ sku: "whatever" })).toBe(true);
    await expect(generateFolder({ "item.json": schema })).rejects.toThrow(/unknown format "sku"/);
    await expect(generateFolder({ "item.json": schema, "codegen.json": { formats: ["sku", "email"], roots: { Item: "item.json" } } })).rejects.toThrow(
      'format "email" is one codegen checks',
    );
  });

  it("names an embedded schema resource ($id inside a file) as the reason a $ref does not resolve", async () => {
    const files = {
      "order.json": { $id: "https://shop.example/order.json", title: "Order", type: "object", properties: { item: { $ref: "item.json" } }, definitions: { item: { $id: "item.json", type: "string" } } },
    };
    await expect(generateFolder(files)).rejects.toThrow("the $id of a schema inside order.json#/definitions/item; codegen resolves $ids of whole files only");
  });

  it("refuses roots whose exports would clash across variants (Foo in variant lenient, and FooLenient)", async () => {
    const files = {
      "item.json": { title: "Item", type: "object", properties: { kind: { enum: ["a"] } } },
      "other.json": { title: "Other", type: "object" },
      "overlays/loose.json": { patches: { "item.json": [{ op: "remove", path: "/properties/kind/enum" }] } },
      "codegen.json": { roots: { Item: "item.json", ItemLenient: "other.json" }, variants: { strict: [], lenient: ["overlays/loose.json"] } },
    };
    await expect(generateFolder(files)).rejects.toThrow("root ItemLenient and root Item (lenient variant) would both export validateItemLenient");
  });

  it("types a schema whose allOf holds only if/then rules as its own interface, while the rules still validate", async () => {
    const generated = await generateFolder(
      {
        "shape.json": {
          title: "Shape",
          type: "object",
          required: ["kind"],
          properties: { kind: { enum: ["circle", "square"] }, radius: { type: "number" }, side: { type: "number" } },
          allOf: [
            { if: { properties: { kind: { const: "circle" } } }, then: { required: ["radius"] } },
            { if: { properties: { kind: { const: "square" } } }, then: { required: ["side"] }, else: { not: { required: ["side"] } } },
          ],
        },
      },
      { dialect: DRAFT_2020 },
    );
    expect(generated.types).toMatch(/export interface Shape \{/);
    expect(generated.types).not.toMatch(/Shape1|unknown &/);
    const { codegen, ajv } = verdicts(generated, "Shape", "shape.json", [{ kind: "circle", radius: 1 }, { kind: "circle" }, { kind: "square", side: 2 }, { kind: "circle", radius: 1, side: 2 }]);
    expect(codegen).toEqual([true, false, true, false]);
    expect(codegen).toEqual(ajv);
  });

  it("resolves a relative root $id against the file, as JSON Schema says", async () => {
    const generated = await generateFolder({
      "item.json": { $id: "item.json", title: "Item", type: "object", properties: { id: { $ref: "#/definitions/ItemId" }, tag: { $ref: "tag.json" } }, definitions: { ItemId: { type: "string", minLength: 2 } } },
      "tag.json": { $id: "tag.json", title: "Tag", type: "string", enum: ["a", "b"] },
    });
    const check = generated.validators.Item!;
    expect([check({ id: "ab", tag: "a" }), check({ id: "a" }), check({ tag: "c" })]).toEqual([true, false, false]);
    expect(typeCheck(generated.dir)).toBe("");
  });

  it("leaves no generator notes about patternProperties in the types", async () => {
    const generated = await generateFolder({
      "map.json": { title: "Map", type: "object", properties: { headers: { description: "By name.", type: "object", patternProperties: { "^x-": { type: "string" }, "^a*/b$": { type: "number" } } } } },
    });
    expect(generated.types).not.toContain("referenced by");
    expect(generated.types).toMatch(/\/\*\*\n\s+\* By name\.\n\s+\*\/\n\s+headers\?: \{\n\s+\[k: string\]: string \| number \| undefined;/);
  });

  it.each([
    ["2020-12 $anchor", DRAFT_2020, { $anchor: "code" }],
    ["draft-07 $id: \"#...\"", DRAFT_07, { $id: "#code" }],
  ])("resolves a $ref to a %s, in another file by $id and in the same file", async (_name, dialect, anchor) => {
    const defs = dialect === DRAFT_07 ? "definitions" : "$defs";
    const generated = await generateFolder(
      {
        "order.json": { $id: "https://shop.example/order.json", title: "Order", type: "object", properties: { code: { $ref: "common.json#code" }, again: { $ref: "#local" } }, [defs]: { local: { ...(dialect === DRAFT_07 ? { $id: "#local" } : { $anchor: "local" }), type: "integer" } } },
        "common.json": { $id: "https://shop.example/common.json", [defs]: { Code: { ...anchor, type: "string", pattern: "^[A-Z]+$" } } },
      },
      { dialect },
    );
    expect(generated.types).toMatch(/code\?: Code;/);
    const { codegen, ajv } = verdicts(generated, "Order", "order.json", [{ code: "AB", again: 1 }, { code: "ab" }, { again: "x" }]);
    expect(codegen).toEqual([true, false, false]);
    expect(codegen).toEqual(ajv);
    expect(typeCheck(generated.dir)).toBe("");
    // The self-contained JSON Schema (XSchema's) validates alike.
    const bundled = JSON.parse(((await import(pathToFileURL(join(generated.out, "json-schemas.default.ts")).href)) as Record<string, string>).Order!);
    const check = (dialect === DRAFT_07 ? new Ajv({ strict: false }) : new Ajv2020({ strict: false })).compile(bundled);
    expect([{ code: "AB", again: 1 }, { code: "ab" }, { again: "x" }].map((sample) => check(sample))).toEqual(codegen);
  });
});

describe("the cap on errors (maxErrors) on users' schemas", () => {
  // Every keyword whose code resets ajv's error count (anyOf, oneOf, not, if, contains), reached
  // inline, through $refs and recursively, so that errors pile up both before and inside them.
  const files = {
    "item.json": {
      title: "Item",
      type: "object",
      required: ["id"],
      properties: {
        id: { type: "string", minLength: 2 },
        either: { anyOf: [{ type: "string" }, { $ref: "#" }, { type: "array", items: { type: "integer" } }] },
        one: { oneOf: [{ type: "integer" }, { type: "number", minimum: 0 }, { $ref: "#" }] },
        never: { not: { type: "string" } },
        rule: { if: { type: "string" }, then: { minLength: 3 }, else: { type: "array", items: { $ref: "#" } } },
        bag: { type: "array", contains: { type: "string" }, items: { type: ["string", "integer"] } },
        kids: { type: "array", items: { $ref: "#" } },
      },
      additionalProperties: false,
    },
  };
  const item = (n: number, bad: unknown): Record<string, unknown> => ({ id: "x", either: n > 0 ? [1.5, "a", bad] : bad, one: bad, never: "s", rule: [bad, {}], bag: [1, 2.5, {}], kids: Array.from({ length: n }, () => bad), extra: 1 });
  const samples = [
    { id: "ok", either: "s", one: 1.5, never: 1, rule: "long", bag: ["a"], kids: [] },
    item(0, 1),
    item(3, {}),
    item(2, item(2, { id: 1 })),
    item(5, [item(1, null)]),
    { id: "ok", one: 2 }, // two oneOf branches pass
    { id: "ok", either: { id: 1, kids: [{}, {}] } },
  ];

  it("keeps the first maxErrors of ajv's errors, counts them all, and never changes a verdict", async () => {
    const generated = await generateFolder(files);
    const ajv = new Ajv({ allErrors: true, strict: false });
    for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format as never);
    const reference = ajv.compile(files["item.json"]);
    const compiled = generated.validators.Item! as ((data: unknown, context?: { maxErrors?: number }) => boolean) & { errors: unknown[] | null; errorCount: number };
    for (const sample of samples) {
      const valid = reference(sample);
      const all = reference.errors ?? [];
      for (const maxErrors of [1, 2, 3, 5, 8, 13, 100, Infinity]) {
        expect(compiled(sample, { maxErrors }), `verdict with maxErrors ${maxErrors}`).toBe(valid);
        expect(compiled.errorCount).toBe(all.length);
        expect(compiled.errors ?? []).toEqual(all.slice(0, maxErrors));
      }
    }
  });
});
