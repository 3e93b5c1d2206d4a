import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FlowRunError, HttpError, load, loadSources, runFlow, UnsupportedSecuritySchemeError, type RunOptions, type SourceResolver } from "@flowspec/agents-json";
import { startServer } from "./support/server.js";

// Values as they land in the URL and the headers, against a loopback server: secrets in a path
// segment are masked in traces and errors, header values that cannot be sent are refused before
// anything is sent, and allowReserved lets percent-encoded triples through.
const openapi = {
  openapi: "3.1.0",
  info: { title: "Values", version: "1" },
  servers: [{ url: "https://values.invalid" }],
  components: { securitySchemes: { headerKey: { type: "apiKey", in: "header", name: "X-API-Key" }, bearer: { type: "http", scheme: "bearer" } } },
  paths: {
    "/accounts/{account}/items": {
      get: {
        operationId: "items",
        security: [{ headerKey: [] }, { bearer: [] }, {}],
        parameters: [
          { name: "account", in: "path", required: true, schema: { type: "string" } },
          { name: "X-Note", in: "header", schema: { type: "string" } },
          { name: "q", in: "query", allowReserved: true, schema: { type: "string" } },
          { name: "plain", in: "query", schema: { type: "string" } },
        ],
        responses: { "200": { description: "ok" } },
      },
    },
  },
};
const resolver: SourceResolver = { read: async (location) => ({ text: JSON.stringify(openapi), location: `/local/${location}` }) };
const inputs: [string, string][] = [
  ["account", "account"],
  ["note", "X-Note"],
  ["q", "q"],
  ["plain", "plain"],
];
const doc = load({
  agentsJson: "0.1.0",
  info: { title: "Values", version: "1.0.0", description: "d" },
  sources: [{ id: "v", path: "v.json" }],
  flows: [
    {
      id: "items_flow",
      title: "items",
      description: "one GET",
      actions: [{ id: "list", sourceId: "v", operationId: "items" }],
      links: inputs.map(([input, parameter]) => ({ origin: { actionId: "items_flow", fieldPath: `parameters.${input}` }, target: { actionId: "list", fieldPath: `parameters.${parameter}` } })),
      fields: { parameters: inputs.map(([name]) => ({ name, type: "string" })), responses: { success: {} } },
    },
  ],
});
const sources = await loadSources(doc, { resolver });

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer([(r) => (r.query.get("plain") === "fail" ? { status: 404, body: { error: "no such account" } } : { body: { path: r.path, q: r.query.get("q") } })]);
});
afterAll(() => server.close());
const run = (parameters: Record<string, string>, options: RunOptions = {}) => runFlow(doc, "items_flow", { parameters }, { sources, servers: { v: server.url }, ...options });

describe("a secret in a path segment", () => {
  it.each([
    { name: "with characters that are percent-encoded", secret: "acct/key with space" },
    { name: "with non-ASCII characters", secret: "kéy-ünïcode-✓" },
    { name: "with a percent sign", secret: "100%-secret" },
  ])("is masked in the trace and in errors, $name", async ({ secret }) => {
    const options = { parameterDefaults: { v: { account: secret } } };
    const { result, trace } = await run({}, options);
    expect(result).toEqual({ success: { path: `/accounts/${encodeURIComponent(secret)}/items`, q: null } });
    expect(trace[0]!.request.url).toBe(`${server.url}/accounts/***/items`);
    const error = await run({ plain: "fail" }, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as Error).message).toContain(`GET ${server.url}/accounts/***/items?plain=fail) failed with HTTP 404`);
    expect((error as HttpError).trace[0]!.request.url).toBe(`${server.url}/accounts/***/items?plain=fail`);
  });

  it("is masked where it is part of a segment and in lower-case hex, and a segment that differs is left alone", async () => {
    const onRequest = (request: { url: URL }) => void (request.url.pathname = "/accounts/pre-s3cr3t%2fkey-post/items/s3cr3t%2FKEY/s3cr3t/key");
    const { trace } = await run({}, { parameterDefaults: { v: { account: "s3cr3t/key" } }, hooks: { onRequest } });
    expect(trace[0]!.request.url).toBe(`${server.url}/accounts/pre-***-post/items/s3cr3t%2FKEY/***`);
  });
});

describe("header parameter values", () => {
  it.each([
    { value: "a\r\nX-Injected: 1", what: "contains a CR (\\r) at index 1" },
    { value: "a\nb", what: "contains an LF (\\n) at index 1" },
    { value: "trailing\r\n", what: "contains a CR (\\r) at index 8" },
    { value: "a\0b", what: "contains a NUL at index 1" },
    { value: "a→b", what: "contains a character beyond Latin-1 at index 1" },
  ])("refuse $value before anything is sent, naming the action and the parameter", async ({ value, what }) => {
    const before = server.received.length;
    const error = await run({ account: "a", note: value }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FlowRunError);
    expect((error as Error).message).toBe(`action "list" (operation "items"): header parameter "X-Note" cannot be sent: its value ${what}`);
    expect(server.received.length).toBe(before);
  });

  it("send Latin-1 text as it is", async () => {
    await run({ account: "a", note: "café" });
    expect(server.received[server.received.length - 1]!.headers["x-note"]).toBe("café");
  });

  it.each<{ credentials: RunOptions["credentials"]; scheme: string }>([
    { credentials: { v: { headerKey: { value: "key-secret\r\nX-Injected: 1" } } }, scheme: "headerKey" },
    { credentials: { v: { bearer: { token: "tok-secret\n" } } }, scheme: "bearer" },
  ])("refuse a $scheme credential with a line break, without showing it", async ({ credentials, scheme }) => {
    const before = server.received.length;
    const error = await run({ account: "a" }, { credentials }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedSecuritySchemeError);
    expect((error as Error).message).toMatch(new RegExp(`security scheme "${scheme}" of source "v": .*cannot be sent in a header: it contains`));
    expect((error as Error).message).not.toContain("secret");
    expect(server.received.length).toBe(before);
  });
});

describe("allowReserved query values", () => {
  it.each([
    { q: "a%20b/c", search: "q=a%20b/c", received: "a b/c" },
    { q: "%E2%9C%93 and %e2%9c%93", search: "q=%E2%9C%93%20and%20%e2%9c%93", received: "✓ and ✓" },
    { q: "100%", search: "q=100%25", received: "100%" },
    { q: "%zz%4", search: "q=%25zz%254", received: "%zz%4" },
    { q: "50% off", search: "q=50%25%20off", received: "50% off" },
  ])("keep percent-encoded triples and encode a lone %: $q", async ({ q, search, received }) => {
    const { result, trace } = await run({ account: "a", q });
    expect(trace[0]!.request.url).toBe(`${server.url}/accounts/a/items?${search}`);
    expect((result.success as { q: string }).q).toBe(received);
  });

  it("still encodes a % in a query value without allowReserved", async () => {
    const { trace } = await run({ account: "a", plain: "a%20b" });
    expect(trace[0]!.request.url).toBe(`${server.url}/accounts/a/items?plain=a%2520b`);
  });
});

describe("values with a lone surrogate (no UTF-8 form)", () => {
  it.each<{ parameters: Record<string, string>; message: string }>([
    { parameters: { account: "a\uD800b" }, message: `path parameter "account" cannot be sent: its value contains a lone surrogate (U+D800 at index 1), which has no UTF-8 form` },
    { parameters: { account: "a", plain: "x\uDC00" }, message: `query parameter "plain" cannot be sent: its value contains a lone surrogate (U+DC00 at index 1), which has no UTF-8 form` },
  ])("are refused before anything is sent, naming the action and the parameter: $message", async ({ parameters, message }) => {
    const before = server.received.length;
    const error = await run(parameters).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FlowRunError);
    expect((error as Error).message).toBe(`action "list" (operation "items"): ${message}`);
    expect(server.received.length).toBe(before);
  });

  it("a surrogate pair is sent as its UTF-8 bytes", async () => {
    const { result } = await run({ account: "a", q: "😀" });
    expect((result.success as { q: string }).q).toBe("😀");
  });
});
