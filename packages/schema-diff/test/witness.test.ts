import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { diffSchemas, type SchemaChange } from "@flowspec/schema-diff";

/**
 * `witness`: each breaking flag gets a document that one side accepts and the other rejects, and
 * the test checks it again with a plain ajv of its own.
 */
const draft07 = "http://json-schema.org/draft-07/schema#";
const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ $schema: draft07, type: "object", properties, ...extra });
const str = { type: "string" };

const accepts = (schema: object, document: unknown) => new Ajv({ strict: false }).validate(schema, document);

/** Every breaking flag of the pair, with the document the witness search found for it. */
function witnessed(old: Record<string, unknown>, next: Record<string, unknown>, options: { strict?: boolean } = {}): { change: SchemaChange; direction: "forNewReader" | "forOldReader"; document: unknown }[] {
  const { changes } = diffSchemas(old, next, { ...options, witness: true });
  return changes.flatMap((change) =>
    (["forNewReader", "forOldReader"] as const)
      .filter((direction) => change.breaking[direction])
      .map((direction) => {
        const witness = change.witness?.[direction];
        if (!witness?.proven) throw new Error(`no witness for ${change.kind} at ${change.pointerNew} (${direction}): ${witness ? witness.reason : "none"}`);
        return { change, direction, document: witness.document };
      }),
  );
}

const rows = [
  { name: "required added", old: obj({ a: str }), new: obj({ a: str }, { required: ["a"] }), flags: 1 },
  { name: "type narrowed", old: obj({ a: { type: ["string", "number"] } }), new: obj({ a: str }), flags: 1 },
  { name: "type widened", old: obj({ a: str }), new: obj({ a: { type: ["string", "null"] } }), flags: 1 },
  { name: "enum value removed and added", old: obj({ a: { enum: ["x", "y"] } }), new: obj({ a: { enum: ["x", "z"] } }), flags: 2 },
  { name: "maximum lowered, deep in an array", old: obj({ list: { type: "array", items: obj({ n: { type: "integer", maximum: 10 } }, { required: ["n"] }) } }, { required: ["list"] }), new: obj({ list: { type: "array", items: obj({ n: { type: "integer", maximum: 5 } }, { required: ["n"] }) } }, { required: ["list"] }), flags: 1 },
  { name: "pattern added", old: obj({ a: str }), new: obj({ a: { type: "string", pattern: "^[a-z]+$" } }), flags: 1 },
  // github-action branding.icon (SchemaStore d506416): "table" added to a list of 257 icons, after the 200th.
  { name: "a value added at the end of a long enum", old: obj({ icon: { type: "string", enum: Array.from({ length: 256 }, (_, i) => `i${i}`) } }), new: obj({ icon: { type: "string", enum: [...Array.from({ length: 256 }, (_, i) => `i${i}`), "table"] } }), flags: 1 },
  // stylelint declaration-empty-line-before (SchemaStore 412bb3d): a pair of unique items, an option object among them.
  {
    name: "a value added deep in an options object of a unique pair",
    old: obj({ rule: { type: "array", minItems: 2, maxItems: 2, uniqueItems: true, items: { anyOf: [{ type: "string", enum: ["always", "never"] }, obj({ ignore: { type: "array", items: { enum: ["a"] } } })] } } }),
    new: obj({ rule: { type: "array", minItems: 2, maxItems: 2, uniqueItems: true, items: { anyOf: [{ type: "string", enum: ["always", "never"] }, obj({ ignore: { type: "array", items: { enum: ["a", "b"] } } })] } } }),
    flags: 1,
  },
  { name: "pattern alternative added inside a oneOf", old: obj({ pm: { oneOf: [{ type: "string", pattern: "(npm|yarn)@\\d+" }, { type: "integer" }] } }), new: obj({ pm: { oneOf: [{ type: "string", pattern: "(npm|yarn|aube)@\\d+" }, { type: "integer" }] } }), flags: 1 },
  { name: "property added to a closed object", old: obj({ a: str }, { additionalProperties: false }), new: obj({ a: str, b: str }, { additionalProperties: false }), flags: 1 },
  { name: "a $ref'd definition made stricter", old: { ...obj({ p: { $ref: "#/definitions/P" } }), definitions: { P: obj({ x: str }) } }, new: { ...obj({ p: { $ref: "#/definitions/P" } }), definitions: { P: obj({ x: str }, { required: ["x"] }) } }, flags: 1 },
  { name: "oneOf branch removed", old: obj({ a: { oneOf: [str, { type: "array", items: str }] } }), new: obj({ a: { oneOf: [str] } }), flags: 1 },
  // babelrc 0af46d8: the options moved into `allOf: [{$ref: Options}, ...]`, and `plugins`' items became a tuple on the way.
  {
    name: "what an added allOf entry restricts, inside the definition it refers to",
    old: obj({ plugins: { type: "array", items: { type: "array", items: { type: ["string", "object"] } } }, env: { type: "object" } }),
    new: { $schema: draft07, type: "object", definitions: { Options: obj({ plugins: { type: "array", items: { type: "array", items: [str, { type: "object" }] } } }) }, allOf: [{ $ref: "#/definitions/Options" }, { properties: { env: { type: "object" } } }] },
    flags: 2,
  },
  { name: "typed property added to an open object (strict)", old: obj({ name: str }), new: obj({ name: str, sideEffects: { type: "boolean" } }), flags: 1, strict: true },
];

describe("diffSchemas: witnesses", () => {
  it.each(rows)("$name: every breaking flag has a document that shows it", (row) => {
    const found = witnessed(row.old, row.new, { strict: row.strict ?? false });
    expect(found).toHaveLength(row.flags);
    for (const { direction, document } of found) {
      const [accepting, rejecting] = direction === "forNewReader" ? [row.old, row.new] : [row.new, row.old];
      expect(accepts(accepting, document), JSON.stringify(document)).toBe(true);
      expect(accepts(rejecting, document), JSON.stringify(document)).toBe(false);
    }
  });

  it("builds the document from the root of a schema that refers back to itself", () => {
    // A `$ref: "#"` is another way into the root: the witness is still a whole document.
    const tree = (maximum: number) => obj({ n: { type: "integer", maximum }, children: { type: "array", items: { $ref: "#" } } });
    const { changes } = diffSchemas(tree(10), tree(5), { witness: true });
    expect(changes[0]!.witness?.forNewReader).toMatchObject({ proven: true, document: { n: expect.toSatisfy((n: number) => n > 5 && n <= 10) }, at: "/n" });
    expect(changes[0]!.witness?.forNewReader).not.toHaveProperty("schema");
  });

  it("uses the declared name where a property took over from additionalProperties", () => {
    // package.json engines.runtime (SchemaStore 5d5ed6c): OLD checked "runtime" as any engine, a string.
    const old = obj({ engines: obj({ node: str }, { additionalProperties: str }) });
    const next = obj({ engines: obj({ node: str, runtime: { oneOf: [obj({ name: str }, { required: ["name"] }), { type: "array" }] } }, { additionalProperties: str }) });
    const { changes } = diffSchemas(old, next, { witness: true });
    const documents = changes.flatMap((c) => [c.witness?.forNewReader, c.witness?.forOldReader]).filter((w) => w !== undefined).map((w) => (w.proven ? w.document : w.reason));
    expect(documents.length).toBeGreaterThan(0);
    for (const document of documents) expect(document).toMatchObject({ engines: { runtime: expect.anything() } });
  });

  it("says where the rejecting side's error is", () => {
    const { changes } = diffSchemas(obj({ a: str }), obj({ a: { type: "string", maxLength: 3 } }), { witness: true });
    expect(changes[0]!.witness?.forNewReader).toMatchObject({ proven: true, at: "/a", error: expect.stringMatching(/^\/a must NOT have more than 3 characters \(#\/properties\/a\/maxLength\)$/) });
  });

  it("marks a flag unproven when no document shows it, after a bounded number of tries", () => {
    // The two patterns match the same strings: flowspec does not decide regular-expression inclusion.
    const { changes, summary } = diffSchemas(obj({ a: { type: "string", pattern: "^a+$" } }), obj({ a: { type: "string", pattern: "^a{1,}$" } }), { witness: { tries: 50 } });
    expect(changes.map((c) => c.kind)).toEqual(["pattern-changed"]);
    for (const witness of [changes[0]!.witness?.forNewReader, changes[0]!.witness?.forOldReader]) {
      expect(witness).toMatchObject({ proven: false, reason: expect.stringMatching(/in 50 tries$/) });
    }
    expect(summary).toMatchObject({ proven: 0, unproven: 2 });
  });

  it("does not look for documents without the option", () => {
    const { changes, summary } = diffSchemas(obj({ a: str }), obj({ a: str }, { required: ["a"] }));
    expect(changes[0]!.witness).toBeUndefined();
    expect(summary.proven).toBeUndefined();
  });

  it("looks for no document for a removed definition: it breaks code (its generated type), not documents", () => {
    const { changes, summary } = diffSchemas({ $schema: draft07, definitions: { A: str } }, { $schema: draft07, definitions: {} }, { witness: true });
    expect(changes[0]).toMatchObject({ kind: "def-removed", breaking: { forNewReader: false, forOldReader: false, forCode: true } });
    expect(changes[0]!.witness).toBeUndefined();
    expect(summary).toMatchObject({ breakingForCode: 1, proven: 0, unproven: 0 });
  });

  it("reads draft-04 with ajv's draft-04 build: a boolean exclusiveMinimum made the bound exclusive", () => {
    const draft04 = "http://json-schema.org/draft-04/schema#";
    const { changes } = diffSchemas({ $schema: draft04, type: "number", minimum: 0 }, { $schema: draft04, type: "number", minimum: 0, exclusiveMinimum: true }, { witness: true });
    expect(changes.map((c) => [c.kind, c.witness?.forNewReader?.proven && c.witness.forNewReader.document])).toEqual([["bound-tightened", 0]]);
  });
});
