import { describe, expect, it } from "vitest";
import { diffSchemas } from "@flowspec/schema-diff";

/**
 * A typed property added to an object that allows undeclared properties rejects documents that
 * already carried the name with another value: package.json `sideEffects` (SchemaStore f4d7fd9,
 * `type: "boolean"`, widened the next day in 2a3fb60 because `"sideEffects": ["*.css"]` was in use).
 */
const draft07 = { dialect: "draft-07" } as const;
const before = { type: "object", properties: { name: { type: "string" } } };
const after = { type: "object", properties: { name: { type: "string" }, sideEffects: { type: "boolean" } } };

describe("diffSchemas: strict mode", () => {
  it("flags a typed property added to an open object as breaking new readers", () => {
    const { changes } = diffSchemas(before, after, { ...draft07, strict: true });
    expect(changes.map((c) => [c.kind, c.pointerNew, c.breaking])).toEqual([["property-added", "/properties/sideEffects", { forNewReader: true, forOldReader: false, forCode: false }]]);
    expect(changes[0]!.message).toMatch(/NEW rejects documents that already use it/);
  });

  it("flags a typed property removed from an open object as breaking old readers", () => {
    const { changes } = diffSchemas(after, before, { ...draft07, strict: true });
    expect(changes.map((c) => [c.kind, c.breaking])).toEqual([["property-removed", { forNewReader: false, forOldReader: true, forCode: false }]]);
  });

  it("in the default mode, breaks no one and says that --strict would count it", () => {
    const { changes, summary } = diffSchemas(before, after, draft07);
    expect(summary).toMatchObject({ breakingForNewReader: 0, breakingForOldReader: 0 });
    expect(changes[0]).toMatchObject({ kind: "property-added", onlyUnderStrict: true });
    expect(changes[0]!.message).toMatch(/breaking only under --strict/);
  });

  it.each([
    ["a property that allows anything", { type: "object", properties: { x: {} } }],
    ["a property an allOf branch restates from the schema around it", { type: "object", properties: { x: { type: "string" } }, allOf: [{ properties: { x: { type: "string" } } }] }],
  ])("does not flag %s", (_name, next) => {
    const old = _name.startsWith("a property that") ? { type: "object" } : { type: "object", properties: { x: { type: "string" } } };
    const { changes, summary } = diffSchemas(old, next, { ...draft07, strict: true });
    expect(summary).toMatchObject({ breakingForNewReader: 0, breakingForOldReader: 0 });
    expect(changes.some((c) => c.onlyUnderStrict)).toBe(false);
  });

  it("leaves closed objects as they were: an added property breaks old readers either way", () => {
    const closed = (properties: object) => ({ type: "object", properties, additionalProperties: false });
    const { changes } = diffSchemas(closed({}), closed({ x: { type: "boolean" } }), { ...draft07, strict: true });
    expect(changes.map((c) => c.breaking)).toEqual([{ forNewReader: false, forOldReader: true, forCode: false }]);
  });
});
