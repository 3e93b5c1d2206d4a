import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diffSchemas } from "@flowspec/schema-diff";
import { corpusDir, repoRoot } from "../../../test/support.js";

const agentsJson = corpusDir("agents-json");
const canonicalSchema = join(agentsJson, "agents_json__agentsJson.schema.json");
const variantSchema = join(agentsJson, "static__schema.agents.json");
const links = "/properties/flows/items/properties/links/items/properties";

const brief = (report: ReturnType<typeof diffSchemas>) =>
  report.changes.map((c) => ({ kind: c.kind, pointerOld: c.pointerOld, pointerNew: c.pointerNew, newReader: c.breaking.forNewReader, oldReader: c.breaking.forOldReader }));

describe("diffSchemas on real upstream changes", () => {
  it("agents.json: the facebookads branch makes link action ids required and target.actionId string-only (protocol notes §1)", () => {
    const report = diffSchemas(canonicalSchema, variantSchema, { annotations: false });
    expect(brief(report)).toEqual([
      { kind: "required-added", pointerOld: `${links}/origin/required`, pointerNew: `${links}/origin/required`, newReader: true, oldReader: false },
      { kind: "type-narrowed", pointerOld: `${links}/target/properties/actionId/type`, pointerNew: `${links}/target/properties/actionId/type`, newReader: true, oldReader: false },
      { kind: "required-added", pointerOld: `${links}/target/required`, pointerNew: `${links}/target/required`, newReader: true, oldReader: false },
    ]);
    expect(report.changes.map((c) => c.fileOld)).toEqual(Array(3).fill("agents_json__agentsJson.schema.json"));
    expect(report.changes.map((c) => c.fileNew)).toEqual(Array(3).fill("static__schema.agents.json"));
  });

  it("agents.json: the description edits are reported as annotations, breaking nothing", () => {
    const report = diffSchemas(canonicalSchema, variantSchema);
    const annotations = report.changes.filter((c) => c.kind === "annotation-changed");
    expect(annotations.map((c) => c.pointerNew)).toEqual([`${links}/origin/properties/actionId/description`, `${links}/target/properties/actionId/description`]);
    expect(annotations.every((c) => !c.breaking.forNewReader && !c.breaking.forOldReader)).toBe(true);
    expect(report.summary).toEqual({ changes: 5, breakingForNewReader: 3, breakingForOldReader: 0, breakingForCode: 0 });
  });

  it("agents.json: read the other way, the same edits break old readers of canonical documents", () => {
    const report = diffSchemas(variantSchema, canonicalSchema, { annotations: false });
    expect(report.changes.map((c) => c.kind)).toEqual(["required-removed", "type-widened", "required-removed"]);
    expect(report.summary).toEqual({ changes: 3, breakingForNewReader: 0, breakingForOldReader: 3, breakingForCode: 0 });
  });

  it.each(["stepflow", "agents-json", "apflow", "agent-service"])("schemas/%s against itself has no changes", (spec) => {
    const dir = join(repoRoot, "schemas", spec);
    expect(diffSchemas(dir, dir).changes).toEqual([]);
  });
});

describe("diffSchemas on files and folders", () => {
  const root = mkdtempSync(join(tmpdir(), "flowspec-diff-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const draft07 = "http://json-schema.org/draft-07/schema#";
  const writeText = (path: string, text: string) => {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
    return join(root, path);
  };
  const write = (path: string, json: unknown) => {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), JSON.stringify(json, null, 2));
    return join(root, path);
  };

  it("follows a file's $refs to siblings by relative path and by $id, and compares them too", () => {
    for (const [version, currency] of [["v1", ["EUR", "USD"]], ["v2", ["EUR"]]] as const) {
      write(`${version}/invoice.json`, { $schema: draft07, $id: "https://billing.example/invoice.json", type: "object", properties: { customer: { $ref: "common/customer.json" }, total: { $ref: "https://billing.example/money.json" } } });
      write(`${version}/common/customer.json`, { $schema: draft07, type: "object", properties: { id: { type: "string" } }, required: version === "v2" ? ["id"] : [] });
      write(`${version}/money.json`, { $schema: draft07, $id: "https://billing.example/money.json", type: "object", properties: { currency: { enum: currency } } });
      write(`${version}/unrelated.json`, { not: "a schema" });
    }
    const report = diffSchemas(join(root, "v1/invoice.json"), join(root, "v2/invoice.json"));
    expect(report.changes.map((c) => [c.kind, c.fileOld, c.pointerOld])).toEqual([
      ["required-added", "common/customer.json", "/required"],
      ["enum-value-removed", "money.json", "/properties/currency/enum"],
    ]);
  });

  it("pairs a folder's files by path, then by $id, and reports added and removed files", () => {
    write("f1/a.json", { $schema: draft07, $id: "https://x.example/a", type: "string" });
    write("f1/gone.json", { $schema: draft07, type: "string" });
    write("f2/renamed-a.json", { $schema: draft07, $id: "https://x.example/a", type: "string", maxLength: 3 });
    write("f2/new.json", { $schema: draft07, type: "string" });
    const report = diffSchemas(join(root, "f1"), join(root, "f2"));
    expect(report.changes.map((c) => [c.kind, c.fileOld, c.fileNew])).toEqual([
      ["bound-tightened", "a.json", "renamed-a.json"],
      ["schema-file-removed", "gone.json", "renamed-a.json"],
      ["schema-file-added", "a.json", "new.json"],
    ]);
    // The removed file's types are gone (code breaks); documents break only at the tightened bound.
    expect(report.summary).toMatchObject({ breakingForNewReader: 1, breakingForCode: 1 });
  });

  it("refuses a folder whose unchanged file $refs a definition NEW removed (codegen could not read NEW)", () => {
    for (const version of ["d1", "d2"]) {
      write(`${version}/enums.json`, { $schema: draft07, definitions: version === "d1" ? { status: { enum: ["a", "b"] } } : {} });
      write(`${version}/task.json`, { $schema: draft07, type: "object", properties: { status: { $ref: "enums.json#/definitions/status" } } });
    }
    expect(() => diffSchemas(join(root, "d1"), join(root, "d2"))).toThrow(/NEW task\.json#\/properties\/status: \$ref "enums\.json#\/definitions\/status": enums\.json has nothing at #\/definitions\/status/);
  });

  it("refuses a dangling $ref in an in-memory schema even where nothing changed", () => {
    const schema = { properties: { a: { $ref: "#/$defs/Gone" } } };
    expect(() => diffSchemas(schema, schema, { dialect: "draft-2020-12" })).toThrow(/OLD schema#\/properties\/a: \$ref "#\/\$defs\/Gone": the schema has nothing at/);
  });

  it.each([
    ["a file without $schema", () => diffSchemas(write("bad/no-dialect.json", { type: "string" }), write("bad/ok.json", { $schema: draft07 })), /no-dialect\.json: no "\$schema"/],
    ["an unsupported dialect", () => diffSchemas(write("bad/d6.json", { $schema: "http://json-schema.org/draft-06/schema#" }), write("bad/ok2.json", { $schema: draft07 })), /draft-06.*does not read/],
    ["a missing file", () => diffSchemas(join(root, "nope.json"), join(root, "nope.json")), /OLD .*nope\.json: cannot read: ENOENT/],
    ["a file with a JSON syntax error", () => diffSchemas(writeText("bad/syntax.json", '{\n  "$schema": "x",\n  "type": \n}\n'), write("bad/ok4.json", { $schema: draft07 })), /syntax\.json:4:1: not valid JSON: Unexpected token '\}'$/],
    ["a folder file with a JSON syntax error", () => diffSchemas((write("f1/invoice.json", { $schema: draft07 }), join(root, "f1")), (writeText("f2/invoice.json", '{\n  "type": "object",,\n}'), join(root, "f2"))), /invoice\.json:2:20: not valid JSON: Expected double-quoted property name$/],
    ["a $ref to nowhere", () => diffSchemas(write("bad/ref.json", { $schema: draft07, $ref: "missing.json" }), write("bad/ok3.json", { $schema: draft07 })), /OLD ref\.json#: \$ref "missing\.json" points to .*missing\.json, which is no schema file/],
    ["a $ref to a missing pointer", () => diffSchemas({ $ref: "#/$defs/X" }, {}, { dialect: "draft-2020-12" }), /OLD schema#: \$ref "#\/\$defs\/X": the schema has nothing at #\/\$defs\/X/],
    ["a file against a folder", () => diffSchemas(join(root, "v1/invoice.json"), join(root, "v2")), /OLD .*invoice\.json is a file and NEW .*v2 is a folder: compare a file with a file, or a folder with a folder/],
    ["a folder against a file", () => diffSchemas(join(root, "v1"), join(root, "v2/invoice.json")), /OLD .*v1 is a folder and NEW .*invoice\.json is a file/],
    ["an in-memory schema without a dialect", () => diffSchemas({ type: "string" }, { type: "string" }), /OLD: no "\$schema".*or pass the dialect option/],
  ])("refuses %s with a message naming where", (_name, run, message) => {
    expect(run).toThrow(message);
  });
});

describe("diffSchemas on schema objects", () => {
  it("sees edits a caller makes between two runs on the same objects", () => {
    const before = { type: "object", properties: { a: { type: "string" } } };
    const after = structuredClone(before);
    expect(diffSchemas(before, after, { dialect: "draft-07" }).changes).toEqual([]);
    after.properties.a.type = "number";
    expect(diffSchemas(before, after, { dialect: "draft-07" }).changes.map((c) => c.kind)).toEqual(["type-changed"]);
  });
});

describe("diffSchemas with a relative root $id", () => {
  const dir = mkdtempSync(join(tmpdir(), "flowspec-diff-relid-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it("resolves $refs against the file (a relative $id is relative to it) and reports the change", () => {
    const schema = (minLength: number) =>
      JSON.stringify({ $schema: "http://json-schema.org/draft-07/schema#", $id: "item.json", type: "object", properties: { id: { $ref: "#/definitions/ItemId" } }, definitions: { ItemId: { type: "string", minLength } } });
    writeFileSync(join(dir, "old.json"), schema(1));
    writeFileSync(join(dir, "new.json"), schema(3));
    const report = diffSchemas(join(dir, "old.json"), join(dir, "new.json"));
    expect(report.changes.map((c) => [c.kind, c.pointerNew])).toEqual([["bound-tightened", "/definitions/ItemId/minLength"]]);
  });
});
