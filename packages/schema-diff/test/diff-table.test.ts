import { describe, expect, it } from "vitest";
import { diffSchemas } from "@flowspec/schema-diff";
import { expectRow, expectSwapped, type Row } from "./rows.js";


const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: "object", properties, ...extra });
const str = { type: "string" };
/** An object that a required `kind` const discriminates. */
const kind = (value: string) => obj({ kind: { const: value } }, { required: ["kind"] });
const defsAB = { A: obj({ a: str }), B: { required: ["a"] } };

const rows: Row[] = [
  { name: "identical schemas", old: obj({ a: str }), new: obj({ a: str }), kinds: [], newReader: false, oldReader: false },
  { name: "optional property added (open object)", old: obj({ a: str }), new: obj({ a: str, b: str }), kinds: ["property-added"], newReader: false, oldReader: false },
  { name: "property added to a closed object", old: obj({ a: str }, { additionalProperties: false }), new: obj({ a: str, b: str }, { additionalProperties: false }), kinds: ["property-added"], newReader: false, oldReader: true },
  { name: "property added, OLD constrained undeclared ones", old: obj({}, { additionalProperties: { type: "string" } }), new: obj({ b: { type: "number" } }, { additionalProperties: { type: "string" } }), kinds: ["property-added", "type-changed"], newReader: true, oldReader: true },
  { name: "optional property removed (open object)", old: obj({ a: str, b: str }), new: obj({ a: str }), kinds: ["property-removed"], newReader: false, oldReader: false },
  { name: "property removed from a closed object", old: obj({ a: str, b: str }, { additionalProperties: false }), new: obj({ a: str }, { additionalProperties: false }), kinds: ["property-removed"], newReader: true, oldReader: false },
  // 2020-12 closes objects with unevaluatedProperties as often as with additionalProperties.
  { name: "property removed where unevaluatedProperties is false", old: obj({ a: str, b: str }, { unevaluatedProperties: false }), new: obj({ a: str }, { unevaluatedProperties: false }), kinds: ["property-removed"], newReader: true, oldReader: false },
  { name: "property added where OLD had unevaluatedProperties false", old: obj({ a: str }, { unevaluatedProperties: false }), new: obj({ a: str, b: str }, { unevaluatedProperties: false }), kinds: ["property-added"], newReader: false, oldReader: true },
  {
    name: "property removed, still declared by an allOf entry, unevaluatedProperties false",
    old: obj({ a: str, b: str }, { allOf: [obj({ b: str })], unevaluatedProperties: false }),
    new: obj({ a: str }, { allOf: [obj({ b: str })], unevaluatedProperties: false }),
    kinds: ["property-removed"],
    newReader: false,
    oldReader: false,
  },
  { name: "required property removed", old: obj({ a: str, b: str }, { required: ["b"] }), new: obj({ a: str }), kinds: ["property-removed", "required-removed"], newReader: false, oldReader: true },
  { name: "required added", old: obj({ a: str }), new: obj({ a: str }, { required: ["a"] }), kinds: ["required-added"], newReader: true, oldReader: false },
  { name: "required removed", old: obj({ a: str }, { required: ["a"] }), new: obj({ a: str }), kinds: ["required-removed"], newReader: false, oldReader: true },
  { name: "type narrowed", old: { type: ["string", "number"] }, new: { type: "string" }, kinds: ["type-narrowed"], newReader: true, oldReader: false },
  { name: "type widened (nullable)", old: { type: "string" }, new: { type: ["string", "null"] }, kinds: ["type-widened"], newReader: false, oldReader: true },
  { name: "type replaced", old: { type: "string" }, new: { type: "number" }, kinds: ["type-changed"], newReader: true, oldReader: true },
  { name: "integer widened to number", old: { type: "integer" }, new: { type: "number" }, kinds: ["type-widened"], newReader: false, oldReader: true },
  { name: "number narrowed to integer", old: { type: "number" }, new: { type: "integer" }, kinds: ["type-narrowed"], newReader: true, oldReader: false },
  { name: "type added where any was allowed", old: {}, new: { type: "string" }, kinds: ["type-narrowed"], newReader: true, oldReader: false },
  { name: "type added that only restates the enum", old: { enum: ["a", "b"] }, new: { type: "string", enum: ["a", "b"] }, kinds: [], newReader: false, oldReader: false },
  { name: "type added that excludes an enum value", old: { enum: ["a", 1] }, new: { type: "string", enum: ["a", 1] }, kinds: ["type-narrowed"], newReader: true, oldReader: false },
  { name: "enum value removed", old: { enum: ["a", "b"] }, new: { enum: ["a"] }, kinds: ["enum-value-removed"], newReader: true, oldReader: false },
  { name: "enum value added", old: { enum: ["a"] }, new: { enum: ["a", "b"] }, kinds: ["enum-value-added"], newReader: false, oldReader: true },
  { name: "enum values swapped", old: { enum: ["a", "b"] }, new: { enum: ["a", "c"] }, kinds: ["enum-value-added", "enum-value-removed"], newReader: true, oldReader: true },
  { name: "a list replaced by a bound each listed value meets", old: { enum: ["ab", "abc"] }, new: { ...str, minLength: 1, pattern: "^a" }, kinds: ["bound-tightened", "enum-removed", "pattern-added"], newReader: false, oldReader: true },
  { name: "a list replaced by a bound a listed value misses", old: { enum: ["", "abc"] }, new: { ...str, minLength: 1 }, kinds: ["bound-tightened", "enum-removed"], newReader: true, oldReader: true },
  // stylelint booleanRule (SchemaStore a3795b4): two branches edited at once, each still the only one of its type.
  {
    name: "two union branches edited, paired by type",
    old: { type: ["null", "boolean", "array"], oneOf: [{ type: "null" }, { type: "boolean", enum: [true] }, { type: "array", items: { type: "boolean", enum: [true] } }] },
    new: { type: ["null", "boolean", "array"], oneOf: [{ type: "null" }, { type: "boolean" }, { type: "array", items: { type: "boolean" } }] },
    kinds: ["enum-removed"],
    newReader: false,
    oldReader: true,
  },
  { name: "enum introduced", old: str, new: { ...str, enum: ["a"] }, kinds: ["enum-added"], newReader: true, oldReader: false },
  { name: "enum dropped", old: { ...str, enum: ["a"] }, new: str, kinds: ["enum-removed"], newReader: false, oldReader: true },
  { name: "const changed", old: { const: "v1" }, new: { const: "v2" }, kinds: ["const-changed"], newReader: true, oldReader: true },
  { name: "const introduced", old: str, new: { ...str, const: "v1" }, kinds: ["const-added"], newReader: true, oldReader: false },
  { name: "const opened into an enum", old: { const: "a" }, new: { enum: ["a", "b"] }, kinds: ["enum-value-added"], newReader: false, oldReader: true },
  { name: "additionalProperties true to false", old: obj({ a: str }, { additionalProperties: true }), new: obj({ a: str }, { additionalProperties: false }), kinds: ["additional-properties-tightened"], newReader: true, oldReader: false },
  { name: "additionalProperties false to absent", old: obj({ a: str }, { additionalProperties: false }), new: obj({ a: str }), kinds: ["additional-properties-loosened"], newReader: false, oldReader: true },
  { name: "additionalProperties schema narrowed", old: { type: "object", additionalProperties: { type: ["string", "number"] } }, new: { type: "object", additionalProperties: str }, kinds: ["type-narrowed"], newReader: true, oldReader: false },
  { name: "additionalProperties schema introduced", old: { type: "object" }, new: { type: "object", additionalProperties: str }, kinds: ["additional-properties-tightened"], newReader: true, oldReader: false },
  { name: "minimum raised", old: { type: "number", minimum: 0 }, new: { type: "number", minimum: 1 }, kinds: ["bound-tightened"], newReader: true, oldReader: false },
  { name: "maximum raised", old: { type: "number", maximum: 10 }, new: { type: "number", maximum: 20 }, kinds: ["bound-loosened"], newReader: false, oldReader: true },
  { name: "minimum made exclusive", old: { type: "number", minimum: 0 }, new: { type: "number", exclusiveMinimum: 0 }, kinds: ["bound-tightened"], newReader: true, oldReader: false },
  { name: "maximum removed", old: { type: "number", maximum: 10 }, new: { type: "number" }, kinds: ["bound-loosened"], newReader: false, oldReader: true },
  { name: "maxLength lowered", old: { type: "string", maxLength: 64 }, new: { type: "string", maxLength: 32 }, kinds: ["bound-tightened"], newReader: true, oldReader: false },
  { name: "minLength removed", old: { type: "string", minLength: 1 }, new: str, kinds: ["bound-loosened"], newReader: false, oldReader: true },
  // An absent minLength/minItems/minProperties is 0 and an absent minContains is 1: spelling out the default changes nothing.
  { name: "minLength 0 spelled out", old: str, new: { ...str, minLength: 0 }, kinds: [], newReader: false, oldReader: false },
  { name: "minContains 0 added (absent means 1)", old: { type: "array", contains: str }, new: { type: "array", contains: str, minContains: 0 }, kinds: ["bound-loosened"], newReader: false, oldReader: true },
  { name: "multipleOf 2 to 4", old: { type: "integer", multipleOf: 2 }, new: { type: "integer", multipleOf: 4 }, kinds: ["bound-tightened"], newReader: true, oldReader: false },
  { name: "multipleOf 2 to 3", old: { type: "integer", multipleOf: 2 }, new: { type: "integer", multipleOf: 3 }, kinds: ["bound-changed"], newReader: true, oldReader: true },
  { name: "minItems raised and uniqueItems added", old: { type: "array", minItems: 0 }, new: { type: "array", minItems: 1, uniqueItems: true }, kinds: ["bound-tightened"], newReader: true, oldReader: false },
  { name: "maxProperties introduced", old: { type: "object" }, new: { type: "object", maxProperties: 5 }, kinds: ["bound-tightened"], newReader: true, oldReader: false },
  { name: "pattern added", old: str, new: { ...str, pattern: "^[a-z]+$" }, kinds: ["pattern-added"], newReader: true, oldReader: false },
  { name: "pattern removed", old: { ...str, pattern: "^[a-z]+$" }, new: str, kinds: ["pattern-removed"], newReader: false, oldReader: true },
  { name: "pattern changed", old: { ...str, pattern: "^[a-z]+$" }, new: { ...str, pattern: "^[A-Z]+$" }, kinds: ["pattern-changed"], newReader: true, oldReader: true },
  // package.json packageManager (SchemaStore bc24ba579d): a package manager added to the alternation only widens.
  { name: "pattern alternative added", old: { ...str, pattern: "(npm|yarn)@\\d+" }, new: { ...str, pattern: "(npm|yarn|aube)@\\d+" }, kinds: ["pattern-changed"], newReader: false, oldReader: true },
  { name: "pattern class member dropped", old: { ...str, pattern: "^[0-9]+[kKmM]b$" }, new: { ...str, pattern: "^[0-9]+[kK]b$" }, kinds: ["pattern-changed"], newReader: true, oldReader: false },
  // jscpd maxSize (SchemaStore 9174b49): the unit became an optional group whose first alternative makes the multiplier optional.
  { name: "pattern part wrapped in an optional group that accepts at least it", old: { ...str, pattern: "^\\+?[0-9]+(\\.[0-9]+)? *[kKmMgGtTpP][bB]$" }, new: { ...str, pattern: "^\\+?[0-9]+(\\.[0-9]+)? *([kKmMgGtTpP]?[bB]|[kKmMgG])?$" }, kinds: ["pattern-changed"], newReader: false, oldReader: true },
  { name: "pattern part wrapped in a group none of whose alternatives accepts it", old: { ...str, pattern: "^[0-9]+[kK][bB]$" }, new: { ...str, pattern: "^[0-9]+([kK]|[bB])?$" }, kinds: ["pattern-changed"], newReader: true, oldReader: true },
  { name: "pattern part wrapped, but a quantifier follows it", old: { ...str, pattern: "^a[bc]+$" }, new: { ...str, pattern: "^a([bc]|d)+$" }, kinds: ["pattern-changed"], newReader: true, oldReader: true },
  { name: "pattern alternative added under a negative lookahead", old: { ...str, pattern: "^(?!(a|b)$)" }, new: { ...str, pattern: "^(?!(a|b|c)$)" }, kinds: ["pattern-changed"], newReader: true, oldReader: true },
  { name: "format added", old: str, new: { ...str, format: "uuid" }, kinds: ["format-added"], newReader: true, oldReader: false },
  { name: "format changed", old: { ...str, format: "date" }, new: { ...str, format: "date-time" }, kinds: ["format-changed"], newReader: true, oldReader: true },
  { name: "format removed", old: { ...str, format: "email" }, new: str, kinds: ["format-removed"], newReader: false, oldReader: true },
  {
    name: "$ref retargeted to a stricter definition",
    old: { $defs: { Loose: { type: ["string", "number"] }, Strict: str }, properties: { a: { $ref: "#/$defs/Loose" } } },
    new: { $defs: { Loose: { type: ["string", "number"] }, Strict: str }, properties: { a: { $ref: "#/$defs/Strict" } } },
    kinds: ["ref-changed", "type-narrowed"],
    newReader: true,
    oldReader: false,
  },
  {
    name: "$ref retargeted to an equal definition (a rename)",
    old: { $defs: { Name: str }, properties: { a: { $ref: "#/$defs/Name" } } },
    new: { $defs: { Name: str, Label: str }, properties: { a: { $ref: "#/$defs/Label" } } },
    kinds: ["def-added", "ref-changed"],
    newReader: false,
    oldReader: false,
  },
  {
    name: "$ref inlined with the same schema",
    old: { $defs: { Name: str }, properties: { a: { $ref: "#/$defs/Name" } } },
    new: { $defs: { Name: str }, properties: { a: str } },
    kinds: ["ref-changed"],
    newReader: false,
    oldReader: false,
  },
  {
    name: "shared $ref target changed is reported once, in place",
    old: { $defs: { Id: str }, properties: { a: { $ref: "#/$defs/Id" }, b: { $ref: "#/$defs/Id" } } },
    new: { $defs: { Id: { type: "string", minLength: 1 } }, properties: { a: { $ref: "#/$defs/Id" }, b: { $ref: "#/$defs/Id" } } },
    kinds: ["bound-tightened"],
    newReader: true,
    oldReader: false,
  },
  { name: "oneOf branch removed", old: { oneOf: [kind("a"), kind("b")] }, new: { oneOf: [kind("a")] }, kinds: ["branch-removed"], newReader: true, oldReader: false },
  { name: "anyOf branch added", old: { anyOf: [kind("a")] }, new: { anyOf: [kind("a"), kind("b")] }, kinds: ["branch-added"], newReader: false, oldReader: true },
  {
    name: "oneOf branch edited (matched by title)",
    old: { oneOf: [{ title: "A", type: ["string", "number"] }, { title: "B", type: "boolean" }] },
    new: { oneOf: [{ title: "B", type: "boolean" }, { title: "A", type: "string" }] },
    kinds: ["type-narrowed"],
    newReader: true,
    oldReader: false,
  },
  { name: "anyOf became oneOf (branches overlap)", old: { anyOf: [{ required: ["a"] }, { required: ["b"] }] }, new: { oneOf: [{ required: ["a"] }, { required: ["b"] }] }, kinds: ["keyword-changed"], newReader: true, oldReader: false },
  { name: "union introduced", old: {}, new: { anyOf: [{ required: ["a"] }, { required: ["b"] }] }, kinds: ["union-added"], newReader: true, oldReader: false },
  // Making a value nullable the 2020-12 way wraps it in a union whose branch still accepts every OLD value.
  { name: "nullable via anyOf added", old: obj({ a: str }), new: obj({ a: { anyOf: [str, { type: "null" }] } }), kinds: ["type-widened"], newReader: false, oldReader: true },
  { name: "nullable via anyOf removed", old: obj({ a: { anyOf: [str, { type: "null" }] } }), new: obj({ a: str }), kinds: ["type-narrowed"], newReader: true, oldReader: false },
  { name: "nullable via oneOf added", old: obj({ a: str }), new: obj({ a: { oneOf: [str, { type: "null" }] } }), kinds: ["type-widened"], newReader: false, oldReader: true },
  {
    name: "nullable $ref via anyOf",
    old: { $defs: { A: obj({}) }, properties: { a: { $ref: "#/$defs/A" } } },
    new: { $defs: { A: obj({}) }, properties: { a: { anyOf: [{ $ref: "#/$defs/A" }, { type: "null" }] } } },
    kinds: ["branch-added"],
    newReader: false,
    oldReader: true,
  },
  {
    name: "nullable $ref to a changed definition: the definition's change is reported once, in place",
    old: { $defs: { A: obj({ x: str }) }, properties: { a: { $ref: "#/$defs/A" } } },
    new: { $defs: { A: obj({ x: str }, { required: ["x"] }) }, properties: { a: { anyOf: [{ $ref: "#/$defs/A" }, { type: "null" }] } } },
    kinds: ["branch-added", "required-added"],
    newReader: true,
    oldReader: true,
  },
  {
    name: "nullable $ref to a oneOf definition",
    old: { $defs: { P: { oneOf: [obj({ k: { const: "a" } }), obj({ k: { const: "b" } })] } }, properties: { p: { $ref: "#/$defs/P" } } },
    new: { $defs: { P: { oneOf: [obj({ k: { const: "a" } }), obj({ k: { const: "b" } })] } }, properties: { p: { anyOf: [{ $ref: "#/$defs/P" }, { type: "null" }] } } },
    kinds: ["branch-added"],
    newReader: false,
    oldReader: true,
  },
  { name: "anyOf introduced with a branch that accepts everything OLD did", old: str, new: { ...str, anyOf: [{}, { maxLength: 3 }] }, kinds: ["branch-added"], newReader: false, oldReader: false },
  // oneOf rejects a document that matches two branches, so a covering branch is not enough when others overlap it.
  { name: "oneOf introduced with overlapping branches", old: str, new: { ...str, oneOf: [{}, { maxLength: 3 }] }, kinds: ["union-added"], newReader: true, oldReader: false },
  {
    name: "union branches whose $refs are spelled differently but reach the same definitions",
    old: { files: { "a.json": { oneOf: [{ $ref: "./b.json#/$defs/B1" }, { $ref: "./b.json#/$defs/B2" }] }, "b.json": { $defs: { B1: str, B2: { type: "number" } } } } },
    new: { files: { "a.json": { oneOf: [{ $ref: "b.json#/$defs/B1" }, { $ref: "b.json#/$defs/B2" }] }, "b.json": { $defs: { B1: str, B2: { type: "number" } } } } },
    kinds: [],
    newReader: false,
    oldReader: false,
  },
  // An added conjunct is reported as what it restricts (B's `required`), where that can be told.
  { name: "allOf conjunct added", old: { $defs: defsAB, allOf: [{ $ref: "#/$defs/A" }] }, new: { $defs: defsAB, allOf: [{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }] }, kinds: ["required-added"], newReader: true, oldReader: false },
  { name: "allOf conjunct removed", old: { $defs: defsAB, allOf: [{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }] }, new: { $defs: defsAB, allOf: [{ $ref: "#/$defs/A" }] }, kinds: ["conjunct-removed"], newReader: false, oldReader: true },
  // A required name moved between an allOf entry and the schema holding it is no change.
  { name: "required moved out of an allOf entry", old: { allOf: [obj({ a: str }), { required: ["a"] }] }, new: obj({ a: str }, { required: ["a"] }), kinds: [], newReader: false, oldReader: false },
  { name: "items narrowed", old: { type: "array", items: { type: ["string", "number"] } }, new: { type: "array", items: str }, kinds: ["type-narrowed"], newReader: true, oldReader: false },
  { name: "items schema introduced", old: { type: "array" }, new: { type: "array", items: str }, kinds: ["items-tightened"], newReader: true, oldReader: false },
  { name: "items schema dropped", old: { type: "array", items: str }, new: { type: "array" }, kinds: ["items-loosened"], newReader: false, oldReader: true },
  { name: "prefixItems position added to a closed tuple", old: { type: "array", prefixItems: [str], items: false }, new: { type: "array", prefixItems: [str, str], items: false }, kinds: ["tuple-item-added"], newReader: false, oldReader: true },
  { name: "prefixItems position removed, rest open", old: { type: "array", prefixItems: [str, { type: "number" }] }, new: { type: "array", prefixItems: [str] }, kinds: ["tuple-item-removed"], newReader: false, oldReader: true },
  { name: "prefixItems position narrowed", old: { type: "array", prefixItems: [{ type: ["string", "null"] }] }, new: { type: "array", prefixItems: [str] }, kinds: ["type-narrowed"], newReader: true, oldReader: false },
  {
    name: "draft-07 tuple rewritten as 2020-12 prefixItems",
    old: { $schema: "http://json-schema.org/draft-07/schema#", type: "array", items: [str], additionalItems: false },
    new: { $schema: "https://json-schema.org/draft/2020-12/schema", type: "array", prefixItems: [str], items: false },
    kinds: [],
    newReader: false,
    oldReader: false,
    options: { annotations: false },
  },
  { name: "$defs entry removed", old: { $defs: { A: str, B: str } }, new: { $defs: { A: str } }, kinds: ["def-removed"], newReader: false, oldReader: false, code: true },
  { name: "definitions entry added", old: { definitions: { A: str } }, new: { definitions: { A: str, B: str } }, kinds: ["def-added"], newReader: false, oldReader: false },
  { name: "description changed", old: { ...str, description: "a name" }, new: { ...str, description: "the name" }, kinds: ["annotation-changed"], newReader: false, oldReader: false },
  { name: "not widened (so the schema narrows)", old: { not: str }, new: { not: { type: ["string", "number"] } }, kinds: ["type-widened"], newReader: true, oldReader: false },
  { name: "nested property narrowed", old: obj({ a: obj({ b: { type: ["string", "null"] } }) }), new: obj({ a: obj({ b: str }) }), kinds: ["type-narrowed"], newReader: true, oldReader: false },
  {
    name: "recursive tree with a narrowed node",
    old: { $defs: { Node: obj({ children: { type: "array", items: { $ref: "#/$defs/Node" } }, v: { type: "number" } }) }, $ref: "#/$defs/Node" },
    new: { $defs: { Node: obj({ children: { type: "array", items: { $ref: "#/$defs/Node" } }, v: { type: "integer" } }) }, $ref: "#/$defs/Node" },
    kinds: ["type-narrowed"],
    newReader: true,
    oldReader: false,
  },
  {
    name: "recursive $ref retargeted to a structurally equal copy",
    old: { $defs: { A: obj({ next: { $ref: "#/$defs/A" } }), B: obj({ next: { $ref: "#/$defs/B" } }) }, properties: { x: { $ref: "#/$defs/A" } } },
    new: { $defs: { A: obj({ next: { $ref: "#/$defs/A" } }), B: obj({ next: { $ref: "#/$defs/B" } }) }, properties: { x: { $ref: "#/$defs/B" } } },
    kinds: ["ref-changed"],
    newReader: false,
    oldReader: false,
  },
  { name: "schema becomes false", old: obj({ a: true }), new: obj({ a: false }), kinds: ["schema-tightened"], newReader: true, oldReader: false },
  // Under the same condition, then is compared with then (and else with else).
  { name: "if/then changed", old: { if: obj({ k: { const: 1 } }), then: { required: ["a"] } }, new: { if: obj({ k: { const: 1 } }), then: { required: ["b"] } }, kinds: ["required-added", "required-removed"], newReader: true, oldReader: true },
  { name: "if changed", old: { if: obj({ k: { const: 1 } }), then: { required: ["a"] } }, new: { if: obj({ k: { const: 2 } }), then: { required: ["a"] } }, kinds: ["keyword-changed"], newReader: true, oldReader: true },
  { name: "patternProperties entry added", old: { type: "object" }, new: { type: "object", patternProperties: { "^x-": str } }, kinds: ["keyword-changed"], newReader: true, oldReader: false },
  { name: "dependentRequired name added", old: { dependentRequired: { a: ["b"] } }, new: { dependentRequired: { a: ["b", "c"] } }, kinds: ["keyword-changed"], newReader: true, oldReader: false },
  // 2020-12 split draft-07 `dependencies` into dependentRequired (names) and dependentSchemas (schemas).
  {
    name: "draft-07 dependencies (names) rewritten as 2020-12 dependentRequired",
    old: { $schema: "http://json-schema.org/draft-07/schema#", dependencies: { a: ["b"] } },
    new: { $schema: "https://json-schema.org/draft/2020-12/schema", dependentRequired: { a: ["b"] } },
    kinds: [],
    newReader: false,
    oldReader: false,
    options: { annotations: false },
  },
  {
    name: "draft-07 dependencies (schema) rewritten as 2020-12 dependentSchemas",
    old: { $schema: "http://json-schema.org/draft-07/schema#", dependencies: { a: { required: ["b"] } } },
    new: { $schema: "https://json-schema.org/draft/2020-12/schema", dependentSchemas: { a: { required: ["b"] } } },
    kinds: [],
    newReader: false,
    oldReader: false,
    options: { annotations: false },
  },
  { name: "dependent names rewritten as a dependent schema requiring them", old: { dependentRequired: { a: ["b"] } }, new: { dependentSchemas: { a: { required: ["b"] } } }, kinds: [], newReader: false, oldReader: false },
  { name: "dependent schema gains a required name", old: { dependencies: { a: ["b"] } }, new: { dependentSchemas: { a: { required: ["b", "c"] } } }, kinds: ["required-added"], newReader: true, oldReader: false },
  { name: "uninterpreted keyword changed", old: { ...str, contentSchema: str }, new: { ...str, contentSchema: { type: "number" } }, kinds: ["keyword-changed"], newReader: true, oldReader: true },
  // tslint's `min`: validators ignore a keyword no dialect defines, so no document's verdict changes.
  { name: "keyword no dialect defines added", old: { ...str, foo: 1 }, new: { ...str, foo: 2, min: 1 }, kinds: ["unknown-keyword-changed"], newReader: false, oldReader: false },
  { name: "x- extension changed", old: { ...str, "x-internal": true }, new: { ...str, "x-internal": false }, kinds: ["annotation-changed"], newReader: false, oldReader: false },
  {
    name: "in-memory folder: a file removed",
    old: { files: { "a.json": obj({ b: { $ref: "b.json" } }), "b.json": str, "c.json": str } },
    new: { files: { "a.json": obj({ b: { $ref: "b.json" } }), "b.json": str } },
    kinds: ["schema-file-removed"],
    newReader: false,
    oldReader: false,
    code: true,
  },
  {
    name: "in-memory folder: a change in a referenced file",
    old: { files: { "a.json": obj({ b: { $ref: "b.json#/$defs/B" } }), "b.json": { $defs: { B: str } } } },
    new: { files: { "a.json": obj({ b: { $ref: "b.json#/$defs/B" } }), "b.json": { $defs: { B: { enum: ["x", 1] } } } } },
    kinds: ["enum-added", "type-widened"],
    newReader: true,
    oldReader: true,
  },
];

describe("diffSchemas: the classification table", () => {
  it("has at least 40 rows", () => {
    expect(rows.length).toBeGreaterThanOrEqual(40);
  });

  it.each(rows)("$name", (row) => expectRow(row, "draft-2020-12"));

  // Removing a definition or a file breaks code (its generated type is gone); adding one breaks
  // nothing. Every other rule is about the documents accepted, so it is symmetric.
  const byName = new Set(["def-added", "def-removed", "schema-file-added", "schema-file-removed"]);
  const symmetric = rows.filter((row) => row.kinds.length > 0 && !row.kinds.some((kind) => byName.has(kind)));
  it.each(symmetric)("$name: swapping OLD and NEW swaps the directions", (row) => expectSwapped(row, "draft-2020-12"));
});

describe("diffSchemas: a $ref wrapped into a nullable union", () => {
  it("reports the definition's own change once, at the definition, and the wrapping as looser only", () => {
    const old = { $defs: { A: obj({ x: str }) }, properties: { a: { $ref: "#/$defs/A" } } };
    const next = { $defs: { A: obj({ x: str }, { required: ["x"] }) }, properties: { a: { anyOf: [{ $ref: "#/$defs/A" }, { type: "null" }] } } };
    const changes = diffSchemas(old, next, { dialect: "draft-2020-12" }).changes;
    expect(changes.filter((c) => c.kind === "required-added").map((c) => c.pointerNew)).toEqual(["/$defs/A/required"]);
    expect(changes.find((c) => c.kind === "branch-added")?.breaking).toEqual({ forNewReader: false, forOldReader: true, forCode: false });
  });
});
