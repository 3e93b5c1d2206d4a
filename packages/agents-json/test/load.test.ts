import { describe, expect, it } from "vitest";
import { DocumentParseError } from "@flowspec/runtime";
import { AgentsJsonLoadError, inspectAgentsJson, load, NotAgentsJsonError, readPath, splitFieldPath, writePath } from "@flowspec/agents-json";

const base = () => ({
  agentsJson: "0.1.0",
  info: { title: "T", version: "1.0.0", description: "d" },
  sources: [{ id: "crm", path: "crm.yaml" }],
  flows: [
    {
      id: "get_flow",
      title: "Get",
      description: "Get a thing",
      actions: [{ id: "get", sourceId: "crm", operationId: "get_contact" }],
      links: [
        { origin: { actionId: null, fieldPath: "parameters.id" }, target: { actionId: "get", fieldPath: "query.id" } },
        { origin: { actionId: "get", fieldPath: "response.name" }, target: { fieldPath: "responses.success.name" } },
      ],
      fields: { parameters: [{ name: "id", type: "string", required: true }], requestBody: null, responses: { success: {} } },
    },
  ],
});

const codes = (input: object, mode: "strict" | "compat" = "compat") => inspectAgentsJson(input, { mode }).diagnostics.map((d) => `${d.severity} ${d.code} ${d.path}`);

describe("load", () => {
  it("builds the normalised view (§2.4)", () => {
    const loaded = load(base());
    const flow = loaded.document.flows[0]!;
    expect(flow.links.map((l) => [l.origin, l.target])).toEqual([
      [{ actionId: "get_flow", fieldPath: "parameters.id" }, { actionId: "get", fieldPath: "parameters.id" }],
      [{ actionId: "get", fieldPath: "responses.success.name" }, { actionId: "get_flow", fieldPath: "responses.success.name" }],
    ]);
    expect("requestBody" in flow.fields).toBe(false);
    expect(loaded.raw.flows[0]!.fields.requestBody).toBeNull();
    expect(codes(base())).toEqual([
      "warning request-body-null /flows/0/fields/requestBody",
      "warning link-target-root /flows/0/links/0/target/fieldPath",
      "warning link-origin-root /flows/0/links/1/origin/fieldPath",
    ]);
  });

  it("turns absent links into [] and drops additionalProperties keys and {} bodies", () => {
    const doc = { ...base(), additionalProperties: true } as Record<string, unknown>;
    const flow = (doc.flows as Record<string, unknown>[])[0]!;
    delete flow.links;
    flow.fields = { parameters: [], requestBody: {}, responses: { success: {} } };
    const loaded = load(doc);
    expect(loaded.document.flows[0]!.links).toEqual([]);
    expect("requestBody" in loaded.document.flows[0]!.fields).toBe(false);
    expect("additionalProperties" in loaded.document).toBe(false);
    expect(codes(doc, "strict")).toEqual(["error additional-properties-key /additionalProperties"]);
  });

  it("makes every deviation an error in strict mode, once", () => {
    expect(() => load(base(), { mode: "strict" })).toThrow(AgentsJsonLoadError);
    expect(codes(base(), "strict")).toEqual([
      "error request-body-null /flows/0/fields/requestBody",
      "error link-target-root /flows/0/links/0/target/fieldPath",
      "error link-origin-root /flows/0/links/1/origin/fieldPath",
    ]);
  });

  it("still refuses compat-tolerated parameter keys of the wrong type (D4 patch: enum array, items and properties objects)", () => {
    for (const [key, value] of [["enum", "red"], ["items", 3], ["properties", []]] as const) {
      const doc = base();
      (doc.flows[0]!.fields.parameters[0] as Record<string, unknown>)[key] = value;
      expect(() => load(doc), key).toThrow(AgentsJsonLoadError);
      expect(codes(doc)).toEqual(expect.arrayContaining([`warning parameter-extra-keys /flows/0/fields/parameters/0/${key}`, `error schema /flows/0/fields/parameters/0/${key}`]));
    }
    const fine = base();
    (fine.flows[0]!.fields.parameters[0] as Record<string, unknown>).enum = ["a", "b"];
    expect(() => load(fine)).not.toThrow();
  });

  it("reports integral override values (D2) and the spec version", () => {
    const doc = { ...base(), agentsJson: "1.0.0", overrides: [{ sourceId: "crm", operationId: "get_contact", fieldPath: "parameters.0.schema.maximum", value: 10 }] };
    expect(codes(doc)).toContain("warning override-integer-value /overrides/0/value");
    expect(codes(doc)).toContain("warning spec-version /agentsJson");
    expect(codes(doc, "strict")).toContain("error override-integer-value /overrides/0/value");
  });

  it.each([
    ["parameters..id", "fieldpath-syntax"],
    [".parameters", "fieldpath-syntax"],
    ["parameters.", "fieldpath-syntax"],
    ["parameters.filter[x", "fieldpath-syntax"],
    ["parameters.__proto__.polluted", "fieldpath-unsafe"],
  ])("fails to load a link fieldPath %s in both modes (%s)", (fieldPath, code) => {
    const doc = base();
    doc.flows[0]!.links[0]!.origin.fieldPath = fieldPath;
    for (const mode of ["strict", "compat"] as const) {
      expect(() => load(doc, { mode })).toThrow(AgentsJsonLoadError);
      expect(codes(doc, mode)).toContain(`error ${code} /flows/0/links/0/origin/fieldPath`);
    }
  });

  it("rejects a malformed override fieldPath and a malformed media-type key", () => {
    const doc = { ...base(), overrides: [{ sourceId: "crm", operationId: "x", fieldPath: "a..b", value: "v" }] } as ReturnType<typeof base> & Record<string, unknown>;
    (doc.flows[0]!.fields as Record<string, unknown>).requestBody = { content: { "not a media type": { schema: {} } } };
    expect(codes(doc)).toEqual(expect.arrayContaining(["error fieldpath-syntax /overrides/0/fieldPath", "error media-type-key /flows/0/fields/requestBody/content/not a media type"]));
  });

  it("loads YAML text with file:line:column on diagnostics", () => {
    const yaml = [
      "agentsJson: 0.1.0",
      "info: {title: T, version: 1.0.0, description: d}",
      "sources: [{id: crm, path: crm.yaml}]",
      "flows:",
      "  - id: f",
      "    title: F",
      "    description: d",
      "    actions: [{id: a, sourceId: crm, operationId: op}]",
      "    fields:",
      "      parameters: []",
      "      requestBody: null",
      "      responses: {success: {}}",
    ].join("\n");
    const loaded = load(yaml, { file: "doc.yaml" });
    expect(loaded.diagnostics).toEqual([expect.objectContaining({ code: "request-body-null", file: "doc.yaml", line: 11, column: 20 })]);
    expect(loaded.location).toBe("doc.yaml");
  });

  it("rejects other documents with NotAgentsJsonError and syntax errors with DocumentParseError", () => {
    expect(() => load({ name: "x", agents: [] })).toThrow(NotAgentsJsonError);
    expect(() => load('{"schema_version": "v1"}')).toThrow(/no "agentsJson" key/);
    expect(() => load("[1, 2]")).toThrow(NotAgentsJsonError);
    expect(() => load('{"agentsJson": ', { file: "broken.json" })).toThrow(DocumentParseError);
  });

  it("reports schema errors with their JSON Pointer", () => {
    const doc = base() as Record<string, unknown>;
    delete doc.info;
    expect(codes(doc)).toContain("error schema /info");
  });
});

describe("fieldPath grammar (§3.4–§3.6)", () => {
  it("keeps bracketed text literal", () => {
    expect(splitFieldPath("parameters.filter[search]")).toEqual({ segments: ["parameters", "filter[search]"] });
    expect(splitFieldPath("parameters.a[b.c]")).toEqual({ segments: ["parameters", "a[b.c]"] });
  });

  it("reads digits as indexes on arrays and keys on objects", () => {
    expect(readPath({ data: [{ id: 1 }] }, ["data", "0", "id"])).toEqual({ found: true, value: 1 });
    expect(readPath({ data: { "0": "x" } }, ["data", "0"])).toEqual({ found: true, value: "x" });
    expect(readPath({ data: [] }, ["data", "0", "id"], true)).toEqual({ found: false, failedAt: 0, reason: "empty" });
    expect(readPath({}, ["constructor"])).toEqual({ found: false, failedAt: 0, reason: "absent" });
  });

  it("creates containers, appends, merges and refuses holes", () => {
    const record: Record<string, unknown> = {};
    expect(writePath(record, ["to", "0"], "a@x")).toBeUndefined();
    expect(writePath(record, ["to", "1"], "b@x")).toBeUndefined();
    expect(writePath(record, ["to", "5"], "c@x")).toMatchObject({ failedAt: 1 });
    expect(writePath(record, ["meta"], { a: 1, b: { c: 1 } })).toBeUndefined();
    expect(writePath(record, ["meta"], { b: { d: 2 } })).toBeUndefined();
    expect(writePath(record, ["to", "0", "x"], 1)).toMatchObject({ failedAt: 1 });
    expect(record).toEqual({ to: ["a@x", "b@x"], meta: { a: 1, b: { c: 1, d: 2 } } });
  });

  it("never reaches Object.prototype through constructor or prototype", () => {
    const record: Record<string, unknown> = {};
    writePath(record, ["constructor", "prototype", "polluted"], true);
    writePath(record, ["prototype", "polluted"], true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(record, "constructor")).toBe(true);
    expect(splitFieldPath("__proto__.polluted")).toMatchObject({ code: "fieldpath-unsafe" });
  });

  it("writes names of Object.prototype as own data, on plain and null-prototype records", () => {
    const names = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];
    for (const prototype of [Object.prototype, null]) {
      const record = Object.create(prototype) as Record<string, unknown>;
      for (const name of names) writePath(record, [name], { kept: name });
      expect(Object.keys(record)).toEqual(names);
      for (const name of names) expect(Object.getOwnPropertyDescriptor(record, name)).toEqual({ value: { kept: name }, writable: true, enumerable: true, configurable: true });
      expect(Object.getPrototypeOf(record)).toBe(prototype);
    }
    expect(({} as Record<string, unknown>).kept).toBeUndefined();
    expect(Object.prototype.toString.call({})).toBe("[object Object]");
  });
});
