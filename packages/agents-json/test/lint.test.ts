import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lintAgentsJson, LINT_RULES, load, loadSources, type SourceResolver } from "@flowspec/agents-json";
import { corpusDir } from "../../../test/support.js";

const resendSpec = join(corpusDir("agents-json"), "agents_json__resend__openapi.yaml");

const doc = (links: unknown[], extra: Record<string, unknown> = {}) => ({
  agentsJson: "0.1.0",
  info: { title: "T", version: "1.0.0", description: "d" },
  sources: [{ id: "resend", path: "https://example.com/openapi.yaml" }],
  flows: [
    {
      id: "mail_flow",
      title: "Mail",
      description: "Send mail",
      actions: [
        { id: "get_email", sourceId: "resend", operationId: "resend_get_emails_by_email_id" },
        { id: "send", sourceId: "resend", operationId: "resend_post_emails" },
      ],
      links,
      fields: { parameters: [{ name: "email_id", type: "string", required: true }], requestBody: { content: { "application/json": { schema: { type: "object", properties: { to: { type: "string" } } } } } }, responses: { success: {} } },
    },
  ],
  ...extra,
});
const ok = [
  { origin: { actionId: "mail_flow", fieldPath: "parameters.email_id" }, target: { actionId: "get_email", fieldPath: "parameters.email_id" } },
  { origin: { actionId: "mail_flow", fieldPath: "requestBody" }, target: { actionId: "send", fieldPath: "requestBody" } },
];
const codes = async (input: object, options = {}) => (await lintAgentsJson(input, options)).findings.map((d) => `${d.severity} ${d.code} ${d.path}`);

describe("lintAgentsJson rules without corpus findings", () => {
  it("a clean document has no findings", async () => {
    expect(await codes(doc(ok))).toEqual([]);
  });

  it.each([
    ["link-action-defined", { origin: { actionId: "nope", fieldPath: "responses.success.id" }, target: { actionId: "send", fieldPath: "requestBody.to" } }, "error link-action-defined /flows/0/links/2/origin/actionId"],
    ["link-order", { origin: { actionId: "send", fieldPath: "responses.success.id" }, target: { actionId: "get_email", fieldPath: "parameters.email_id" } }, "error link-order /flows/0/links/2"],
    ["flow-input-declared (parameter)", { origin: { actionId: "mail_flow", fieldPath: "parameters.other" }, target: { actionId: "send", fieldPath: "requestBody.to" } }, "warning flow-input-declared /flows/0/links/2/origin/fieldPath"],
    ["flow-input-declared (body)", { origin: { actionId: "mail_flow", fieldPath: "requestBody.cc" }, target: { actionId: "send", fieldPath: "requestBody.to" } }, "warning flow-input-declared /flows/0/links/2/origin/fieldPath"],
    ["link-target-root", { origin: { actionId: "mail_flow", fieldPath: "parameters.email_id" }, target: { actionId: "send", fieldPath: "headers.x" } }, "error link-target-root /flows/0/links/2/target/fieldPath"],
    ["link-responses-success", { origin: { actionId: "get_email", fieldPath: "responses.id" }, target: { actionId: "send", fieldPath: "requestBody.to" } }, "error link-responses-success /flows/0/links/2/origin/fieldPath"],
    ["link-action-null", { origin: { actionId: null, fieldPath: "parameters.email_id" }, target: { actionId: "send", fieldPath: "requestBody.to" } }, "info link-action-null /flows/0/links/2/origin/actionId"],
  ])("%s", async (_name, link, expected) => {
    expect(await codes(doc([...ok, link]))).toContain(expected);
  });

  it("reports integral override values and operation-resolved problems against the source", async () => {
    const overrides = [
      { sourceId: "resend", operationId: "resend_post_emails", fieldPath: "summary", value: "x" },
      { sourceId: "resend", operationId: "no_such_operation", fieldPath: "summary", value: 3 },
      { sourceId: "other", operationId: "x", fieldPath: "summary", value: "x" },
    ];
    const input = doc(ok, { overrides });
    input.flows[0]!.actions.push({ id: "gone", sourceId: "resend", operationId: "resend_missing" });
    const found = await codes(input, { resolver: { map: { resend: resendSpec } } });
    expect(found).toEqual(
      expect.arrayContaining([
        "warning override-integer-value /overrides/1/value",
        "error operation-resolved /overrides/1",
        "error operation-resolved /overrides/2/sourceId",
        "error operation-resolved /flows/0/actions/2/operationId",
      ]),
    );
    expect(found).toContain("error operation-resolved /overrides/1");
  });

  it("reports every failing override of a source, and still runs the other src rules", async () => {
    const overrides = [
      { sourceId: "resend", operationId: "resend_post_emails", fieldPath: "summary.x", value: "through a string" },
      { sourceId: "resend", operationId: "resend_post_emails", fieldPath: "description", value: "fine" },
      { sourceId: "resend", operationId: "gone", fieldPath: "summary", value: "x" },
    ];
    const found = await codes(doc(ok, { overrides }), { resolver: { map: { resend: resendSpec } } });
    expect(found).toEqual(["error operation-resolved /overrides/0", "error operation-resolved /overrides/2"]);
  });

  it("reports a source that cannot be loaded under operation-resolved", async () => {
    expect(await codes(doc(ok), { resolver: { map: { resend: "/nonexistent/openapi.yaml" } } })).toEqual(["error operation-resolved /sources/0/path"]);
  });

  it("lets parameterDefaults feed required parameters", async () => {
    const input = doc([ok[1]!]);
    const without = await codes(input, { resolver: { map: { resend: resendSpec } }, severities: { "flow-input-unused": "off" } });
    expect(without).toEqual(["warning operation-required-inputs /flows/0/actions/0"]);
    expect(await codes(input, { resolver: { map: { resend: resendSpec } }, severities: { "flow-input-unused": "off" }, parameterDefaults: { resend: { email_id: "e" } } })).toEqual([]);
  });

  it("knows every rule of §7, and the two $ref rules of fields schemas", () => {
    expect(Object.keys(LINT_RULES)).toHaveLength(26);
  });
});

describe("lintAgentsJson: bad options and sources are reported, not dropped", () => {
  it("refuses a severity that is not error, warning, info or off, naming the rule", async () => {
    // A typo must not turn an error rule into something that neither fails the run nor counts.
    await expect(lintAgentsJson(doc(ok), { severities: { "id-unique": "eror" as never } })).rejects.toThrow(/severities\["id-unique"\]: "eror" is not one of error, warning, info, off/);
  });

  it("refuses a rule id it does not know", async () => {
    await expect(lintAgentsJson(doc(ok), { severities: { "id-uniqe": "off" } as never })).rejects.toThrow(/severities: unknown rule "id-uniqe"/);
  });

  it("refuses a mode other than strict or compat, here and in load()", async () => {
    await expect(lintAgentsJson(doc(ok), { mode: "Strict" as never })).rejects.toThrow(/mode must be "strict" or "compat", not "Strict"/);
    expect(() => load(doc(ok), { mode: "loose" as never })).toThrow(/mode must be "strict" or "compat", not "loose"/);
  });

  it("reports a source missing from the sources passed in, as the plan check does", async () => {
    const input = doc(ok);
    input.sources.push({ id: "other", path: "other.yaml" });
    input.flows[0]!.actions.push({ id: "elsewhere", sourceId: "other", operationId: "x" });
    const sources = await loadSources(load(input), { resolver: { map: { resend: resendSpec } }, only: ["resend"] });
    expect(await codes(input, { sources, severities: { "flow-input-unused": "off" } })).toEqual(["error operation-resolved /sources/1/path"]);
  });

  it("a resolver that throws something other than an Error is reported under operation-resolved", async () => {
    const resolver = { read: () => Promise.reject("offline") } as unknown as SourceResolver;
    expect(await codes(doc(ok), { resolver })).toEqual(["error operation-resolved /sources/0/path"]);
    const sources = await loadSources(load(doc(ok)), { resolver });
    expect(sources.get("resend")).toBeInstanceOf(Error);
    expect((sources.get("resend") as Error).message).toMatch(/offline/);
  });

  it.each([
    ["a UNC path", "\\\\server\\share\\openapi.yaml", true],
    ["a Windows drive path", "C:\\specs\\openapi.yaml", true],
    ["a POSIX path", "/srv/openapi.yaml", true],
    ["a relative path", "specs/openapi.yaml", false],
    ["a URL", "https://example.com/openapi.yaml", false],
  ])("source-path-portable: %s", async (_name, path, reported) => {
    const input = doc(ok);
    input.sources[0]!.path = path;
    expect((await codes(input)).includes("warning source-path-portable /sources/0/path")).toBe(reported);
  });
});

describe("lint: $refs in fields schemas (tool export refuses them)", () => {
  const withBody = (schema: unknown, extra: Record<string, unknown> = {}) => {
    const d = doc(ok, extra);
    d.flows[0]!.fields.requestBody = { content: { "application/json": { schema } } } as never;
    return d;
  };

  it("a #/components/schemas/… the document does not define is an error at the $ref, with file:line:column", async () => {
    const text = JSON.stringify(withBody({ type: "object", properties: { to: { $ref: "#/components/schemas/Recipient" } } }), null, 2);
    const report = await lintAgentsJson(text, { file: "mail.json" });
    const finding = report.findings.find((d) => d.code === "fields-ref-defined");
    expect(finding).toMatchObject({
      severity: "error",
      path: "/flows/0/fields/requestBody/content/application~1json/schema/properties/to/$ref",
      message: '$ref "#/components/schemas/Recipient" names nothing in this document',
      file: "mail.json",
    });
    const line = text.split("\n").findIndex((l) => l.includes('"$ref"')) + 1;
    expect([finding!.line, finding!.column]).toEqual([line, text.split("\n")[line - 1]!.indexOf('"#/') + 1]);
    expect(report.ok).toBe(false);
  });

  it("a $ref the document defines, or one to another document, is a warning: fields schemas must be self-contained", async () => {
    const defined = withBody({ type: "array", items: { $ref: "#/components/schemas/Recipient" } }, { components: { schemas: { Recipient: { type: "string" } } } });
    expect(await codes(defined)).toEqual(["warning fields-self-contained /flows/0/fields/requestBody/content/application~1json/schema/items/$ref"]);
    expect(await codes(withBody({ $ref: "other.json#/Recipient" }))).toEqual(["warning fields-self-contained /flows/0/fields/requestBody/content/application~1json/schema/$ref"]);
  });

  it("finds them in responses and in compat parameter keys too, at any depth", async () => {
    const d = doc(ok);
    d.flows[0]!.fields.responses = { success: { $ref: "#/nowhere" } } as never;
    (d.flows[0]!.fields.parameters[0] as Record<string, unknown>).items = { $ref: "#/nowhere/either" };
    expect((await codes(d)).filter((c) => c.includes("fields-"))).toEqual([
      "error fields-ref-defined /flows/0/fields/parameters/0/items/$ref",
      "error fields-ref-defined /flows/0/fields/responses/success/$ref",
    ]);
    let deep: Record<string, unknown> = { $ref: "#/missing" };
    for (let i = 0; i < 200; i++) deep = { type: "array", items: deep };
    const report = await lintAgentsJson(withBody(deep));
    expect(report.findings.filter((f) => f.code === "fields-ref-defined")).toHaveLength(1);
  });
});
