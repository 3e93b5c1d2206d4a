import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpError, load, loadSources, runFlow, TransportError, type RunOptions, type SourceResolver } from "@flowspec/agents-json";
import { startServer, type Received, type Reply, type Route } from "./support/server.js";

// Redirects are followed by the executor, not by fetch: against two loopback servers (two ports,
// so two origins), credentials go only to the origin they were given for.
const security = [{ headerKey: [], cookieKey: [], bearer: [], queryKey: [] }];
const hopParameters = [
  { name: "status", in: "path", required: true, schema: { type: "string" } },
  { name: "to", in: "query", schema: { type: "string" } },
  { name: "X-Trace", in: "header", schema: { type: "string" } },
  { name: "X-Account", in: "header", schema: { type: "string" } },
];
const openapi = {
  openapi: "3.1.0",
  info: { title: "Redirects", version: "1" },
  servers: [{ url: "https://redirects.invalid" }],
  components: {
    securitySchemes: {
      headerKey: { type: "apiKey", in: "header", name: "X-API-Key" },
      cookieKey: { type: "apiKey", in: "cookie", name: "session" },
      bearer: { type: "http", scheme: "bearer" },
      queryKey: { type: "apiKey", in: "query", name: "api_key" },
    },
  },
  security,
  paths: {
    "/hop/{status}": {
      parameters: hopParameters,
      get: { operationId: "hop_get", responses: { "200": { description: "ok" } } },
      post: {
        operationId: "hop_post",
        requestBody: { content: { "application/json": { schema: { type: "object" } } } },
        responses: { "200": { description: "ok" } },
      },
    },
  },
};
const resolver: SourceResolver = { read: async (location) => ({ text: JSON.stringify(openapi), location: `/local/${location}` }) };
const names = ["status", "to", "X-Trace"];
const flow = (operationId: string) => ({
  id: `${operationId}_flow`,
  title: operationId,
  description: operationId,
  actions: [{ id: "go", sourceId: "r", operationId }],
  links: [
    ...names.map((name) => ({ origin: { actionId: `${operationId}_flow`, fieldPath: `parameters.${name}` }, target: { actionId: "go", fieldPath: `parameters.${name}` } })),
    { origin: { actionId: `${operationId}_flow`, fieldPath: "requestBody" }, target: { actionId: "go", fieldPath: "requestBody" } },
  ],
  fields: {
    parameters: names.map((name) => ({ name, type: "string" })),
    requestBody: { content: { "application/json": { schema: { type: "object" } } } },
    responses: { success: {} },
  },
});
const doc = load({
  agentsJson: "0.1.0",
  info: { title: "Redirects", version: "1.0.0", description: "d" },
  sources: [{ id: "r", path: "r.json" }],
  flows: [flow("hop_get"), flow("hop_post")],
});
const sources = await loadSources(doc, { resolver });

const credentials = {
  r: { headerKey: { value: "header-secret" }, cookieKey: { value: "cookie-secret" }, bearer: { token: "bearer-secret" }, queryKey: { value: "query-secret" } },
};

// /hop/<3xx>?to=<url> redirects there; /hop/chain<n> redirects n times before landing; anything else lands.
const routes: Route[] = [
  (r) => {
    const status = r.path.split("/")[2] ?? "";
    const to = r.query.get("to");
    if (/^3\d\d$/.test(status)) {
      const reply: Reply = { status: Number(status) };
      if (to !== null) reply.headers = { location: to };
      return reply;
    }
    const chain = /^chain(\d+)$/.exec(status);
    if (chain && chain[1] !== "0") return { status: 302, headers: { location: `/hop/chain${Number(chain[1]) - 1}` } };
    return undefined;
  },
  (r) => (r.path === "/missing" ? { status: 404, body: { error: "gone" } } : { body: { landed: r.path, method: r.method, body: r.body } }),
];
let a: Awaited<ReturnType<typeof startServer>>;
let b: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  a = await startServer(routes);
  b = await startServer(routes);
});
afterAll(async () => {
  await a.close();
  await b.close();
});

const run = (operationId: string, input: unknown, options: RunOptions = {}) =>
  runFlow(doc, `${operationId}_flow`, input, { sources, servers: { r: a.url }, credentials, parameterDefaults: { r: { "X-Account": "account-secret" } }, ...options });
const last = (server: { received: Received[] }) => server.received[server.received.length - 1]!;

describe("redirects", () => {
  it("drops every credential it added when a redirect goes to another origin, and keeps other headers", async () => {
    const { result, trace } = await run("hop_get", { parameters: { status: "302", to: `${b.url}/land`, "X-Trace": "t-1" } });
    expect(result).toEqual({ success: { landed: "/land", method: "GET", body: "" } });
    const landed = last(b);
    expect(landed.headers["x-api-key"]).toBeUndefined();
    expect(landed.headers["x-account"]).toBeUndefined();
    expect(landed.headers.cookie).toBeUndefined();
    expect(landed.headers.authorization).toBeUndefined();
    expect(landed.query.get("api_key")).toBeNull();
    expect(landed.headers["x-trace"]).toBe("t-1");
    expect(landed.headers.accept).toBe("application/json");
    // The trace shows the request that got the response, and notes the hop.
    expect(trace[0]!.request.url).toBe(`${b.url}/land`);
    expect(trace[0]!.request.headers["x-api-key"]).toBeUndefined();
    expect(trace[0]!.notes.join("\n")).toMatch(/redirected by HTTP 302 .*to http:\/\/127\.0\.0\.1:\d+\/land; another origin/);
    expect(JSON.stringify(trace)).not.toMatch(/secret/);
  });

  it("keeps the credentials on a same-origin redirect", async () => {
    const { trace } = await run("hop_get", { parameters: { status: "301", to: "/land" } });
    const landed = last(a);
    expect(landed.path).toBe("/land");
    expect(landed.headers["x-api-key"]).toBe("header-secret");
    expect(landed.headers["x-account"]).toBe("account-secret");
    expect(landed.headers.cookie).toBe("session=cookie-secret");
    expect(landed.headers.authorization).toBe("Bearer bearer-secret");
    expect(trace[0]!.request.url).toBe(`${a.url}/land`);
    expect(trace[0]!.request.headers.authorization).toBe("***");
  });

  it.each([
    { status: "301", method: "GET", body: "" },
    { status: "302", method: "GET", body: "" },
    { status: "303", method: "GET", body: "" },
    { status: "307", method: "POST", body: '{"n":1}' },
    { status: "308", method: "POST", body: '{"n":1}' },
  ])("follows a $status after a POST with fetch's method rules ($method)", async ({ status, method, body }) => {
    const { result } = await run("hop_post", { parameters: { status, to: `${b.url}/land` }, requestBody: { n: 1 } });
    expect(result).toEqual({ success: { landed: "/land", method, body } });
    const landed = last(b);
    expect(landed.headers["content-type"]).toBe(method === "POST" ? "application/json" : undefined);
    expect(landed.headers["x-api-key"]).toBeUndefined();
  });

  it("records the headers of the request that got the response, after hops that changed them", async () => {
    // POST → 303 to another origin (a GET without body headers or credentials) → two more hops there.
    const { trace } = await run("hop_post", { parameters: { status: "303", to: `${b.url}/hop/chain2`, "X-Trace": "t-2" }, requestBody: { n: 1 } });
    const landed = last(b);
    expect(landed.path).toBe("/hop/chain0");
    const recorded = trace[0]!.request.headers;
    for (const name of ["content-type", "x-api-key", "x-account", "cookie", "authorization"]) expect(recorded[name], name).toBeUndefined();
    expect(recorded).toMatchObject({ accept: landed.headers.accept, "x-trace": landed.headers["x-trace"] });
    // The records keep their key order, in JSON too.
    expect(Object.keys(trace[0]!.request)).toEqual(["method", "url", "headers"]);
    expect(Object.keys(trace[0]!.response!)).toEqual(["status", "headers", "body"]);
    expect(JSON.parse(JSON.stringify(trace[0]!.response)).headers["content-type"]).toMatch(/^application\/json/);
  });

  it("follows ten redirects and refuses the eleventh with an error naming the action", async () => {
    expect((await run("hop_get", { parameters: { status: "chain10" } })).result).toEqual({ success: { landed: "/hop/chain0", method: "GET", body: "" } });
    const before = a.received.length;
    const error = await run("hop_get", { parameters: { status: "chain11" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(/^action "go" \(operation "hop_get", GET http:\/\/127\.0\.0\.1:\d+\/hop\/chain1\): more than 10 redirects$/);
    expect(a.received.length - before).toBe(11);
  });

  it("names the final URL in an HTTP error after a redirect, and the trace carries it", async () => {
    const error = await run("hop_get", { parameters: { status: "307", to: `${b.url}/missing` } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as Error).message).toContain(`GET ${b.url}/missing) failed with HTTP 404`);
    expect((error as HttpError).trace[0]!.request.url).toBe(`${b.url}/missing`);
  });

  it("refuses a Location that is not http(s) with an error naming the action", async () => {
    const error = await run("hop_get", { parameters: { status: "302", to: "file:///etc/passwd" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(/^action "go" .*: redirected by HTTP 302 to file:\/\/\/etc\/passwd, which is not an http\(s\) URL$/);
  });

  it("returns a 3xx without a Location as an HTTP error, as fetch does", async () => {
    const error = await run("hop_get", { parameters: { status: "302" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(302);
  });
});
