import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { load, runFlow, type LoadedAgentsJson, type RunOptions } from "@flowspec/agents-json";
import { corpusDir } from "../../../test/support.js";
import { startServer } from "./support/server.js";

const dir = corpusDir("agents-json");
const corpus = (name: string): { doc: LoadedAgentsJson; options: RunOptions } => ({
  doc: load(readFileSync(join(dir, `agents_json__${name}__agents.json`), "utf8")),
  options: { resolver: { map: { [name]: join(dir, `agents_json__${name}__openapi.yaml`) } } },
});

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer([
    (r) => (r.method === "POST" && /^\/audiences\/[^/]+\/contacts$/.test(r.path) ? { status: 201, body: { object: "contact", id: "479e3145-dd38-476b-932c-529ceb705947" } } : undefined),
    (r) => (r.method === "POST" && r.path === "/v1/search" ? { body: { answer: "Marie Curie", sources: [] } } : undefined),
    (r) => (r.method === "GET" && r.path === "/crm/v3/objects/contacts/c-1" ? { body: { id: "501", properties: { email: "ada@example.com" } } } : undefined),
    (r) => (r.method === "PATCH" && r.path === "/crm/v3/objects/contacts/501" ? { body: { id: "501", properties: JSON.parse(r.body).properties } } : undefined),
    (r) => (r.method === "GET" && r.path === "/v1/gifs/search" ? { body: { data: [{ id: "g1" }], pagination: { count: 1 } } } : undefined),
    (r) => (r.method === "GET" && /^\/v4\/sports\/[^/]+\/(odds|scores)$/.test(r.path) ? { body: [{ id: r.path.endsWith("odds") ? "odds-1" : "score-1" }] } : undefined),
  ]);
});
afterAll(() => server.close());
const last = () => server.received[server.received.length - 1]!;

describe("runFlow against a loopback server implementing corpus operations", () => {
  it("resend: path parameter, JSON body and bearer auth (the §4.8 worked example)", async () => {
    const { doc, options } = corpus("resend");
    const { result, trace } = await runFlow(
      doc,
      "resend_post_audiences_contacts_by_audience_id_flow",
      { parameters: { audience_id: "78261eea-8f8b-4381-83c6-79fa7120f1cf" }, requestBody: { email: "ada@example.com" } },
      { ...options, servers: { resend: server.url }, credentials: { resend: { bearerAuth: { token: "re_123" } } } },
    );
    const received = last();
    expect(received.method).toBe("POST");
    expect(received.path).toBe("/audiences/78261eea-8f8b-4381-83c6-79fa7120f1cf/contacts");
    expect(received.headers.authorization).toBe("Bearer re_123");
    expect(received.headers["content-type"]).toBe("application/json");
    expect(received.headers.accept).toBe("application/json");
    expect(JSON.parse(received.body)).toEqual({ email: "ada@example.com" });
    expect(result).toEqual({ success: { object: "contact", id: "479e3145-dd38-476b-932c-529ceb705947" } });
    expect(trace).toHaveLength(1);
    expect(trace[0]!.request.headers.authorization).toBe("***");
    expect(trace[0]!.response!.status).toBe(201);
    expect(trace[0]!.appliedLinks).toEqual([0, 1]);
  });

  it("resend: refuses to send without credentials", async () => {
    const { doc, options } = corpus("resend");
    const before = server.received.length;
    await expect(
      runFlow(doc, "resend_post_audiences_contacts_by_audience_id_flow", { parameters: { audience_id: "a" }, requestBody: { email: "x@y.z" } }, { ...options, servers: { resend: server.url } }),
    ).rejects.toThrow(/needs credentials for source "resend": one of bearerAuth/);
    expect(server.received.length).toBe(before);
  });

  it("linkup: undeclared parameters move into the JSON body in compat mode, with upstream-style bearer auth", async () => {
    const { doc, options } = corpus("linkup");
    const { result, warnings, trace } = await runFlow(doc, "linkup_search_flow", { q: "Who won the Nobel Prize?", depth: "standard" }, {
      ...options,
      servers: { linkup: `${server.url}/v1` },
      auth: { linkup: { type: "bearer", token: "lk_secret" } },
    });
    const received = last();
    expect(received.path).toBe("/v1/search");
    expect(received.headers.authorization).toBe("Bearer lk_secret");
    expect(JSON.parse(received.body)).toEqual({ q: "Who won the Nobel Prize?", depth: "standard" });
    expect(result).toEqual({ success: { answer: "Marie Curie", sources: [] } });
    expect(warnings.join("\n")).toMatch(/flat arguments/);
    expect(trace[0]!.notes.join("\n")).toMatch(/moved into the request body/);
  });

  it("linkup: strict mode refuses undeclared parameters before sending", async () => {
    const { doc, options } = corpus("linkup");
    const before = server.received.length;
    await expect(
      runFlow(doc, "linkup_search_flow", { parameters: { q: "x", depth: "standard" } }, { ...options, mode: "strict", servers: { linkup: server.url }, credentials: { linkup: { auth: { token: "t" } } } }),
    ).rejects.toThrow(/declares no parameter "q"/);
    expect(server.received.length).toBe(before);
  });

  it("hubspotcontacts: a two-action chain on responses.success.id with an API key in a header", async () => {
    const { doc, options } = corpus("hubspotcontacts");
    const { result, trace } = await runFlow(
      doc,
      "contacts_get_and_update",
      { parameters: { contactId: "c-1" }, requestBody: { properties: { firstname: "Ada" } } },
      { ...options, servers: { hubspotcontacts: `${server.url}/` }, credentials: { hubspotcontacts: { private_apps: { value: "pat-na1-secret" } } } },
    );
    const [get, patch] = server.received.slice(-2);
    expect(get!.method).toBe("GET");
    expect(get!.path).toBe("/crm/v3/objects/contacts/c-1");
    expect(get!.headers["private-app"]).toBe("pat-na1-secret");
    expect(patch!.method).toBe("PATCH");
    expect(patch!.path).toBe("/crm/v3/objects/contacts/501");
    expect(JSON.parse(patch!.body)).toEqual({ properties: { firstname: "Ada" } });
    expect(result).toEqual({ success: { id: "501", properties: { firstname: "Ada" } } });
    expect(trace.map((s) => s.request.headers["private-app"])).toEqual(["***", "***"]);
  });

  it("hubspotcontacts: an apiKey query credential is redacted from the trace URL", async () => {
    const { doc, options } = corpus("hubspotcontacts");
    const { trace } = await runFlow(doc, "contacts_get_and_update", { parameters: { contactId: "c-1" }, requestBody: { properties: { a: "b" } } }, {
      ...options,
      servers: { hubspotcontacts: server.url },
      credentials: { hubspotcontacts: { hapikey: { value: "hk-secret" } } },
    });
    expect(server.received.at(-2)!.query.get("hapikey")).toBe("hk-secret");
    expect(trace[0]!.request.url).toBe(`${server.url}/crm/v3/objects/contacts/c-1?hapikey=***`);
  });

  it("giphy: query parameters and an api_key from parameterDefaults", async () => {
    const { doc, options } = corpus("giphy");
    const { result, trace } = await runFlow(doc, "search_gifs_flow", { parameters: { q: "cats & dogs", limit: 2, rating: "g" } }, {
      ...options,
      servers: { giphy: `${server.url}/v1` },
      parameterDefaults: { giphy: { api_key: "gk-secret" } },
    });
    const received = last();
    expect(received.path).toBe("/v1/gifs/search");
    expect(Object.fromEntries(received.query)).toEqual({ api_key: "gk-secret", q: "cats & dogs", limit: "2", rating: "g" });
    expect(result).toEqual({ success: { data: [{ id: "g1" }], pagination: { count: 1 } } });
    expect(trace[0]!.request.url).not.toContain("gk-secret");
  });

  it("theodds: whole-root parameter fan-out, a hidden apiKey from parameterDefaults, operation-level servers overridden", async () => {
    const { doc, options } = corpus("theodds");
    const { result, trace } = await runFlow(doc, "live_odds_scores_compound", { parameters: { sport: "soccer_epl", regions: "uk", daysFrom: 2 } }, {
      ...options,
      servers: { theodds: server.url },
      parameterDefaults: { theodds: { apiKey: "odds-secret" } },
    });
    const [odds, scores] = server.received.slice(-2);
    expect(odds!.path).toBe("/v4/sports/soccer_epl/odds");
    expect(Object.fromEntries(odds!.query)).toEqual({ regions: "uk", apiKey: "odds-secret" });
    expect(scores!.path).toBe("/v4/sports/soccer_epl/scores");
    expect(Object.fromEntries(scores!.query)).toEqual({ daysFrom: "2", apiKey: "odds-secret" });
    expect(trace[0]!.notes.join("\n")).toMatch(/"daysFrom" \(from a whole-root parameters copy\)/);
    expect(result).toEqual({ success: [{ id: "score-1" }] });
  });
});
