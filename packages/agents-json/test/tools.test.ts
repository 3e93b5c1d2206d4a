import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatchToolCalls, exportTools, flowsPrompt, load, parseToolCalls, ToolExportError } from "@flowspec/agents-json";
import { corpusDir } from "../../../test/support.js";
import { startServer } from "./support/server.js";

const dir = corpusDir("agents-json");
const corpus = (name: string) => load(readFileSync(join(dir, `agents_json__${name}__agents.json`), "utf8"));

describe("exportTools (§4.9)", () => {
  it("exports the §4.9 resend example exactly (Anthropic form)", () => {
    const [tool] = exportTools(corpus("resend"), { format: "anthropic", flows: ["resend_post_audiences_contacts_by_audience_id_flow"] });
    expect(tool).toEqual({
      name: "resend_post_audiences_contacts_by_audience_id_flow",
      description: "Adds a new contact to a specific audience.",
      input_schema: {
        type: "object",
        additionalProperties: false,
        required: ["parameters", "requestBody"],
        properties: {
          parameters: {
            type: "object",
            additionalProperties: false,
            required: ["audience_id"],
            properties: { audience_id: { type: "string", description: "Unique identifier of the audience." } },
          },
          requestBody: { type: "object", required: ["email"], properties: { email: { type: "string", description: "Email address of the contact." } } },
        },
      },
    });
  });

  it("wraps the same schema for both OpenAI APIs, one tool per flow", () => {
    const doc = corpus("giphy");
    const chat = exportTools(doc, { format: "openai-chat" });
    const responses = exportTools(doc, { format: "openai-responses" });
    const anthropic = exportTools(doc, { format: "anthropic" });
    expect(chat).toHaveLength(doc.document.flows.length);
    chat.forEach((tool, i) => {
      const a = anthropic[i] as { name: string; input_schema: unknown };
      expect(tool).toEqual({ type: "function", function: { name: a.name, description: expect.any(String), parameters: a.input_schema } });
      expect(responses[i]).toEqual({ type: "function", name: a.name, description: expect.any(String), parameters: a.input_schema });
    });
  });

  it("keeps compat keys, defaults untyped parameters to string and hides parameterDefaults names", () => {
    const doc = corpus("theodds");
    const visible = exportTools(doc, { format: "anthropic", flows: ["live_odds_scores_compound"] })[0] as unknown as { input_schema: { properties: { parameters: { properties: Record<string, unknown>; required: string[] } } } };
    expect(visible.input_schema.properties.parameters.required).toContain("apiKey");
    const hidden = exportTools(doc, { format: "anthropic", flows: ["live_odds_scores_compound"], parameterDefaults: { theodds: { apiKey: "k" } } })[0] as unknown as typeof visible;
    expect(Object.keys(hidden.input_schema.properties.parameters.properties)).not.toContain("apiKey");
    expect(hidden.input_schema.properties.parameters.required).not.toContain("apiKey");
    const linkup = exportTools(corpus("linkup"), { format: "anthropic" })[0] as unknown as typeof visible;
    expect(linkup.input_schema.properties.parameters.properties.depth).toMatchObject({ type: "string", enum: ["standard", "deep"] });
  });

  it("openaiStrict makes every property required and widens optional ones with null", () => {
    const [tool] = exportTools(corpus("giphy"), { format: "openai-chat", openaiStrict: true, flows: ["search_gifs_flow"] }) as unknown as [{ function: { strict: boolean; parameters: { properties: { parameters: { required: string[]; properties: Record<string, { type: unknown }> } } } } }];
    expect(tool.function.strict).toBe(true);
    const parameters = tool.function.parameters.properties.parameters;
    expect(parameters.required).toEqual(["q", "limit", "offset", "rating", "lang"]);
    expect(parameters.properties.q!.type).toBe("string");
    expect(parameters.properties.limit!.type).toEqual(["integer", "null"]);
  });

  it("converts OpenAPI schema keywords and refuses $ref and bad names", () => {
    const base = { agentsJson: "0.1.0", info: { title: "T", version: "1", description: "d" }, sources: [{ id: "s", path: "s.yaml" }] };
    const flow = (id: string, schema: Record<string, unknown>) => ({ id, title: id, description: "d", actions: [{ id: "a", sourceId: "s", operationId: "o" }], links: [], fields: { parameters: [], requestBody: { content: { "application/json": { schema } } }, responses: { success: {} } } });
    const [tool] = exportTools({ ...base, flows: [flow("f", { type: "object", properties: { n: { type: "integer", format: "int64", nullable: true, example: 3 }, k: { oneOf: [{ type: "string" }], discriminator: { propertyName: "x" } } } })] }, { format: "anthropic" }) as unknown as [{ input_schema: { properties: { requestBody: unknown } } }];
    expect(tool.input_schema.properties.requestBody).toEqual({ type: "object", properties: { n: { type: ["integer", "null"], examples: [3] }, k: { anyOf: [{ type: "string" }] } } });
    expect(() => exportTools({ ...base, flows: [flow("f", { $ref: "#/x" })] }, { format: "anthropic" })).toThrow(/"\$ref" is not allowed/);
    expect(() => exportTools({ ...base, flows: [flow("has space", { type: "object" })] }, { format: "anthropic" })).toThrow(ToolExportError);
  });

  it("openaiStrict closes every object schema, also ones without properties and inside anyOf", () => {
    const base = { agentsJson: "0.1.0", info: { title: "T", version: "1", description: "d" }, sources: [{ id: "s", path: "s.yaml" }] };
    const body = { type: "object", properties: { meta: { type: "object" }, pick: { anyOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "string" }] } } };
    const doc = {
      ...base,
      flows: [{ id: "f", title: "f", description: "d", actions: [{ id: "a", sourceId: "s", operationId: "o" }], links: [], fields: { parameters: [{ name: "filter", type: "object" }], requestBody: { content: { "application/json": { schema: body } } }, responses: { success: {} } } }],
    };
    const [tool] = exportTools(doc, { format: "openai-responses", openaiStrict: true }) as unknown as [{ parameters: Record<string, unknown> }];
    const objects: Record<string, unknown>[] = [];
    const walk = (schema: unknown): void => {
      if (Array.isArray(schema)) return schema.forEach(walk);
      if (typeof schema !== "object" || schema === null) return;
      const record = schema as Record<string, unknown>;
      const type = record.type;
      if (type === "object" || (Array.isArray(type) && type.includes("object"))) objects.push(record);
      Object.values(record).forEach(walk);
    };
    walk(tool.parameters);
    expect(objects.length).toBeGreaterThanOrEqual(6);
    for (const object of objects) {
      expect(object.additionalProperties).toBe(false);
      expect(object.required ?? []).toEqual(Object.keys((object.properties as object | undefined) ?? {}));
    }
  });

  it("lists flows for a system prompt", () => {
    expect(flowsPrompt(corpus("linkup"))).toBe(`linkup_search_flow: ${corpus("linkup").document.flows[0]!.description}`);
  });
});

describe("tool calls", () => {
  const args = { parameters: { q: "cats" } };
  it.each([
    ["OpenAI Chat Completions", { role: "assistant", tool_calls: [{ id: "call_1", type: "function", function: { name: "search_gifs_flow", arguments: JSON.stringify(args) } }] }],
    ["OpenAI Responses", { output: [{ type: "message", content: [] }, { type: "function_call", call_id: "call_1", name: "search_gifs_flow", arguments: JSON.stringify(args) }] }],
    ["Anthropic", { role: "assistant", content: [{ type: "text", text: "…" }, { type: "tool_use", id: "call_1", name: "search_gifs_flow", input: args }] }],
  ])("parses %s", (_name, reply) => {
    expect(parseToolCalls(reply)).toEqual([{ id: "call_1", name: "search_gifs_flow", arguments: args }]);
  });

  it("parses a bare tool_calls array or Responses output items (not taken as already parsed calls)", () => {
    const chat = [{ id: "call_1", type: "function", function: { name: "search_gifs_flow", arguments: JSON.stringify(args) } }];
    expect(parseToolCalls(chat)).toEqual([{ id: "call_1", name: "search_gifs_flow", arguments: args }]);
  });

  it("rejects arguments that are not JSON", () => {
    expect(() => parseToolCalls({ tool_calls: [{ id: "c", function: { name: "f", arguments: "{oops" } }] })).toThrow(/not valid JSON/);
  });

  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer([(r) => (r.path === "/v1/gifs/search" ? { body: { data: [{ q: r.query.get("q") }] } } : undefined)]);
  });
  afterAll(() => server.close());

  it("dispatches calls to runFlow sequentially, keyed by tool-call id, errors as content", async () => {
    const reply = {
      role: "assistant",
      content: [
        { type: "tool_use", id: "toolu_a", name: "search_gifs_flow", input: { parameters: { q: "cats" } } },
        { type: "tool_use", id: "toolu_b", name: "search_gifs_flow", input: { parameters: { q: "dogs" } } },
        { type: "tool_use", id: "toolu_c", name: "no_such_flow", input: {} },
      ],
    };
    const results = await dispatchToolCalls(corpus("giphy"), reply, {
      resolver: { map: { giphy: join(dir, "agents_json__giphy__openapi.yaml") } },
      servers: { giphy: `${server.url}/v1` },
      parameterDefaults: { giphy: { api_key: "k" } },
    });
    expect(results.map((r) => [r.id, r.ok, r.content])).toEqual([
      ["toolu_a", true, JSON.stringify({ success: { data: [{ q: "cats" }] } })],
      ["toolu_b", true, JSON.stringify({ success: { data: [{ q: "dogs" }] } })],
      ["toolu_c", false, expect.stringMatching(/UnknownFlowError: no flow \\"no_such_flow\\"/)],
    ]);
    expect(server.received.map((r) => r.query.get("q"))).toEqual(["cats", "dogs"]);
  });

  it("dispatches OpenAI Responses output items keyed by call_id, with their JSON arguments parsed", async () => {
    const output = [{ type: "function_call", id: "fc_1", call_id: "call_1", name: "search_gifs_flow", arguments: JSON.stringify({ parameters: { q: "owls" } }) }];
    const results = await dispatchToolCalls(corpus("giphy"), output, {
      resolver: { map: { giphy: join(dir, "agents_json__giphy__openapi.yaml") } },
      servers: { giphy: `${server.url}/v1` },
      parameterDefaults: { giphy: { api_key: "k" } },
    });
    expect(results.map((r) => [r.id, r.ok, r.content])).toEqual([["call_1", true, JSON.stringify({ success: { data: [{ q: "owls" }] } })]]);
  });
});
