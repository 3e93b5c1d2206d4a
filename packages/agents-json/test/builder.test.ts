import { describe, expect, expectTypeOf, it } from "vitest";
import { agentsJson, AgentsJsonBuildError, lintAgentsJson, validateAgentsJson, validateAgentsJsonCompat, type AgentsJson } from "@flowspec/agents-json";

const info = { title: "CRM flows", version: "1.0.0", description: "Contacts" };

const crm = () =>
  agentsJson(info)
    .source("crm", "https://example.com/crm/openapi.yaml")
    .flow("get_then_update", { title: "Get then update", description: "Reads a contact, then updates it" }, (flow) =>
      flow
        .parameter("contactId", { type: "string", required: true, description: "The contact" })
        .requestBody({ schema: { type: "object", properties: { properties: { type: "object" } } }, required: true })
        .action("get", "crm", "get_contact")
        .action("update", "crm", "update_contact")
        .link({ input: "contactId" }, { action: "get", parameter: "contactId" })
        .link({ response: "get", path: "id" }, { action: "update", parameter: "contactId" })
        .link({ inputBody: "properties" }, { action: "update", body: "properties" })
        .link({ response: "update", path: "id" }, { output: "contact_id" }),
    );

describe("agentsJson builder", () => {
  it("builds a strict-valid, lint-clean document with flow ids in links (§3.7)", async () => {
    const doc = crm().build();
    expectTypeOf(doc).toEqualTypeOf<AgentsJson>();
    expect(validateAgentsJson(doc).ok).toBe(true);
    expect((await lintAgentsJson(doc, { mode: "strict" })).findings).toEqual([]);
    expect(doc.flows[0]!.links).toEqual([
      { origin: { actionId: "get_then_update", fieldPath: "parameters.contactId" }, target: { actionId: "get", fieldPath: "parameters.contactId" } },
      { origin: { actionId: "get", fieldPath: "responses.success.id" }, target: { actionId: "update", fieldPath: "parameters.contactId" } },
      { origin: { actionId: "get_then_update", fieldPath: "requestBody.properties" }, target: { actionId: "update", fieldPath: "requestBody.properties" } },
      { origin: { actionId: "update", fieldPath: "responses.success.id" }, target: { actionId: "get_then_update", fieldPath: "responses.success.contact_id" } },
    ]);
  });

  it("always emits links and never a null requestBody", () => {
    const doc = agentsJson(info)
      .source("crm", "crm.yaml")
      .flow("ping", { title: "Ping", description: "Ping" }, (flow) => flow.action("call", "crm", "ping"))
      .build();
    expect(doc.flows[0]!.links).toEqual([]);
    expect("requestBody" in doc.flows[0]!.fields).toBe(false);
  });

  it("refuses integral override values unless compat (D2)", () => {
    const builder = agentsJson(info).source("giphy", "giphy.yaml");
    expect(() => builder.override("giphy", "giphy_get_gifs_search", "parameters.2.schema.maximum", 10)).toThrow(/defect D2/);
    builder.override("giphy", "giphy_get_gifs_search", "parameters.0.required", false);
    const compat = agentsJson(info, { mode: "compat" }).source("giphy", "giphy.yaml").override("giphy", "giphy_get_gifs_search", "parameters.2.schema.maximum", 10);
    const doc = compat.flow("f", { title: "F", description: "F" }, (flow) => flow.action("a", "giphy", "giphy_get_gifs_search")).build();
    expect(validateAgentsJson(doc).ok).toBe(false);
    expect(validateAgentsJsonCompat(doc).ok).toBe(true);
  });

  it("emits enum/default/items/properties on parameters only in compat mode (D4)", () => {
    const define = (mode: "strict" | "compat") =>
      agentsJson(info, { mode })
        .source("s", "s.yaml")
        .flow("f", { title: "F", description: "F" }, (flow) => flow.parameter("rating", { type: "string", enum: ["g", "pg"] }).action("a", "s", "op").link({ input: "rating" }, { action: "a", parameter: "rating" }))
        .build();
    expect(() => define("strict")).toThrow(/defect D4/);
    expect(define("compat").flows[0]!.fields.parameters[0]).toEqual({ name: "rating", type: "string", enum: ["g", "pg"] });
  });

  it("rejects keys a fieldPath cannot address, and action ids equal to the flow id", () => {
    const builder = agentsJson(info).source("s", "s.yaml");
    expect(() => builder.flow("f", { title: "F", description: "F" }, (flow) => flow.parameter("a.b"))).toThrow(AgentsJsonBuildError);
    expect(() => builder.flow("g", { title: "F", description: "F" }, (flow) => flow.parameter("__proto__"))).toThrow(/cannot be addressed/);
    expect(() => builder.flow("h", { title: "F", description: "F" }, (flow) => flow.action("h", "s", "op"))).toThrow(/must not equal the flow id/);
    expect(() =>
      agentsJson(info).source("s", "s.yaml").flow("i", { title: "F", description: "F" }, (flow) => flow.action("a", "s", "op").link({ actionBody: "a", path: "x..y" }, { output: true })),
    ).toThrow(/empty segment/);
  });

  it("rejects link parameter names a fieldPath cannot address instead of nesting them", () => {
    const linked = (to: string, from = "x") => () =>
      agentsJson(info)
        .source("s", "s.yaml")
        .flow("f", { title: "F", description: "F" }, (flow) => flow.parameter("x").action("a", "s", "op").action("b", "s", "op").link({ actionParameter: "a", name: from }, { action: "b", parameter: to }));
    expect(linked("user.id")).toThrow(/parameter "user.id" cannot be addressed/);
    expect(linked("id", "user.id")).toThrow(/parameter "user.id" cannot be addressed/);
    expect(linked("filter[user.id]")).not.toThrow();
  });

  it("build() fails on lint errors (link order, duplicate ids)", () => {
    const outOfOrder = agentsJson(info)
      .source("s", "s.yaml")
      .flow("f", { title: "F", description: "F" }, (flow) =>
        flow
          .action("a", "s", "op")
          .action("b", "s", "op")
          .link({ response: "b" }, { action: "a", body: true }),
      );
    expect(() => outOfOrder.build()).toThrow(/link-order/);
    const twice = agentsJson(info).source("s", "s.yaml").source("s", "t.yaml").flow("f", { title: "F", description: "F" }, (flow) => flow.action("a", "s", "op"));
    expect(() => twice.build()).toThrow(/id-unique/);
  });

  it("types links by the declared actions, inputs and sources", () => {
    agentsJson(info)
      .source("s", "s.yaml")
      .flow("f", { title: "F", description: "F" }, (flow) => {
        const built = flow.parameter("q").action("a", "s", "op");
        // @ts-expect-error: "b" is not an action of this flow
        built.link({ response: "b" }, { output: true });
        // @ts-expect-error: "nope" is not a flow parameter
        built.link({ input: "nope" }, { action: "a", parameter: "q" });
        // @ts-expect-error: "other" is not a declared source
        built.action("c", "other", "op");
        return built.link({ input: "q" }, { action: "a", parameter: "q" });
      });
  });
});
