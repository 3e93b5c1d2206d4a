import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatchToolCalls, exportTools, flowsPrompt, load, parseToolCalls, ToolExportError } from "@flowspec/agents-json";
import { corpusDir } from "../../../test/support.js";
import { checkValue } from "../src/executor/check-value.js";
import { startServer } from "./support/server.js";

const dir = corpusDir("agents-json");
const corpus = (name: string) => load(readFileSync(join(dir, `agents_json__${name}__agents.json`), "utf8"));
const base = { agentsJson: "0.1.0", info: { title: "T", version: "1", description: "d" }, sources: [{ id: "s", path: "s.yaml" }] };
const bodyFlow = (id: string, schema: Record<string, unknown>) => ({ id, title: id, description: "d", actions: [{ id: "a", sourceId: "s", operationId: "o" }], links: [], fields: { parameters: [], requestBody: { content: { "application/json": { schema } } }, responses: { success: {} } } });

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

  it("refuses flows whose ids repeat, which would give two tools one name", () => {
    const history = load(readFileSync(join(dir, "history/f034290/agents_json__googlecalendar__agents.json"), "utf8"));
    expect(() => exportTools(history, { format: "openai-chat" })).toThrow(/flow id "\w+" is used by 2 flows \(indexes \d+, \d+\); tool names must be unique/);
    const doc = { ...base, flows: [bodyFlow("f", { type: "object" }), bodyFlow("g", { type: "object" }), bodyFlow("f", { type: "string" })] };
    expect(() => exportTools(doc, { format: "anthropic" })).toThrow(ToolExportError);
    expect(exportTools(doc, { format: "anthropic", flows: ["g"] })).toHaveLength(1);
  });

  it("drops a boolean required inside a schema, which JSON Schema does not allow (googlesheets)", () => {
    const [tool] = exportTools(corpus("googlesheets"), { format: "anthropic", flows: ["create_and_initialize_spreadsheet"] }) as unknown as [{ input_schema: { properties: { requestBody: { properties: { append: { required: unknown; properties: Record<string, Record<string, unknown>> } } } } } }];
    const append = tool.input_schema.properties.requestBody.properties.append;
    expect(append.required).toEqual(["range", "values"]);
    expect(append.properties.valueInputOption).not.toHaveProperty("required");
  });

  it("openaiStrict closes the branches of an object that has only anyOf, not the bare wrapper (alpaca order_place)", () => {
    const schema = { type: "object", required: ["a"], oneOf: [{ type: "object", properties: { a: { type: "string" }, b: { type: "number" } } }, { type: "object", required: ["c"], properties: { a: { type: "string" }, c: { type: "string" } } }] };
    const [tool] = exportTools({ ...base, flows: [bodyFlow("f", schema)] }, { format: "openai-responses", openaiStrict: true }) as unknown as [{ parameters: Record<string, unknown> }];
    // What a strict model sends: every property present, optional ones null.
    expect(checkValue({ requestBody: { a: "x", b: 1 } }, tool.parameters)).toEqual([]);
    expect(checkValue({ requestBody: { a: "x", c: "y" } }, tool.parameters)).toEqual([]);
    // "a" is required by the wrapper, so no branch may let the model send null for it.
    expect(checkValue({ requestBody: { a: null, b: 1 } }, tool.parameters)).not.toEqual([]);
    const [order] = exportTools(corpus("alpaca"), { format: "openai-responses", openaiStrict: true, flows: ["order_place"] }) as unknown as [{ parameters: Record<string, unknown> }];
    const body = { symbol: "AAPL", side: "buy", type: "market", time_in_force: "day", qty: 1, limit_price: null };
    expect(checkValue({ requestBody: body }, order.parameters)).toEqual([]);
  });

  it("openaiStrict lets an optional enum be null also when its type already is a list", () => {
    const schema = { type: "object", properties: { size: { type: "string", enum: ["s", "m"], nullable: true }, kind: { type: ["string", "integer"], enum: ["a", 1] }, fixed: { type: "string", const: "x" } } };
    const [tool] = exportTools({ ...base, flows: [bodyFlow("f", schema)] }, { format: "openai-chat", openaiStrict: true }) as unknown as [{ function: { parameters: Record<string, unknown> } }];
    expect(checkValue({ requestBody: { size: null, kind: null, fixed: null } }, tool.function.parameters)).toEqual([]);
    expect(checkValue({ requestBody: { size: "xl", kind: "b", fixed: null } }, tool.function.parameters)).toHaveLength(2);
    // checkValue ignores const; a type union with "null" would still not let null past it.
    const body = (tool.function.parameters.properties as Record<string, { properties: Record<string, unknown> }>).requestBody!;
    expect(body.properties.fixed).toEqual({ anyOf: [{ type: "string", const: "x" }, { type: "null" }] });
  });

  it("exports every corpus document with unique names and valid schemas, strict or not", () => {
    const files = [...readdirSync(dir).filter((f) => f.endsWith("__agents.json")), ...readdirSync(join(dir, "history")).flatMap((h) => readdirSync(join(dir, "history", h)).filter((f) => f.endsWith("__agents.json")).map((f) => join("history", h, f)))];
    expect(files.length).toBeGreaterThanOrEqual(18);
    const problems: string[] = [];
    for (const file of files) {
      const loaded = load(readFileSync(join(dir, file), "utf8"), { file });
      const ids = loaded.document.flows.map((f) => f.id);
      for (const openaiStrict of [false, true]) {
        if (new Set(ids).size !== ids.length) {
          expect(() => exportTools(loaded, { format: "openai-responses", openaiStrict })).toThrow(/is used by \d+ flows/);
          continue;
        }
        const tools = exportTools(loaded, { format: "openai-responses", openaiStrict }) as unknown as { name: string; description: string; parameters: Record<string, unknown> }[];
        expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
        for (const tool of tools) {
          const where = `${file}#${tool.name}${openaiStrict ? " (strict)" : ""}`;
          if (!/^[a-zA-Z0-9_-]{1,64}$/.test(tool.name)) problems.push(`${where}: name`);
          if (typeof tool.description !== "string" || tool.description === "") problems.push(`${where}: description`);
          if (tool.parameters.type !== "object") problems.push(`${where}: root type`);
          const walk = (schema: unknown, path: string): void => {
            if (Array.isArray(schema)) return schema.forEach((inner, i) => walk(inner, `${path}/${i}`));
            if (typeof schema !== "object" || schema === null) return;
            const s = schema as Record<string, unknown>;
            for (const key of ["$ref", "nullable", "example", "discriminator", "xml", "readOnly", "writeOnly"]) if (key in s) problems.push(`${where}${path}: ${key}`);
            if (s.type === null) problems.push(`${where}${path}: type null`);
            if ("required" in s && !(Array.isArray(s.required) && s.required.every((r) => typeof r === "string"))) problems.push(`${where}${path}: required is not a list of names`);
            if (openaiStrict && s.properties) {
              if (s.additionalProperties !== false) problems.push(`${where}${path}: open object`);
              if (JSON.stringify(s.required) !== JSON.stringify(Object.keys(s.properties as object))) problems.push(`${where}${path}: not every property required`);
            }
            if (openaiStrict && !s.properties && (s.anyOf || s.allOf) && s.additionalProperties === false) problems.push(`${where}${path}: closed object without properties next to anyOf/allOf`);
            for (const [key, value] of Object.entries(s)) {
              if (key === "properties" || key === "patternProperties") for (const [name, inner] of Object.entries(value as object)) walk(inner, `${path}/${key}/${name}`);
              else if (["items", "anyOf", "allOf", "not", "additionalProperties"].includes(key)) walk(value, `${path}/${key}`);
            }
          };
          walk(tool.parameters, "");
        }
      }
    }
    expect(problems).toEqual([]);
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

  it("dispatches already parsed calls whose arguments are still JSON text", async () => {
    const results = await dispatchToolCalls(corpus("giphy"), [{ id: "call_1", name: "search_gifs_flow", arguments: JSON.stringify({ parameters: { q: "text" } }) }], {
      resolver: { map: { giphy: join(dir, "agents_json__giphy__openapi.yaml") } },
      servers: { giphy: `${server.url}/v1` },
      parameterDefaults: { giphy: { api_key: "k" } },
    });
    expect(results.map((r) => [r.id, r.ok, r.content])).toEqual([["call_1", true, JSON.stringify({ success: { data: [{ q: "text" }] } })]]);
  });

  it("answers a call with bad JSON arguments with its own error, naming the call, and still runs the others", async () => {
    const reply = {
      role: "assistant",
      tool_calls: [
        { id: "call_bad", type: "function", function: { name: "search_gifs_flow", arguments: '{"parameters": {"q": "cu' } },
        { id: "call_ok", type: "function", function: { name: "search_gifs_flow", arguments: JSON.stringify({ parameters: { q: "ok" } }) } },
      ],
    };
    const results = await dispatchToolCalls(corpus("giphy"), reply, {
      resolver: { map: { giphy: join(dir, "agents_json__giphy__openapi.yaml") } },
      servers: { giphy: `${server.url}/v1` },
      parameterDefaults: { giphy: { api_key: "k" } },
    });
    expect(results.map((r) => [r.id, r.ok])).toEqual([["call_bad", false], ["call_ok", true]]);
    expect(results[0]!.error).toBeInstanceOf(ToolExportError);
    expect(results[0]!.content).toMatch(/ToolExportError: tool_calls\[0\] \(search_gifs_flow, id call_bad\): arguments are not valid JSON/);
    // parseToolCalls alone still refuses the whole reply.
    expect(() => parseToolCalls(reply)).toThrow(/tool_calls\[0\] \(search_gifs_flow, id call_bad\): arguments are not valid JSON \(.+\): \{"parameters"/);
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

describe("exportTools format json (the Python SDK's ToolFormat.JSON)", () => {
  it("wraps each flow's fields, as written, in an OpenAI function envelope", () => {
    const doc = corpus("theodds");
    const raw = JSON.parse(readFileSync(join(dir, "agents_json__theodds__agents.json"), "utf8"));
    const tools = exportTools(doc, { format: "json" });
    expect(tools).toHaveLength(raw.flows.length);
    expect(tools[0]).toEqual({ type: "function", function: { name: raw.flows[0].id, description: raw.flows[0].description, parameters: raw.flows[0].fields } });
  });

  it("keeps rule (f): no nulls for absent keys, parameterDefaults hide their parameters, a requestBody: null is left out", () => {
    const hubspot = load(readFileSync(join(dir, "agents_json__hubspotcontacts__agents.json"), "utf8"));
    const withNullBody = hubspot.raw.flows.findIndex((f) => (f.fields as { requestBody?: unknown }).requestBody === null);
    expect(withNullBody).toBeGreaterThanOrEqual(0);
    const tool = exportTools(hubspot, { format: "json" })[withNullBody] as { function: { parameters: Record<string, unknown> } };
    expect(tool.function.parameters).not.toHaveProperty("requestBody");
    const odds = exportTools(corpus("theodds"), { format: "json", parameterDefaults: { theodds: { apiKey: "k" } } }) as { function: { parameters: { parameters: { name: string }[] } } }[];
    expect(odds.every((t) => t.function.parameters.parameters.every((p) => p.name !== "apiKey"))).toBe(true);
    const untyped = { ...base, flows: [{ id: "f", title: "f", description: "d", actions: [{ id: "a", sourceId: "s", operationId: "o" }], links: [], fields: { parameters: [{ name: "q" }], responses: { success: {} } } }] };
    expect(JSON.stringify(exportTools(untyped, { format: "json" }))).not.toContain("null");
  });

  it("returns copies, and refuses openaiStrict", () => {
    const doc = corpus("theodds");
    const [tool] = exportTools(doc, { format: "json" }) as { function: { parameters: { parameters: unknown[] } } }[];
    tool!.function.parameters.parameters.length = 0;
    expect(doc.document.flows[0]!.fields.parameters.length).toBeGreaterThan(0);
    expect(() => exportTools(doc, { format: "json", openaiStrict: true })).toThrow(ToolExportError);
  });
});
