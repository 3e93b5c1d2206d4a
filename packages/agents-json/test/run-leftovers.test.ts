import { describe, expect, it } from "vitest";
import { FlowRunError, HttpError, load, loadSources, runFlow, type RunOptions, type SourceResolver } from "@flowspec/agents-json";

// Header parameter names that are not HTTP tokens, secrets that are not strings, secrets echoed
// percent-encoded, and allowReserved in form bodies: checked on what fetch is given and on what
// traces and errors show.
const openapi = {
  openapi: "3.1.0",
  info: { title: "Leftovers", version: "1" },
  servers: [{ url: "https://left.invalid" }],
  paths: {
    "/first": { get: { operationId: "first", responses: { "200": { description: "ok" } } } },
    "/bad-header": {
      get: {
        operationId: "bad_header",
        parameters: [
          { name: "X Trace Id", in: "header", schema: { type: "string" } },
          { name: "X-Fine", in: "header", schema: { type: "string" } },
        ],
        responses: { "200": { description: "ok" } },
      },
    },
    "/required-bad-header": {
      get: {
        operationId: "required_bad_header",
        parameters: [{ name: "X:Key", in: "header", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "ok" } },
      },
    },
    "/accounts/{account}": {
      get: {
        operationId: "account",
        parameters: [
          { name: "account", in: "path", required: true, schema: { type: "integer" } },
          { name: "pin", in: "query", schema: { type: "integer" } },
        ],
        responses: { "200": { description: "ok" } },
      },
    },
    "/form": {
      post: {
        operationId: "form",
        requestBody: {
          content: {
            "application/x-www-form-urlencoded": {
              schema: { type: "object" },
              encoding: { redirect: { allowReserved: true }, tags: { allowReserved: true, explode: true }, meta: { style: "deepObject", explode: true, allowReserved: true } },
            },
          },
        },
        responses: { "200": { description: "ok" } },
      },
    },
  },
};
const resolver: SourceResolver = { read: async (location) => ({ text: JSON.stringify(openapi), location: `/local/${location}` }) };
const flow = (id: string, actions: string[], parameters: [string, string, string][], body = false) => ({
  id,
  title: id,
  description: id,
  actions: actions.map((operationId) => ({ id: operationId, sourceId: "left", operationId })),
  links: [
    ...parameters.map(([input, action, parameter]) => ({ origin: { actionId: id, fieldPath: `parameters.${input}` }, target: { actionId: action, fieldPath: `parameters.${parameter}` } })),
    ...(body ? [{ origin: { actionId: id, fieldPath: "requestBody" }, target: { actionId: actions[0]!, fieldPath: "requestBody" } }] : []),
  ],
  fields: {
    parameters: parameters.map(([name]) => ({ name, type: "string" })),
    ...(body ? { requestBody: { content: { "application/json": { schema: { type: "object" } } } } } : {}),
    responses: { success: {} },
  },
});
const doc = load({
  agentsJson: "0.1.0",
  info: { title: "Leftovers", version: "1.0.0", description: "d" },
  sources: [{ id: "left", path: "left.json" }],
  flows: [
    flow("linked_bad_header", ["first", "bad_header"], [["trace", "bad_header", "X Trace Id"]]),
    flow("unfed_bad_header", ["first", "bad_header"], [["fine", "bad_header", "X-Fine"]]),
    flow("required_bad_header_flow", ["first", "required_bad_header"], []),
    {
      ...flow("whole_root_bad_header", ["bad_header"], []),
      links: [{ origin: { actionId: "whole_root_bad_header", fieldPath: "parameters" }, target: { actionId: "bad_header", fieldPath: "parameters" } }],
      fields: { parameters: [{ name: "X Trace Id", type: "string" }], responses: { success: {} } },
    },
    flow("account_flow", ["account"], []),
    flow("form_flow", ["form"], [], true),
  ],
});
const sources = await loadSources(doc, { resolver });

function recorder(answer: (request: Request) => Response = () => new Response("{}", { headers: { "content-type": "application/json" } })) {
  const requests: Request[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    const request = new Request(url, init);
    requests.push(request);
    return answer(request);
  }) as unknown as typeof globalThis.fetch;
  return { requests, fetch };
}
const run = (flowId: string, input: unknown, options: RunOptions = {}) => runFlow(doc, flowId, input, { sources, ...options });

describe("header parameters whose name is not an HTTP token", () => {
  it("a link that feeds one fails the run before anything is sent, naming action, operation and parameter", async () => {
    const { requests, fetch } = recorder();
    const error = await run("linked_bad_header", { parameters: { trace: "t-1" } }, { fetch }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FlowRunError);
    expect((error as Error).message).toMatch(/action "bad_header" \(operation "bad_header"\): header parameter "X Trace Id" is not a valid HTTP header name/);
    expect(requests).toEqual([]);
  });

  it("a required one fails the run before anything is sent", async () => {
    const { requests, fetch } = recorder();
    await expect(run("required_bad_header_flow", {}, { fetch })).rejects.toThrow(/header parameter "X:Key" is not a valid HTTP header name/);
    expect(requests).toEqual([]);
  });

  it("one fed by parameterDefaults fails the run before anything is sent, without showing the value", async () => {
    const { requests, fetch } = recorder();
    const error = await run("unfed_bad_header", { parameters: { fine: "f" } }, { fetch, parameterDefaults: { left: { "X Trace Id": "secret-trace" } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FlowRunError);
    expect((error as Error).message).toMatch(/header parameter "X Trace Id"/);
    expect((error as Error).message).not.toContain("secret-trace");
    expect(requests).toEqual([]);
  });

  it("one that only a whole-root copy feeds is a clear error, not a TypeError from Headers", async () => {
    const { requests, fetch } = recorder();
    const error = await run("whole_root_bad_header", { parameters: { "X Trace Id": "t" } }, { fetch }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FlowRunError);
    expect((error as Error).message).toMatch(/action "bad_header" \(operation "bad_header"\): header parameter "X Trace Id" is not a valid HTTP header name/);
    expect(requests).toEqual([]);
  });

  it("one that nothing feeds does not stop the run", async () => {
    const { requests, fetch } = recorder();
    await run("unfed_bad_header", { parameters: { fine: "f" } }, { fetch });
    expect(requests.map((r) => r.headers.get("x-fine"))).toEqual([null, "f"]);
  });
});

describe("parameterDefaults that are not strings", () => {
  it.each([
    { name: "a number", value: 73914286, text: "73914286" },
    { name: "a bigint-sized integer", value: 9007199254740991, text: "9007199254740991" },
  ])("$name is masked as the text it is sent as", async ({ value, text }) => {
    const { requests, fetch } = recorder(() => new Response(JSON.stringify({ account: value, echo: `account ${text}` }), { headers: { "content-type": "application/json" } }));
    const parameterDefaults = { left: { account: value } };
    const { trace } = await run("account_flow", {}, { fetch, parameterDefaults });
    expect(new URL(requests[0]!.url).pathname).toBe(`/accounts/${text}`);
    expect(trace[0]!.request.url).toBe("https://left.invalid/accounts/***");
    expect(JSON.stringify(trace[0]!.response!.body)).not.toContain(text);
    const failing = recorder(() => new Response(`no account ${text}`, { status: 404, headers: { "content-type": "text/plain" } }));
    const error = await run("account_flow", {}, { fetch: failing.fetch, parameterDefaults }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as Error).message).not.toContain(text);
  });

  it("a boolean is not a secret: masking true/false would garble every trace and reveal nothing", async () => {
    const { fetch } = recorder(() => new Response(JSON.stringify({ note: "flag=false", ok: true }), { headers: { "content-type": "application/json" } }));
    const { trace } = await run("account_flow", {}, { fetch, parameterDefaults: { left: { account: 5, pin: false } } });
    expect(trace[0]!.response!.body).toEqual({ note: "flag=false", ok: true });
  });
});

describe("secrets echoed percent-encoded", () => {
  const secret = "s3cr3t/key+v@l";
  const credentialFetch = (body: string, status = 200, type = "application/json") => recorder(() => new Response(body, { status, headers: { "content-type": type } }));

  it("are masked in response bodies in the trace", async () => {
    const encoded = encodeURIComponent(secret);
    const { fetch } = credentialFetch(JSON.stringify({ next: `https://left.invalid/accounts/${encoded}?page=2`, lower: encoded.toLowerCase(), raw: secret }));
    const { trace } = await run("account_flow", {}, { fetch, parameterDefaults: { left: { account: secret } } });
    expect(trace[0]!.response!.body).toEqual({ next: "https://left.invalid/accounts/***?page=2", lower: "***", raw: "***" });
  });

  it("are masked in HTTP error messages and bodies", async () => {
    const { fetch } = credentialFetch(`no such account: /accounts/${encodeURIComponent(secret)}`, 404, "text/plain");
    const error = await run("account_flow", {}, { fetch, parameterDefaults: { left: { account: secret } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as Error).message).toContain("no such account: /accounts/***");
    expect(JSON.stringify((error as HttpError).body)).not.toContain("s3cr3t");
  });

  // A login redirect carries the whole URL asked for in its query, encoded once more: the secret in
  // that URL's path is then encoded twice (or more, when redirects nest).
  it.each([
    { levels: 1, location: (url: string) => `https://login.invalid/login?next=${new URL(url).pathname}` },
    { levels: 2, location: (url: string) => `https://login.invalid/login?return_to=${encodeURIComponent(url)}` },
    { levels: 3, location: (url: string) => `https://login.invalid/login?continue=${encodeURIComponent(`https://sso.invalid/?return_to=${encodeURIComponent(url)}`)}` },
  ])("are masked when encoded $levels time(s) in a redirect's URL, in the trace's notes and in the error", async ({ levels, location }) => {
    const { fetch } = recorder((request) =>
      request.url.startsWith("https://login.invalid/")
        ? new Response(`sign in first: ${request.url}`, { status: 401, headers: { "content-type": "text/plain" } })
        : new Response(null, { status: 302, headers: { location: location(request.url) } }),
    );
    const error = (await run("account_flow", {}, { fetch, parameterDefaults: { left: { account: secret } } }).catch((e: unknown) => e)) as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    let encoded = secret;
    const forms = [secret];
    for (let i = 0; i < 3; i++) forms.push((encoded = encodeURIComponent(encoded)));
    // The encoded forms differ from one level to the next (so this checks each level).
    expect(new Set(forms).size).toBe(4);
    const shown = [error.message, JSON.stringify(error.trace)].join("\n");
    for (const form of forms) expect(shown).not.toContain(form);
    expect(error.trace[0]!.notes.join("\n")).toMatch(/redirected by HTTP 302 from GET https:\/\/left\.invalid\/accounts\/\*\*\* to https:\/\/login\.invalid\/login\?\w+=\S*\*\*\*/);
    expect(error.message).toContain("sign in first: https://login.invalid/login?");
  });

  it("a secret that JSON escapes or that looks like JSON syntax is masked without breaking the body", async () => {
    const { fetch } = credentialFetch(JSON.stringify({ quoted: 'say "hi" now', count: 12345, list: ["12345"] }));
    const { trace } = await run("account_flow", {}, { fetch, parameterDefaults: { left: { account: 'say "hi"', pin: 12345 } } });
    expect(trace[0]!.response!.body).toEqual({ quoted: "*** now", count: "***", list: ["***"] });
  });
});

describe("form bodies: allowReserved in an encoding entry", () => {
  it("keeps reserved characters of that field as they are, and percent-encodes the others", async () => {
    const { requests, fetch } = recorder();
    const requestBody = { redirect: "https://a.example/x?y=1", tags: ["a/b", "c:d"], meta: { path: "/p" }, note: "a/b c" };
    await run("form_flow", { requestBody }, { fetch });
    expect(requests[0]!.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(await requests[0]!.text()).toBe("redirect=https://a.example/x?y=1&tags=a/b&tags=c:d&meta%5Bpath%5D=/p&note=a%2Fb%20c");
  });
});

describe("the trace is masked with every secret the run met", () => {
  const api = {
    openapi: "3.1.0",
    info: { title: "Later", version: "1" },
    servers: [{ url: "https://later.invalid" }],
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    paths: {
      "/open": { get: { operationId: "open", responses: { "200": { description: "ok" } } } },
      "/closed": { get: { operationId: "closed", security: [{ bearer: [] }], responses: { "200": { description: "ok" } } } },
    },
  };
  const later = load({
    agentsJson: "0.1.0",
    info: { title: "Later", version: "1.0.0", description: "d" },
    sources: [{ id: "api", path: "api.json" }],
    flows: [
      {
        id: "open_then_closed",
        title: "Open, then closed",
        description: "d",
        actions: [
          { id: "open", sourceId: "api", operationId: "open" },
          { id: "closed", sourceId: "api", operationId: "closed" },
        ],
        links: [],
        fields: { parameters: [], responses: { success: {} } },
      },
    ],
  });

  it("a credential that only a later action sends is masked where an earlier response echoed it", async () => {
    const laterSources = await loadSources(later, { resolver: { read: async (location) => ({ text: JSON.stringify(api), location: `/local/${location}` }) } });
    const { fetch } = recorder(() => new Response(JSON.stringify({ hint: "send tok-later-123 next" }), { headers: { "content-type": "application/json" } }));
    const { trace } = await runFlow(later, "open_then_closed", {}, { sources: laterSources, fetch, credentials: { api: { bearer: { token: "tok-later-123" } } } });
    expect(trace[0]!.response!.body).toEqual({ hint: "send *** next" });
    expect(trace[1]!.request.headers.authorization).toBe("***");
    expect(JSON.stringify(trace)).not.toContain("tok-later-123");
  });
});

describe("a form body value with a lone surrogate", () => {
  it("is refused before anything is sent, with a clear error rather than a URIError", async () => {
    const { requests, fetch } = recorder();
    const error = await run("form_flow", { requestBody: { redirect: "https://x.invalid/\uD800" } }, { fetch }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FlowRunError);
    expect((error as Error).message).toBe(`action "form" (operation "form"): the request body cannot be sent: a value contains a lone surrogate (U+D800 at index 18), which has no UTF-8 form`);
    expect(requests).toHaveLength(0);
  });
});
