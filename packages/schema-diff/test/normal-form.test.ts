import { describe, expect, it } from "vitest";
import { diffSchemas } from "@flowspec/schema-diff";
import { expectRow, expectSwapped, type Row } from "./rows.js";

/**
 * Rewrites that accept the same documents are no change (each row failed before the normal form),
 * and the dialects are compared after each is read in its own terms.
 */

const draft04 = "http://json-schema.org/draft-04/schema#";
const draft07 = "http://json-schema.org/draft-07/schema#";
const draft2019 = "https://json-schema.org/draft/2019-09/schema";
const draft2020 = "https://json-schema.org/draft/2020-12/schema";
const str = { type: "string" };
const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: "object", properties, ...extra });
const kind = (value: string) => obj({ kind: { const: value } }, { required: ["kind"] });
const types = { oneOf: [{ type: "array", minItems: 1 }, str] };
const eventObject = { oneOf: [{ type: "object" }, { type: "null" }] };
const noAnnotations = { annotations: false };

const rows: Row[] = [
  {
    // package.json 685cc19 (typescript-eslint quotes): one tuple of 2 or 3 items split into a oneOf by length.
    name: "a tuple split into a oneOf of closed tuples by length ≡ the tuple",
    old: { type: "array", minItems: 2, maxItems: 3, items: [{ type: "integer" }, { enum: ["double", "single"] }, { type: "object" }] },
    new: {
      oneOf: [
        { type: "array", minItems: 2, additionalItems: false, items: [{ type: "integer" }, { enum: ["double", "single"] }] },
        { type: "array", minItems: 3, additionalItems: false, items: [{ type: "integer" }, { enum: ["double", "single"] }, { type: "object" }] },
      ],
    },
    kinds: [],
    newReader: false,
    oldReader: false,
  },
  {
    // The 1-tuple allows any second item, which the 2-tuple's second position would not: no merge.
    name: "a union of tuples, one open past its positions: not merged",
    old: { type: "array", minItems: 1, maxItems: 2, items: [{ type: "integer" }, str] },
    new: { anyOf: [{ type: "array", minItems: 1, maxItems: 2, items: [{ type: "integer" }] }, { type: "array", minItems: 2, additionalItems: false, items: [{ type: "integer" }, str] }] },
    kinds: ["branch-added", "tuple-item-removed"],
    newReader: false,
    oldReader: true,
  },
  {
    // Length 2 is left out: no merge, and the union is compared keyword by keyword as before.
    name: "a tuple split with a length left out: not merged",
    old: { type: "array", minItems: 1, maxItems: 3, items: [{ type: "integer" }, str, { type: "object" }] },
    new: {
      anyOf: [
        { type: "array", minItems: 1, maxItems: 1, items: [{ type: "integer" }] },
        { type: "array", minItems: 3, additionalItems: false, items: [{ type: "integer" }, str, { type: "object" }] },
      ],
    },
    kinds: ["bound-loosened", "tuple-item-removed", "type-widened", "union-added"],
    newReader: true,
    oldReader: true,
  },
  {
    // eslintrc.json, SchemaStore ef1dcef: 17 plugin names added and removed beside a branch that takes any string.
    name: "anyOf: [{enum}, {type: string}]: values added or removed in the list change nothing",
    old: { type: "array", items: { anyOf: [{ enum: ["jest", "react", "redux"] }, str] } },
    new: { type: "array", items: { anyOf: [{ enum: ["jest", "react", "vitest"] }, str] } },
    kinds: [],
    newReader: false,
    oldReader: false,
  },
  {
    // jscpd.json (package.json 685cc19): "url" left the list, but the new string branch still accepts it.
    name: "a list absorbed by a bounded string branch: the list dropped, and a bound every listed value meets",
    old: { enum: ["abap", "url"] },
    new: { anyOf: [{ enum: ["abap", "zig"] }, { type: "string", minLength: 1 }] },
    kinds: ["bound-tightened", "enum-removed"],
    newReader: false,
    oldReader: true,
  },
  {
    name: "a list not absorbed where a value fails the other branch, or in a oneOf",
    old: { anyOf: [{ enum: ["", "a"] }, { type: "string", minLength: 1 }] },
    new: { oneOf: [{ enum: ["a"] }, { type: "string", minLength: 1 }] },
    kinds: ["enum-value-removed", "keyword-changed"],
    newReader: true,
    oldReader: false,
  },
  {
    // github-workflow.json, SchemaStore 3fdf689: 49 events rewritten this way.
    name: "$ref with siblings ≡ allOf: [{$ref}] with the same siblings",
    old: { definitions: { types, eventObject }, properties: { push: { $ref: "#/definitions/eventObject", description: "d", properties: { types: { $ref: "#/definitions/types", items: { enum: ["a", "b"] } } } } } },
    new: { definitions: { types, eventObject }, properties: { push: { allOf: [{ $ref: "#/definitions/eventObject" }], description: "d", properties: { types: { allOf: [{ $ref: "#/definitions/types" }], items: { enum: ["a", "b"] } } } } } },
    kinds: [],
    newReader: false,
    oldReader: false,
  },
  {
    name: "allOf: [{$ref}] with a sibling that changed: only that change",
    old: { definitions: { types }, properties: { t: { $ref: "#/definitions/types", items: { enum: ["a"] } } } },
    new: { definitions: { types }, properties: { t: { allOf: [{ $ref: "#/definitions/types" }], items: { enum: ["a", "b"] } } } },
    kinds: ["enum-value-added"],
    newReader: false,
    oldReader: true,
  },
  { name: "type list ≡ anyOf of the same single types", old: { type: ["string", "null"] }, new: { anyOf: [str, { type: "null" }] }, kinds: [], newReader: false, oldReader: false },
  { name: "type list ≡ oneOf of the same single types", old: { type: ["string", "integer"] }, new: { oneOf: [{ type: "integer" }, str] }, kinds: [], newReader: false, oldReader: false },
  {
    name: "type list with keywords of one type ≡ anyOf with them in that type's branch",
    old: { type: ["string", "array"], maxLength: 3, items: str },
    new: { anyOf: [{ type: "string", maxLength: 3 }, { type: "array", items: str }] },
    kinds: [],
    newReader: false,
    oldReader: false,
  },
  // stylelint objectRule (SchemaStore a3795b4): the outer type list dropped, every branch being of one of its types.
  {
    name: "a type list beside a union of branches of its types ≡ the union alone",
    old: { type: ["null", "object", "array"], oneOf: [{ type: "null" }, obj({ a: str }), { type: "array", minItems: 2 }] },
    new: { oneOf: [{ type: "null" }, obj({ a: str }), { type: "array", minItems: 2 }] },
    kinds: [],
    newReader: false,
    oldReader: false,
  },
  // stylelint simpleArrayStringRule → simpleStringOrArrayStringRule (SchemaStore a3795b4): the union's $ref branch keeps items and uniqueItems.
  {
    name: "a type list beside a union whose $ref branch is the old schema: only the added type",
    old: { $defs: { A: { type: "array", items: str, uniqueItems: true } }, properties: { p: { $ref: "#/$defs/A" } } },
    new: { $defs: { A: { type: "array", items: str, uniqueItems: true }, S: { type: ["string", "array"], oneOf: [str, { $ref: "#/$defs/A" }] } }, properties: { p: { $ref: "#/$defs/S" } } },
    kinds: ["branch-added", "def-added", "ref-changed"],
    newReader: false,
    oldReader: true,
  },
  { name: 'patternProperties {".*": S} alone ≡ additionalProperties S', old: { type: "object", patternProperties: { ".*": str } }, new: { type: "object", additionalProperties: str }, kinds: [], newReader: false, oldReader: false },
  // "^.*$" misses names with a line break: NEW constrains those too.
  { name: 'patternProperties {"^.*$": S} is not additionalProperties S', old: { type: "object", patternProperties: { "^.*$": str } }, new: { type: "object", additionalProperties: str }, kinds: ["additional-properties-tightened", "keyword-changed"], newReader: true, oldReader: false },
  {
    name: "a union kept apart by a value list, against a type list: branches paired by type",
    old: { oneOf: [{ type: "boolean", enum: [true] }, { type: "array", items: str }, { type: "string", maxLength: 3 }] },
    new: { type: ["boolean", "array", "string"], enum: [true, ["x"], "a"], items: str, maxLength: 3 },
    kinds: ["enum-added"],
    newReader: true,
    oldReader: false,
  },
  { name: "oneOf → anyOf over branches of disjoint types", old: { oneOf: [obj({ a: str }), { type: "array" }] }, new: { anyOf: [obj({ a: str }), { type: "array" }] }, kinds: [], newReader: false, oldReader: false },
  { name: "oneOf → anyOf over branches a required const discriminates", old: { oneOf: [kind("a"), kind("b")] }, new: { anyOf: [kind("a"), kind("b")] }, kinds: [], newReader: false, oldReader: false },
  { name: "anyOf → oneOf over branches a required const discriminates", old: { anyOf: [kind("a"), kind("b")] }, new: { oneOf: [kind("a"), kind("b")] }, kinds: [], newReader: false, oldReader: false },
  // integer and number overlap: a oneOf of them rejects integers, so this is a real change.
  { name: "oneOf → anyOf over integer and number is looser", old: { oneOf: [{ type: "integer" }, { type: "number", maximum: 1 }] }, new: { anyOf: [{ type: "integer" }, { type: "number", maximum: 1 }] }, kinds: ["keyword-changed"], newReader: false, oldReader: true },
  {
    name: "a new union one of whose branches holds the old schema: looser only",
    old: { $defs: { A: obj({ x: str }) }, properties: { a: { $ref: "#/$defs/A" } } },
    new: { $defs: { A: obj({ x: str }) }, properties: { a: { anyOf: [{ $ref: "#/$defs/A" }, { type: "array", items: { $ref: "#/$defs/A" } }] } } },
    kinds: ["branch-added"],
    newReader: false,
    oldReader: true,
  },
  {
    name: "a new oneOf one of whose disjoint branches holds the old schema: looser only",
    old: obj({ a: obj({ x: str }, { required: ["x"] }) }),
    new: obj({ a: { oneOf: [obj({ x: str }, { required: ["x"] }), { type: "string", enum: ["x"] }] } }),
    kinds: ["branch-added"],
    newReader: false,
    oldReader: true,
  },
  {
    name: "the union unwrapped again: tighter only",
    old: obj({ a: { oneOf: [obj({ x: str }, { required: ["x"] }), { type: "string", enum: ["x"] }] } }),
    new: obj({ a: obj({ x: str }, { required: ["x"] }) }),
    kinds: ["branch-removed"],
    newReader: true,
    oldReader: false,
  },
  {
    // dependabot-2.0.json, SchemaStore aae2662: each branch restates the property it requires.
    name: "a branch restating a property schema of the schema around it",
    old: obj({ a: str, b: { type: "string", maxLength: 5 } }, { anyOf: [{ required: ["a"] }, { required: ["b"] }] }),
    new: obj({ a: str, b: { type: "string", maxLength: 5 } }, { anyOf: [{ properties: { a: { $ref: "#/properties/a" } }, required: ["a"] }, { properties: { b: { type: "string", maxLength: 5 } }, required: ["b"] }] }),
    kinds: [],
    newReader: false,
    oldReader: false,
  },
  {
    // dependabot-2.0.json, SchemaStore aae2662: "schedule is required unless multi-ecosystem-group is set".
    name: "if/then/else rewritten as if-not/then with the common requirement moved out",
    old: obj({ e: str, s: str, g: str }, { allOf: [{ if: { required: ["g"] }, then: { required: ["e"] }, else: { required: ["e", "s"] } }] }),
    new: obj({ e: str, s: str, g: str }, { required: ["e"], allOf: [{ if: { not: { properties: { g: {} }, required: ["g"] } }, then: { properties: { s: { $ref: "#/properties/s" } }, required: ["s"] } }] }),
    kinds: [],
    newReader: false,
    oldReader: false,
  },
  // babelrc.json, SchemaStore 3e160f8 (draft-04 → draft-07): `sourceMaps` and `compact` rewritten as unions.
  {
    name: "type list with an enum ≡ anyOf of a listed type and a type of few values",
    old: { type: ["string", "boolean"], enum: ["both", "inline", true, false] },
    new: { anyOf: [{ type: "string", enum: ["both", "inline"] }, { type: "boolean" }] },
    kinds: [],
    newReader: false,
    oldReader: false,
  },
  {
    name: "a union branch whose const is none of its type accepts nothing: tighter only",
    old: { type: ["string", "boolean"], enum: ["auto", true, false] },
    new: { anyOf: [{ type: "string", const: ["auto"] }, { type: "boolean" }] },
    kinds: ["enum-value-removed", "type-narrowed"],
    newReader: true,
    oldReader: false,
  },
  // Keywords of a type the schema refuses say nothing: items went with "array"; only the type changed.
  { name: "a type dropped with its keywords: only the type change", old: obj({ a: { oneOf: [str, { type: "array", items: str }] } }), new: obj({ a: { oneOf: [str] } }), kinds: ["type-narrowed"], newReader: true, oldReader: false },
  { name: "keywords of a refused type: no change", old: { type: "string", items: str, minimum: 3 }, new: { type: "string" }, kinds: [], newReader: false, oldReader: false },
  { name: "const null ≡ type null", old: obj({ a: { const: null } }), new: obj({ a: { type: "null" } }), kinds: [], newReader: false, oldReader: false },
  {
    name: "draft-04 → draft-07: id, boolean exclusiveMinimum, definitions → $defs",
    old: { $schema: draft04, id: "https://example.com/n.json", definitions: { n: { type: "number", minimum: 0, exclusiveMinimum: true } }, properties: { n: { $ref: "#/definitions/n" } } },
    new: { $schema: draft2020, $id: "https://example.com/n.json", $defs: { n: { type: "number", exclusiveMinimum: 0 } }, properties: { n: { $ref: "#/$defs/n" } } },
    kinds: [],
    newReader: false,
    oldReader: false,
    options: noAnnotations,
  },
  {
    name: "draft-04 → draft-07: an inclusive maximum made exclusive is tighter",
    old: { $schema: draft04, type: "number", maximum: 10, exclusiveMaximum: false },
    new: { $schema: draft07, type: "number", exclusiveMaximum: 10 },
    kinds: ["bound-tightened"],
    newReader: true,
    oldReader: false,
    options: noAnnotations,
  },
  {
    name: "draft-04 exclusiveMinimum: true → false is looser",
    old: { $schema: draft04, type: "number", minimum: 0, exclusiveMinimum: true },
    new: { $schema: draft04, type: "number", minimum: 0, exclusiveMinimum: false },
    kinds: ["bound-loosened"],
    newReader: false,
    oldReader: true,
  },
  {
    name: "2019-09 $recursiveRef → 2020-12 $ref",
    old: { $schema: draft2019, $recursiveAnchor: true, type: "object", properties: { children: { type: "array", items: { $recursiveRef: "#" } } } },
    new: { $schema: draft2020, type: "object", properties: { children: { type: "array", items: { $ref: "#" } } } },
    kinds: [],
    newReader: false,
    oldReader: false,
    options: noAnnotations,
  },
  {
    // babelrc.json, SchemaStore 0af46d8: the options moved into a definition, `env` beside it in an allOf.
    // (OLD has the definition too, so that swapping the two does not remove it.)
    name: "properties moved into an allOf entry's $ref'd definition ≡ the properties in place",
    old: { ...obj({ ast: { type: "boolean" }, env: { type: "object" } }), definitions: { Options: obj({ ast: { type: "boolean" } }) } },
    new: { type: "object", definitions: { Options: obj({ ast: { type: "boolean" } }) }, allOf: [{ $ref: "#/definitions/Options" }, { properties: { env: { type: "object" } } }] },
    kinds: ["conjunct-added", "property-removed"],
    newReader: false,
    oldReader: false,
  },
  {
    // The same move, with a property the definition types differently: the entry restricts, and that is the flag.
    name: "an added allOf entry that refuses a document OLD accepted: tighter",
    old: { ...obj({ ast: { type: "boolean" }, env: { type: "object" } }), definitions: { Options: obj({ ast: { type: "string" } }) } },
    new: { type: "object", definitions: { Options: obj({ ast: { type: "string" } }) }, allOf: [{ $ref: "#/definitions/Options" }, { properties: { env: { type: "object" } } }] },
    kinds: ["property-removed", "type-changed"],
    newReader: true,
    oldReader: false,
  },
  {
    name: "draft-07 #/definitions/x → 2020-12 #/$defs/x",
    old: { $schema: draft07, definitions: { x: str }, properties: { a: { $ref: "#/definitions/x" } } },
    new: { $schema: draft2020, $defs: { x: str }, properties: { a: { $ref: "#/$defs/x" } } },
    kinds: [],
    newReader: false,
    oldReader: false,
    options: noAnnotations,
  },
];

describe("diffSchemas: rewrites that accept the same documents", () => {
  it.each(rows)("$name", (row) => expectRow(row, "draft-07"));

  it.each(rows)("$name: swapping OLD and NEW swaps the directions", (row) => expectSwapped(row, "draft-07"));

  it("reports a change in a moved node where the file has it", () => {
    // The sibling `items` moved into the allOf form; its change is still at /properties/t/items.
    const report = diffSchemas(
      { definitions: { types }, properties: { t: { $ref: "#/definitions/types", items: { enum: ["a"] } } } },
      { definitions: { types }, properties: { t: { allOf: [{ $ref: "#/definitions/types" }], items: { enum: ["a", "b"] } } } },
      { dialect: "draft-07" },
    );
    expect(report.changes.map((c) => [c.kind, c.pointerOld, c.pointerNew])).toEqual([["enum-value-added", "/properties/t/items/enum", "/properties/t/items/enum"]]);
  });

  it("asks whether an added allOf entry is implied once: `$ref: B` against an allOf of two other $refs terminates", () => {
    // `$ref: B` is read as `allOf: [{$ref: B}]`, whose entry is then asked against the whole OLD, which is that allOf again.
    const definitions = { A: obj({ a: str }), B: obj({ b: str }), C: obj({ c: str }) };
    const report = diffSchemas({ definitions, allOf: [{ $ref: "#/definitions/A" }, { $ref: "#/definitions/C" }] }, { definitions, $ref: "#/definitions/B" }, { dialect: "draft-07" });
    expect(report.changes.map((c) => c.kind).sort()).toEqual(["conjunct-added", "conjunct-removed", "conjunct-removed"]);
  });

  it("reports a required name gathered from an allOf entry where it is written", () => {
    const report = diffSchemas(obj({ a: str }), { ...obj({ a: str }), allOf: [{ required: ["a"] }] }, { dialect: "draft-07" });
    expect(report.changes.map((c) => [c.kind, c.pointerNew])).toEqual([["required-added", "/allOf/0/required"]]);
  });

  it("reads a $ref to an array (not a schema) as ajv does: a schema without keywords, with a note saying so", () => {
    // tslint.json, SchemaStore fe3e34c: `additionalItems` $ref'd a tuple's item list, then an allOf of its two items.
    const options = { type: "array", items: [{ type: "string", enum: ["dev", "optional"] }, { type: "array" }] };
    const root = "#/definitions/options/items";
    const report = diffSchemas(
      { definitions: { options }, type: "array", items: [{ type: "boolean" }], additionalItems: { $ref: root } },
      { definitions: { options }, type: "array", items: [{ type: "boolean" }], additionalItems: { allOf: [{ $ref: `${root}/0` }, { $ref: `${root}/1` }] } },
      { dialect: "draft-07" },
    );
    // OLD accepted any extra item; NEW accepts none (no value is a string and an array): tighter only.
    expect(report.summary.breakingForOldReader).toBe(0);
    expect(report.summary.breakingForNewReader).toBeGreaterThan(0);
    // Read as `{}`, the removed entry restricted nothing: no conjunct-removed for old readers.
    expect(report.changes.map((c) => c.kind).sort()).toEqual(["enum-added", "type-narrowed", "type-narrowed"]);
    // A $ref moved off the array says how the array was read.
    const moved = diffSchemas(
      { definitions: { options }, type: "array", items: [{ type: "boolean" }], additionalItems: { $ref: root } },
      { definitions: { options }, type: "array", items: [{ type: "boolean" }], additionalItems: { $ref: `${root}/1` } },
      { dialect: "draft-07" },
    );
    expect(moved.summary.breakingForOldReader).toBe(0);
    expect(moved.changes.find((c) => c.kind === "ref-changed")?.message).toContain(`"${root}" points at an array, not a schema, which ajv (and so the generated validators) reads as {}`);
  });

  it("adds no document OLD refused by a union branch when OLD's union has a branch that accepts anything", () => {
    // tslint.json, SchemaStore fe3e34c: `oneOf: [options, {$ref to an array}]` became `oneOf: [options, item 0, item 1]`.
    const options = { type: "array", items: [{ type: "string", enum: ["dev", "optional"] }, { type: "array" }], maxItems: 3 };
    const root = "#/definitions/options";
    const report = diffSchemas(
      { definitions: { options }, properties: { o: { oneOf: [{ $ref: root }, { $ref: `${root}/items` }] } } },
      { definitions: { options }, properties: { o: { oneOf: [{ $ref: root }, { $ref: `${root}/items/0` }, { $ref: `${root}/items/1` }] } } },
      { dialect: "draft-07" },
    );
    // A document only an added branch matches is not an `options` array, so OLD's open branch alone matched it.
    expect(report.changes.filter((c) => c.breaking.forOldReader)).toEqual([]);
    expect(report.changes.filter((c) => c.kind === "branch-added").map((c) => c.breaking.forNewReader)).toEqual([false, false]);
    // With a second closed branch that NEW drops, a document matching it and an added branch is no longer refused by OLD's oneOf alone: still flagged.
    const wider = diffSchemas(
      { definitions: { options }, properties: { o: { oneOf: [{ $ref: root }, { type: "string" }, {}] } } },
      { definitions: { options }, properties: { o: { oneOf: [{ $ref: root }, { type: "number" }, { enum: ["dev"] }] } } },
      { dialect: "draft-07" },
    );
    expect(wider.summary.breakingForOldReader).toBeGreaterThan(0);
  });

  it("a widened anyOf branch is no break when another branch of OLD already held all of it", () => {
    // stylelintrc.json, SchemaStore a3795b4: `{type: "string", enum: [{}]}` (no string is `{}`) lost its enum
    // beside a branch that accepts any string.
    const core = { properties: { severity: { enum: ["warning", "error"] } } };
    const items = (first: unknown) => ({ type: ["string", "object"], anyOf: [first, { $ref: "#/definitions/core" }] });
    const report = diffSchemas(
      { definitions: { core }, type: "array", items: items({ type: "string", enum: [{}] }) },
      { definitions: { core }, type: "array", items: items({ type: "string" }) },
      { dialect: "draft-07" },
    );
    expect(report.summary).toMatchObject({ breakingForNewReader: 0, breakingForOldReader: 0 });
    // Without the other branch holding the strings, the widening is a break for old readers.
    const alone = diffSchemas(
      { definitions: { core }, type: "array", items: { anyOf: [{ type: "string", enum: [{}] }, { type: "object", $ref: "#/definitions/core" }] } },
      { definitions: { core }, type: "array", items: { anyOf: [{ type: "string" }, { type: "object", $ref: "#/definitions/core" }] } },
      { dialect: "draft-07" },
    );
    expect(alone.summary.breakingForOldReader).toBeGreaterThan(0);
  });
});
