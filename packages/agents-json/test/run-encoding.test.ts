import { describe, expect, it } from "vitest";
import { HttpError, load, loadSources, ResponseParseError, runFlow, UnsupportedSecuritySchemeError, type RunOptions, type SourceResolver } from "@flowspec/agents-json";

// Parameter styles, form-body encodings and security-scheme selection, checked on what fetch is given.
const openapi = {
  openapi: "3.0.3",
  info: { title: "Encoding", version: "1" },
  servers: [{ url: "https://enc.invalid" }],
  components: {
    securitySchemes: {
      bearer: { type: "http", scheme: "bearer" },
      queryKey: { type: "apiKey", in: "query", name: "key" },
    },
  },
  paths: {
    "/optional/{id}": {
      get: {
        operationId: "optional_auth",
        // {} first: auth is optional, but given credentials are still used.
        security: [{}, { bearer: [] }],
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "ok" } },
      },
    },
    "/bearer": { get: { operationId: "bearer_only", security: [{ bearer: [] }], responses: { "200": { description: "ok" } } } },
    "/reserved": {
      get: {
        operationId: "reserved",
        security: [{ queryKey: [] }],
        parameters: [
          { name: "path", in: "query", allowReserved: true, schema: { type: "string" } },
          { name: "after", in: "query", schema: { type: "string" } },
        ],
        responses: { "200": { description: "ok" } },
      },
    },
    "/styles/{m}/{mo}/{lo}/{l}": {
      get: {
        operationId: "styles",
        security: [],
        parameters: [
          { name: "m", in: "path", required: true, style: "matrix", explode: true, schema: { type: "array", items: { type: "string" } } },
          { name: "mo", in: "path", required: true, style: "matrix", explode: true, schema: { type: "object" } },
          { name: "lo", in: "path", required: true, style: "label", explode: true, schema: { type: "object" } },
          { name: "l", in: "path", required: true, style: "label", schema: { type: "object" } },
        ],
        responses: { "200": { description: "ok" } },
      },
    },
    "/form": {
      post: {
        operationId: "form",
        security: [],
        requestBody: {
          content: {
            "application/x-www-form-urlencoded": {
              schema: { type: "object" },
              encoding: { metadata: { style: "deepObject", explode: true }, shipping: { style: "deepObject", explode: true }, flat: { style: "form", explode: true }, plain: { contentType: "application/json" } },
            },
          },
        },
        responses: { "200": { description: "ok" } },
      },
    },
  },
};
const resolver: SourceResolver = { read: async (location) => ({ text: JSON.stringify(openapi), location: `/local/${location}` }) };
const flow = (operationId: string, parameters: string[]) => ({
  id: `${operationId}_flow`,
  title: operationId,
  description: operationId,
  actions: [{ id: "act", sourceId: "enc", operationId }],
  links: [
    ...parameters.map((name) => ({ origin: { actionId: `${operationId}_flow`, fieldPath: `parameters.${name}` }, target: { actionId: "act", fieldPath: `parameters.${name}` } })),
    { origin: { actionId: `${operationId}_flow`, fieldPath: "requestBody" }, target: { actionId: "act", fieldPath: "requestBody" } },
  ],
  fields: {
    parameters: parameters.map((name) => ({ name, type: ["m"].includes(name) ? "array" : ["mo", "lo", "l"].includes(name) ? "object" : "string" })),
    requestBody: { content: { "application/json": { schema: { type: "object" } } } },
    responses: { success: {} },
  },
});
const doc = load({
  agentsJson: "0.1.0",
  info: { title: "Encoding", version: "1.0.0", description: "d" },
  sources: [{ id: "enc", path: "enc.json" }],
  flows: [flow("optional_auth", ["id"]), flow("bearer_only", []), flow("reserved", ["path", "after"]), flow("styles", ["m", "mo", "lo", "l"]), flow("form", [])],
});
const sources = await loadSources(doc, { resolver });

function recorder() {
  const requests: Request[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    requests.push(new Request(url, init));
    return new Response("{}", { headers: { "content-type": "application/json" } });
  }) as unknown as typeof globalThis.fetch;
  return { requests, fetch };
}
const run = (operationId: string, input: unknown, options: RunOptions = {}) => runFlow(doc, `${operationId}_flow`, input, { sources, ...options });

describe("security requirements", () => {
  it("uses given credentials even when the optional requirement {} comes first", async () => {
    const { requests, fetch } = recorder();
    await run("optional_auth", { parameters: { id: "1" } }, { fetch, credentials: { enc: { bearer: { token: "tok-123" } } } });
    expect(requests[0]!.headers.get("authorization")).toBe("Bearer tok-123");
    await run("optional_auth", { parameters: { id: "1" } }, { fetch });
    expect(requests[1]!.headers.get("authorization")).toBeNull();
  });

  it("refuses a credential that is not an object without putting it in the error", async () => {
    const { requests, fetch } = recorder();
    for (const credential of ["tok-secret-123", () => "tok-secret-123"]) {
      const error = await run("bearer_only", {}, { fetch, credentials: { enc: { bearer: credential as never } } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnsupportedSecuritySchemeError);
      expect(String(error)).not.toContain("tok-secret-123");
      expect(String(error)).toMatch(/must be an object/);
    }
    expect(requests).toEqual([]);
  });

  it("adds an apiKey query parameter without re-encoding the query (allowReserved survives)", async () => {
    const { requests, fetch } = recorder();
    await run("reserved", { parameters: { path: "a/b:c", after: "x y" } }, { fetch, credentials: { enc: { queryKey: { value: "k 1" } } } });
    const url = new URL(requests[0]!.url);
    expect(url.search).toBe("?path=a/b:c&after=x%20y&key=k%201");
    expect(url.searchParams.get("key")).toBe("k 1");
  });
});

describe("parameter styles", () => {
  it("keeps # [ ] percent-encoded in allowReserved query values (they are not allowed in a query)", async () => {
    const { requests, fetch } = recorder();
    await run("reserved", { parameters: { path: "a#b[0]", after: "z" } }, { fetch, credentials: { enc: { queryKey: { value: "k" } } } });
    const url = new URL(requests[0]!.url);
    expect(url.hash).toBe("");
    expect(url.searchParams.get("path")).toBe("a#b[0]");
    expect(url.searchParams.get("after")).toBe("z");
  });

  it("serialises matrix and label path parameters with explode as OpenAPI specifies", async () => {
    const { requests, fetch } = recorder();
    const object = { R: "100", G: "200" };
    await run("styles", { parameters: { m: ["blue", "black"], mo: object, lo: object, l: object } }, { fetch });
    expect(new URL(requests[0]!.url).pathname).toBe("/styles/;m=blue;m=black/;R=100;G=200/.R=100.G=200/.R,100,G,200");
  });

  it('refuses the path parameter values "." and "..", which would change the path', async () => {
    const { requests, fetch } = recorder();
    for (const id of ["..", "."]) {
      await expect(run("optional_auth", { parameters: { id } }, { fetch })).rejects.toThrow(/path parameter "id".*dot segment/);
    }
    await run("optional_auth", { parameters: { id: "..." } }, { fetch });
    expect(requests.map((r) => new URL(r.url).pathname)).toEqual(["/optional/..."]);
  });
});

describe("form bodies with an encoding entry", () => {
  it("honours deepObject and form/explode for object fields, JSON text otherwise", async () => {
    const { requests, fetch } = recorder();
    const body = { metadata: { order: "42", note: "a&b" }, shipping: { address: { city: "Oslo" }, lines: ["x", "y"] }, flat: { a: "1", b: "2" }, plain: { c: 3 }, other: { d: 4 } };
    await run("form", { requestBody: body }, { fetch });
    const form = new URLSearchParams(await requests[0]!.text());
    expect([...form]).toEqual([
      ["metadata[order]", "42"],
      ["metadata[note]", "a&b"],
      ["shipping[address][city]", "Oslo"],
      ["shipping[lines][0]", "x"],
      ["shipping[lines][1]", "y"],
      ["a", "1"],
      ["b", "2"],
      ["plain", '{"c":3}'],
      ["other", '{"d":4}'],
    ]);
  });
});

describe("secrets in error messages", () => {
  const secret = "tok-secret-123";
  const answering = (status: number, text: string, type: string) =>
    (async () => new Response(text, { status, headers: { "content-type": type } })) as unknown as typeof globalThis.fetch;
  const credentials = { enc: { bearer: { token: secret } } };

  it("masks a secret that an HTTP error body echoes across the message's cut-off", async () => {
    const error = await run("bearer_only", {}, { fetch: answering(400, `${"x".repeat(495)}${secret}`, "text/plain"), credentials }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as Error).message).not.toContain(secret.slice(0, 5));
  });

  it("masks a secret across the cut-off of a body that is not JSON", async () => {
    const error = await run("bearer_only", {}, { fetch: answering(200, `<${"x".repeat(194)}${secret}`, "application/json"), credentials }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseParseError);
    expect((error as ResponseParseError).message).not.toContain(secret.slice(0, 5));
    expect((error as ResponseParseError).bodyStart).not.toContain(secret.slice(0, 5));
  });
});

describe("flow output links", () => {
  it("a whole-root output link never sets the result's prototype from a response's __proto__ key", async () => {
    const whole = load({
      ...doc.raw,
      flows: [{ ...flow("bearer_only", []), links: [{ origin: { actionId: "act", fieldPath: "responses.success" }, target: { actionId: "bearer_only_flow", fieldPath: "responses" } }] }],
    });
    const fetch = (async () => new Response('{"__proto__": {"isAdmin": true}, "id": 7}', { headers: { "content-type": "application/json" } })) as unknown as typeof globalThis.fetch;
    const { result } = await runFlow(whole, "bearer_only_flow", {}, { sources, fetch, credentials: { enc: { bearer: { token: "t" } } } });
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect((result as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    expect(result.id).toBe(7);
  });
});
