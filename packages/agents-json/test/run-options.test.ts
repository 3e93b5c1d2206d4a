import { describe, expect, it } from "vitest";
import { HttpError, load, loadSources, MissingCredentialsError, NoServerError, PlanError, runFlow, UnsupportedSecuritySchemeError, type RunOptions, type SourceResolver } from "@flowspec/agents-json";

// An in-memory OpenAPI source and an injected fetch: the executor needs nothing but fetch.
const openapi = {
  openapi: "3.0.3",
  info: { title: "Opts", version: "1" },
  servers: [{ url: "https://{region}.api.invalid/v{version}", variables: { region: { default: "eu" }, version: { default: "2" } } }],
  components: {
    securitySchemes: {
      oauth: { type: "oauth2", flows: { clientCredentials: { tokenUrl: "https://x.invalid/token", scopes: {} } } },
      digest: { type: "http", scheme: "digest" },
      key: { type: "apiKey", in: "header", name: "X-Key" },
    },
  },
  paths: {
    "/upload": {
      post: {
        operationId: "upload",
        security: [{ oauth: [] }],
        requestBody: { content: { "multipart/form-data": { schema: { type: "object" } } } },
        responses: { "200": { description: "ok" } },
      },
    },
    "/digest": { get: { operationId: "digest_op", security: [{ digest: [] }], responses: { "200": { description: "ok" } } } },
    "/keyed": { post: { operationId: "keyed", security: [{ key: [] }, {}], responses: { "200": { description: "ok" } } } },
    "/both": { post: { operationId: "both", security: [{ oauth: [], digest: [], key: [] }], responses: { "200": { description: "ok" } } } },
    "/relative": { get: { operationId: "relative", servers: [{ url: "/rel" }], security: [], responses: { "200": { description: "ok" } } } },
  },
};
const resolver: SourceResolver = { read: async (location) => ({ text: JSON.stringify(openapi), location: location.startsWith("http") ? location : `/local/${location}` }) };
const doc = load({
  agentsJson: "0.1.0",
  info: { title: "Opts", version: "1.0.0", description: "d" },
  sources: [{ id: "opts", path: "opts.json" }],
  flows: ["upload", "digest_op", "keyed", "relative", "both"].map((operationId) => ({
    id: `${operationId}_flow`,
    title: operationId,
    description: operationId,
    actions: [{ id: "act", sourceId: "opts", operationId }],
    links: [{ origin: { actionId: `${operationId}_flow`, fieldPath: "requestBody" }, target: { actionId: "act", fieldPath: "requestBody" } }],
    fields: { parameters: [], requestBody: { content: { "application/json": { schema: { type: "object" } } } }, responses: { success: {} } },
  })),
});
const sources = await loadSources(doc, { resolver });

function recorder(status = 200, headers: Record<string, string> = { "content-type": "application/json" }) {
  const requests: Request[] = [];
  const fetch = (async (url: URL, init: RequestInit) => {
    requests.push(new Request(url, init));
    return new Response(status === 204 ? null : JSON.stringify({ ok: true }), { status, headers });
  }) as unknown as typeof globalThis.fetch;
  return { requests, fetch };
}
const run = (flow: string, body: unknown, options: RunOptions) => runFlow(doc, `${flow}_flow`, { requestBody: body }, { sources, ...options });

describe("runFlow options with an injected fetch", () => {
  it("uses server variables' defaults, multipart bodies and an OAuth2 token provider", async () => {
    const { requests, fetch } = recorder();
    await run("upload", { file: new Uint8Array([1, 2, 3]), meta: { a: 1 }, note: "hi" }, { fetch, credentials: { opts: { oauth: async () => ({ accessToken: "oauth-token" }) } } });
    const request = requests[0]!;
    expect(request.url).toBe("https://eu.api.invalid/v2/upload");
    expect(request.headers.get("authorization")).toBe("Bearer oauth-token");
    expect(request.headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/);
    const form = await request.formData();
    expect(form.get("note")).toBe("hi");
    expect(await (form.get("file") as Blob).arrayBuffer()).toEqual(new Uint8Array([1, 2, 3]).buffer);
    expect(JSON.parse(await (form.get("meta") as Blob).text())).toEqual({ a: 1 });
  });

  it("needs a sign hook for digest, and calls it", async () => {
    const { requests, fetch } = recorder();
    await expect(run("digest_op", {}, { fetch, credentials: { opts: { digest: { username: "u", password: "p" } } } })).rejects.toThrow(UnsupportedSecuritySchemeError);
    await run("digest_op", {}, { fetch, credentials: { opts: { digest: { username: "u", password: "p" } } }, hooks: { sign: (request) => void request.headers.set("authorization", "Digest signed") } });
    expect(requests[0]!.headers.get("authorization")).toBe("Digest signed");
  });

  it("applies every scheme of a requirement, waiting for a token provider and a sign hook in between", async () => {
    const { requests, fetch } = recorder();
    const order: string[] = [];
    const credentials = {
      opts: {
        oauth: async () => (order.push("token"), { accessToken: "oauth-token" }),
        digest: { username: "u", password: "p" },
        key: () => ({ value: "k-123" }), // a provider may answer at once
      },
    };
    const sign = async (request: { headers: Headers }) => {
      order.push(`sign after ${request.headers.get("authorization")}`);
      request.headers.set("x-signed", "yes");
    };
    const { trace } = await run("both", {}, { fetch, credentials, hooks: { sign } });
    expect(order).toEqual(["token", "sign after Bearer oauth-token"]);
    const sent = requests[0]!.headers;
    expect([sent.get("authorization"), sent.get("x-signed"), sent.get("x-key")]).toEqual(["Bearer oauth-token", "yes", "k-123"]);
    expect(trace[0]!.request.headers).toMatchObject({ authorization: "***", "x-key": "***", "x-signed": "yes" });
  });

  it("treats {} as optional auth, applies upstream apiKey config, and refuses a missing credential", async () => {
    const { requests, fetch } = recorder();
    await run("keyed", { a: 1 }, { fetch });
    expect(requests[0]!.headers.get("x-key")).toBeNull();
    await run("keyed", { a: 1 }, { fetch, auth: { opts: { type: "apiKey", value: "k-123" } } });
    expect(requests[1]!.headers.get("x-key")).toBe("k-123");
    await expect(run("upload", {}, { fetch })).rejects.toThrow(MissingCredentialsError);
    expect(requests).toHaveLength(2);
  });

  it("sends a body to an operation without one as JSON in compat mode, refuses in strict mode", async () => {
    const { requests, fetch } = recorder();
    const { trace } = await run("keyed", { a: 1 }, { fetch });
    expect(await requests[0]!.text()).toBe('{"a":1}');
    expect(trace[0]!.notes.join()).toMatch(/declares no request body; sent the action's body as JSON/);
    await expect(run("keyed", { a: 1 }, { fetch, mode: "strict" })).rejects.toThrow(/declares no request body/);
  });

  it("needs a server for a relative server URL when the source is not a URL", async () => {
    const { fetch } = recorder();
    await expect(run("relative", {}, { fetch })).rejects.toThrow(NoServerError);
  });

  it("narrows success with successCriteria and does not retry non-idempotent methods", async () => {
    const ok = recorder();
    await expect(run("keyed", {}, { fetch: ok.fetch, successCriteria: () => false })).rejects.toThrow(/rejected by successCriteria/);
    const failing = recorder(503);
    await expect(run("keyed", {}, { fetch: failing.fetch, retry: { limit: 3, baseDelayMs: 1 } })).rejects.toThrow(HttpError);
    expect(failing.requests).toHaveLength(1);
    const forced = recorder(503);
    await expect(run("keyed", {}, { fetch: forced.fetch, retry: { limit: 2, baseDelayMs: 1, retryNonIdempotent: true } })).rejects.toThrow(HttpError);
    expect(forced.requests).toHaveLength(3);
  });

  it("stops in the plan check on a failing override of a used source, or a source missing from the sources given", async () => {
    const { requests, fetch } = recorder();
    const withOverride = load({ ...doc.raw, overrides: [{ sourceId: "opts", operationId: "keyed", fieldPath: "operationId.x", value: "y" }] });
    await expect(runFlow(withOverride, "keyed_flow", {}, { resolver, fetch })).rejects.toThrow(/operation-resolved: cannot apply "operationId.x" to opts\/keyed/);
    await expect(runFlow(doc, "keyed_flow", {}, { sources: new Map(), fetch })).rejects.toThrow(PlanError);
    await expect(runFlow(doc, "keyed_flow", {}, { sources: new Map(), fetch })).rejects.toThrow(/source "opts" was not loaded/);
    expect(requests).toEqual([]);
  });

  it("gives fetch an abort signal only when there is a timeout or a run signal", async () => {
    const signals: (AbortSignal | null | undefined)[] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      signals.push(init.signal);
      return new Response("{}", { headers: { "content-type": "application/json" } });
    }) as unknown as typeof globalThis.fetch;
    await run("keyed", {}, { fetch });
    await run("keyed", {}, { fetch, timeoutMs: 0 });
    await run("keyed", {}, { fetch, timeoutMs: 0, signal: new AbortController().signal });
    expect(signals.map((signal) => signal instanceof AbortSignal)).toEqual([true, false, true]);
  });
});
