import { describe, expect, it } from "vitest";
import { referenceAjv } from "./schemastore/reference.js";
import { errorAtFlag, errorPlace, flaggedProperty, flagScopes, schemaIndex, type AjvErrorLike } from "./schemastore/witness.js";

/**
 * The measure of `scripts/schemastore-diff.mjs`: a witness counts for a flag when SchemaStore's ajv
 * rejects it at the flagged place. ajv reports the errors of a `$ref`'d schema inside that schema,
 * so the measure follows the flagged place's `$ref`s, at the document place the flag is about.
 */
const draft07 = "http://json-schema.org/draft-07/schema#";

/** Whether some error of NEW (reader) or OLD (writer) on `document` lies at the flag, as the script decides it. */
function attributed(files: Record<string, Record<string, unknown>>, root: string, document: unknown, flag: { file: string; pointer: string; other?: string }): boolean {
  const copy = JSON.parse(JSON.stringify(files)) as Record<string, Record<string, unknown>>;
  const ajv = referenceAjv("draft-07", { strict: "off", unknownFormats: [], unknownKeywords: [], externalSchemas: Object.entries(copy).filter(([f]) => f !== root).map(([, json]) => json), allErrors: true, verbose: true });
  const index = schemaIndex(copy);
  const validate = ajv.compile(copy[root]!);
  expect(validate(document), "the witness must be rejected").toBe(false);
  const scopes = flagScopes(files, flag);
  const property = flaggedProperty([flag.pointer, flag.other ?? ""]);
  return (validate.errors as AjvErrorLike[]).some((error) => errorAtFlag(errorPlace(error, index, root), error, scopes, property));
}

describe("schemastore-diff measure: errors inside $ref'd schemas", () => {
  // eslintrc 11e62f6: `rules` gained `allOf: [..., {$ref: partial-eslint-plugins.json}]`; ajv
  // reports a plugin rule's wrong value at partial-eslint-plugins.json#/definitions/ruleNumber/type.
  const plugins = { $schema: draft07, $id: "https://json.schemastore.org/partial-eslint-plugins.json", definitions: { ruleNumber: { type: "integer" } }, properties: { "angular-eslint/component-class-suffix": { $ref: "#/definitions/ruleNumber" } } };
  const eslintrc = { $schema: draft07, $id: "https://json.schemastore.org/eslintrc.json", definitions: { core: { properties: { semi: { type: "integer" } } } }, type: "object", properties: { rules: { type: "object", allOf: [{ $ref: "#/definitions/core" }, { $ref: "https://json.schemastore.org/partial-eslint-plugins.json" }] } } };
  const files = { "eslintrc.json": eslintrc, "partial-eslint-plugins.json": plugins };

  it("counts an error in the schema an added allOf member refers to, and in what that refers to", () => {
    expect(attributed(files, "eslintrc.json", { rules: { "angular-eslint/component-class-suffix": "x" } }, { file: "eslintrc.json", pointer: "/properties/rules/allOf/1" })).toBe(true);
  });

  it("does not count an error of another allOf member", () => {
    expect(attributed(files, "eslintrc.json", { rules: { semi: "x" } }, { file: "eslintrc.json", pointer: "/properties/rules/allOf/1" })).toBe(false);
  });

  // github-workflow 0bfe7eb: `services`' `$ref` went from `container` to `serviceContainer` (which
  // adds `command`); OLD rejects `command` at #/definitions/container/additionalProperties.
  const container = (extra: Record<string, unknown>) => ({ type: "object", properties: { image: { type: "string" }, ...extra }, required: ["image"], additionalProperties: false });
  const workflow = {
    $schema: draft07,
    definitions: { container: container({}), normalJob: { type: "object", properties: { container: { $ref: "#/definitions/container" }, services: { type: "object", additionalProperties: { $ref: "#/definitions/container" } } } } },
    type: "object",
    properties: { jobs: { type: "object", additionalProperties: { $ref: "#/definitions/normalJob" } } },
  };
  const flag = { file: "github-workflow.json", pointer: "/definitions/normalJob/properties/services/additionalProperties/$ref" };

  it("counts an error in the old target of a changed $ref, where the document reaches the $ref", () => {
    expect(attributed({ "github-workflow.json": workflow }, "github-workflow.json", { jobs: { a: { services: { db: { image: "x", command: "x" } } } } }, flag)).toBe(true);
  });

  it("does not count an error in the same target reached from elsewhere in the document", () => {
    // The job's own `container` uses the same definition: that rejection is not the services' $ref.
    expect(attributed({ "github-workflow.json": workflow }, "github-workflow.json", { jobs: { a: { container: { image: "x", command: "x" } } } }, flag)).toBe(false);
  });
});
