import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AgentsJsonLoadError,
  AmbiguousFlowError,
  FlowInputError,
  HttpError,
  LinkResolutionError,
  load,
  MissingParameterError,
  PlanError,
  ResponseParseError,
  ResponseTooLargeError,
  runFlow,
  TransportError,
  UnknownFlowError,
} from "@flowspec/agents-json";
import { closedPort, startServer, type Received } from "./support/server.js";

const fixtures = join(import.meta.dirname, "fixtures");

const flow = (id: string, actions: [string, string][], links: [string, string, string, string][], fields: Record<string, unknown> = {}) => ({
  id,
  title: id,
  description: `The ${id} flow`,
  actions: actions.map(([actionId, operationId]) => ({ id: actionId, sourceId: "widgets", operationId })),
  links: links.map(([oa, of, ta, tf]) => ({ origin: { actionId: oa, fieldPath: of }, target: { actionId: ta, fieldPath: tf } })),
  fields: { parameters: [], responses: { success: {} }, ...fields },
});
const param = (name: string, type = "string", required = false) => ({ name, type, required });

const document = {
  agentsJson: "0.1.0",
  info: { title: "Widgets", version: "1.0.0", description: "Widget flows" },
  sources: [{ id: "widgets", path: "widgets.openapi.yaml" }],
  flows: [
    flow(
      "get_widget_flow",
      [["get", "get_widget"]],
      [
        ["get_widget_flow", "parameters.id", "get", "parameters.id"],
        ["get_widget_flow", "parameters.request_id", "get", "parameters.X-Request-Id"],
        ["get_widget_flow", "parameters.theme", "get", "parameters.theme"],
        ["get_widget_flow", "parameters.tags", "get", "parameters.tags"],
        ["get_widget_flow", "parameters.filter", "get", "parameters.filter"],
        ["get_widget_flow", "parameters.ids", "get", "parameters.ids"],
        ["get_widget_flow", "parameters.verbose", "get", "parameters.verbose"],
      ],
      {
        parameters: [param("id", "string", true), param("request_id", "string", true), param("theme"), param("tags", "array"), param("filter", "object"), param("ids", "array"), param("verbose", "boolean")],
      },
    ),
    flow(
      "create_widget_flow",
      [["create", "create_widget"]],
      [
        ["create_widget_flow", "parameters.name", "create", "requestBody.name"],
        ["create_widget_flow", "parameters.colour", "create", "requestBody.colours.0"],
        ["create_widget_flow", "parameters.meta", "create", "requestBody.meta"],
        ["create", "responses.success.id", "create_widget_flow", "responses.success.widget_id"],
      ],
      { parameters: [param("name", "string", true), param("colour"), param("meta", "object")] },
    ),
    flow("put_note_flow", [["put", "put_note"]], [["put_note_flow", "parameters.text", "put", "requestBody"]], { parameters: [param("text", "string", true)] }),
    flow(
      "chain_flow",
      [
        ["first", "get_status"],
        ["second", "get_status"],
      ],
      [
        ["chain_flow", "parameters.code", "first", "parameters.code"],
        ["first", "responses.success.data.0.code", "second", "parameters.code"],
      ],
      { parameters: [param("code", "string", true)] },
    ),
    flow("status_flow", [["status", "get_status"]], [["status_flow", "parameters.code", "status", "parameters.code"]], { parameters: [param("code", "string", true)] }),
    flow("bad_operation_flow", [["x", "no_such_operation"]], []),
    flow("body_flow", [["create", "create_widget"]], [["body_flow", "requestBody", "create", "requestBody"]], {
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["name"], properties: { name: { type: "string" }, colours: { type: "array" } } } } } },
    }),
    flow("twice", [["a", "get_status"]], []),
    flow("twice", [["b", "get_status"]], []),
  ],
};
const doc = load(document, { file: join(fixtures, "widgets.agents.json") });

let server: Awaited<ReturnType<typeof startServer>>;
let guesses = 0;
let attempts = 0;
beforeAll(async () => {
  server = await startServer([
    (r) =>
      r.method === "GET" && r.path.startsWith("/widgets/")
        ? { body: { id: r.path.split("/")[2], cookie: r.headers.cookie }, headers: { "set-cookie": "sid=renewed", "x-echo": String(r.headers.cookie) } }
        : undefined,
    (r) => (r.method === "POST" && r.path === "/widgets" ? { status: 201, body: { id: "w-9" } } : undefined),
    (r) => (r.method === "PUT" && r.path === "/notes" ? { status: 204 } : undefined),
    (r) => (r.path === "/status/list" ? { body: { data: [{ code: "ok" }] } } : undefined),
    (r) => (r.path === "/status/empty" ? { body: { data: [] } } : undefined),
    (r) => (r.path === "/status/ok" ? { body: { fine: true } } : undefined),
    (r) => (r.path === "/status/teapot" ? { status: 418, body: { error: "I am a teapot", echo: r.headers.cookie } } : undefined),
    (r) => (r.path === "/status/boom" ? { status: 500, raw: "internal error", headers: { "content-type": "text/plain" } } : undefined),
    (r) => (r.path === "/status/html" ? { raw: "<html>not json</html>", headers: { "content-type": "application/json" } } : undefined),
    (r) => (r.path === "/status/array" ? { body: [1, 2] } : undefined),
    (r) => (r.path === "/status/big" ? { body: { blob: "x".repeat(5000) } } : undefined),
    (r) => (r.path === "/status/guess" ? (++guesses < 2 ? { status: 503, headers: { "retry-after": "1e3" }, body: {} } : { body: { attempts: guesses } }) : undefined),
    (r) => (r.path === "/status/flaky" ? (++attempts < 2 ? { status: 503, headers: { "retry-after": "0" }, body: {} } : { body: { attempts } }) : undefined),
  ]);
});
afterAll(() => server.close());
const base = () => ({ servers: { widgets: server.url }, credentials: { widgets: { session: { value: "sid-secret" } } } });
const sent = (from: number): Received[] => server.received.slice(from);

describe("runFlow with the widgets fixture (header, cookie, styles, bodies)", () => {
  it("places path, header, cookie and query parameters by their declared location and style", async () => {
    const { result, trace } = await runFlow(
      doc,
      "get_widget_flow",
      { parameters: { id: "a/b c", request_id: "req-1", theme: "dark", tags: ["x", "y"], filter: { colour: "red", size: "L" }, ids: ["1", "2"], verbose: false } },
      base(),
    );
    const received = server.received.at(-1)!;
    expect(received.path).toBe("/widgets/a%2Fb%20c");
    expect(received.headers["x-request-id"]).toBe("req-1");
    expect(received.headers.cookie).toBe("theme=dark; sid=sid-secret");
    expect(received.query.getAll("tags")).toEqual(["x", "y"]);
    expect(received.query.get("filter[colour]")).toBe("red");
    expect(received.query.get("filter[size]")).toBe("L");
    expect(received.query.get("ids")).toBe("1|2");
    expect(received.query.get("verbose")).toBe("false");
    expect(result).toEqual({ success: { id: "a%2Fb%20c", cookie: "theme=dark; sid=sid-secret" } });
    expect(trace[0]!.request.headers.cookie).toBe("***");
    // The response's headers are redacted too: a cookie set by the server, a secret echoed back.
    expect(trace[0]!.response!.headers["set-cookie"]).toBe("***");
    expect(trace[0]!.response!.headers["x-echo"]).toBe("theme=dark; sid=***");
  });

  it("falls back to the next security requirement (basic) and redacts it", async () => {
    const { trace } = await runFlow(doc, "get_widget_flow", { parameters: { id: "1", request_id: "r" } }, { servers: { widgets: server.url }, credentials: { widgets: { basic: { username: "ada", password: "pw" } } } });
    expect(server.received.at(-1)!.headers.authorization).toBe(`Basic ${Buffer.from("ada:pw").toString("base64")}`);
    expect(trace[0]!.request.headers.authorization).toBe("***");
  });

  it("sends form bodies (arrays repeated, objects as JSON) and assembles the flow result from output links", async () => {
    const { result } = await runFlow(doc, "create_widget_flow", { parameters: { name: "Gizmo", colour: "red", meta: { a: 1 } } }, base());
    const received = server.received.at(-1)!;
    expect(received.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(received.body).toBe("name=Gizmo&colours=red&meta=%7B%22a%22%3A1%7D");
    expect(result).toEqual({ success: { widget_id: "w-9" } });
  });

  it("sends text/plain bodies without auth when security is [] and reads 204 as null", async () => {
    const { result } = await runFlow(doc, "put_note_flow", { parameters: { text: "hello" } }, { servers: { widgets: server.url } });
    const received = server.received.at(-1)!;
    expect(received.body).toBe("hello");
    expect(received.headers["content-type"]).toBe("text/plain");
    expect(received.headers.authorization).toBeUndefined();
    expect(received.headers.cookie).toBeUndefined();
    expect(result).toEqual({ success: null });
  });

  it("chains on responses.success.data.0.code", async () => {
    const { result, trace } = await runFlow(doc, "chain_flow", { parameters: { code: "list" } }, { servers: { widgets: server.url } });
    expect(trace.map((s) => s.request.url)).toEqual([`${server.url}/status/list`, `${server.url}/status/ok`]);
    expect(result).toEqual({ success: { fine: true } });
  });

  it("reports responses that do not match their schema as warnings when validateResponses is on", async () => {
    const { warnings, trace } = await runFlow(doc, "status_flow", { parameters: { code: "array" } }, { servers: { widgets: server.url }, validateResponses: true });
    expect(warnings).toEqual(['action "status": response 200 does not match the "get_status" schema at /: must be object, got an array']);
    expect(trace[0]!.notes).toEqual(warnings);
    expect((await runFlow(doc, "status_flow", { parameters: { code: "array" } }, { servers: { widgets: server.url } })).warnings).toEqual([]);
    expect((await runFlow(doc, "status_flow", { parameters: { code: "ok" } }, { servers: { widgets: server.url }, validateResponses: true })).warnings).toEqual([]);
  });

  it("drops body nulls the flow schema does not allow (OpenAI strict-mode tool calls send them)", async () => {
    await runFlow(doc, "body_flow", { requestBody: { name: "Gizmo", colours: null } }, base());
    expect(server.received.at(-1)!.body).toBe("name=Gizmo");
    await expect(runFlow(doc, "body_flow", { requestBody: { name: null } }, base())).rejects.toThrow(/\/requestBody\/name: is required/);
  });

  it("retries idempotent methods on 503, honouring Retry-After", async () => {
    attempts = 0;
    const { result } = await runFlow(doc, "status_flow", { parameters: { code: "flaky" } }, { servers: { widgets: server.url }, retry: { limit: 2 } });
    expect(result).toEqual({ success: { attempts: 2 } });
  });
});

describe("runFlow retries by runtime's rules", () => {
  // "1e3" is neither delay-seconds nor an HTTP-date: a bare Number() read it as 1000 s (capped to a
  // 60 s wait). Unreadable advice is ignored, and the backoff (1 ms here, with jitter) applies.
  it("ignores a Retry-After that is neither delay-seconds nor an HTTP-date", { timeout: 5_000 }, async () => {
    guesses = 0;
    const { result } = await runFlow(doc, "status_flow", { parameters: { code: "guess" } }, { servers: { widgets: server.url }, retry: { limit: 2, baseDelayMs: 1 } });
    expect(result).toEqual({ success: { attempts: 2 } });
  });
});

describe("runFlow bad input: a clear error and nothing sent that should not be", () => {
  const run = (flowId: string, input: unknown, options = {}) => runFlow(doc, flowId, input, { ...base(), ...options });

  it("unknown flow id", async () => {
    const before = server.received.length;
    await expect(run("nope", {})).rejects.toThrow(UnknownFlowError);
    await expect(run("nope", {})).rejects.toThrow(/no flow "nope" in "Widgets"; flows: get_widget_flow/);
    expect(sent(before)).toEqual([]);
  });

  it("an ambiguous flow id", async () => {
    await expect(run("twice", {})).rejects.toThrow(AmbiguousFlowError);
  });

  it("a missing required flow parameter", async () => {
    const before = server.received.length;
    const error = await run("get_widget_flow", { parameters: { id: "1" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FlowInputError);
    expect((error as FlowInputError).message).toMatch(/\/parameters\/request_id: is required/);
    await expect(run("get_widget_flow", { parameters: { id: 1, request_id: "r" } })).rejects.toThrow(/\/parameters\/id: must be string, got number 1/);
    expect(sent(before)).toEqual([]);
  });

  it("unknown parameters: dropped with a warning in compat, an error in strict", async () => {
    const { warnings } = await run("status_flow", { parameters: { code: "ok", extra: 1 } });
    expect(warnings).toEqual(['flow "status_flow": unknown parameter "extra" was dropped']);
    await expect(run("status_flow", { parameters: { code: "ok", extra: 1 } }, { mode: "strict" })).rejects.toThrow(/has no parameter "extra"/);
  });

  it("an unknown operationId fails the plan check", async () => {
    const before = server.received.length;
    const error = await run("bad_operation_flow", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlanError);
    expect((error as PlanError).message).toMatch(/operation-resolved: operation "no_such_operation" does not exist in source "widgets"/);
    expect(sent(before)).toEqual([]);
  });

  it("an unreachable server (a closed loopback port)", async () => {
    const port = await closedPort();
    const error = await run("status_flow", { parameters: { code: "ok" } }, { servers: { widgets: `http://127.0.0.1:${port}` } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).message).toMatch(/action "status" \(operation "get_status", GET http:\/\/127\.0\.0\.1:\d+\/status\/ok\): ECONNREFUSED/);
    expect((error as TransportError).trace).toHaveLength(1);
  });

  it("a 4xx response: HttpError with action, operation, status and body, secrets redacted", async () => {
    const error = await run("get_widget_flow", { parameters: { id: "1", request_id: "r" } }).then(() => run("status_flow", { parameters: { code: "teapot" } }, { credentials: { widgets: { session: { value: "sid-secret" } } } })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    const http = error as HttpError;
    expect(http.status).toBe(418);
    expect(http.actionId).toBe("status");
    expect(http.operationId).toBe("get_status");
    expect(http.message).toMatch(/action "status" \(operation "get_status", GET .*\/status\/teapot\) failed with HTTP 418: .*I am a teapot/);
    expect(http.trace).toHaveLength(1);
    expect(http.body).toEqual({ error: "I am a teapot", echo: "sid=***" });
    expect(http.message).not.toContain("sid-secret");
  });

  it("a 5xx response with a text body", async () => {
    const error = await run("status_flow", { parameters: { code: "boom" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(500);
    expect((error as HttpError).body).toBe("internal error");
  });

  it("a response that says JSON but is not", async () => {
    const error = await run("status_flow", { parameters: { code: "html" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseParseError);
    expect((error as ResponseParseError).message).toMatch(/said application\/json but the body is not JSON: "<html>not json<\/html>"/);
  });

  it("a response over maxResponseBytes", async () => {
    await expect(run("status_flow", { parameters: { code: "big" } }, { maxResponseBytes: 1000 })).rejects.toThrow(ResponseTooLargeError);
  });

  it("a responses.success path through a missing intermediate value stops before the next call", async () => {
    const before = server.received.length;
    const error = await run("chain_flow", { parameters: { code: "empty" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LinkResolutionError);
    expect((error as LinkResolutionError).message).toMatch(/"responses\.success\.data\.0\.code" of action "first" fails at "responses\.success\.data" \(null or empty\)/);
    expect(sent(before).map((r) => r.path)).toEqual(["/status/empty"]);
  });

  it("a required operation parameter no link fed", async () => {
    const noLinks = load({ ...document, flows: [flow("f", [["s", "get_status"]], [])] }, { file: join(fixtures, "x.json") });
    await expect(runFlow(noLinks, "f", {}, base())).rejects.toThrow(MissingParameterError);
    await expect(runFlow(noLinks, "f", {}, base())).rejects.toThrow(/required path parameter "code" of "get_status" has no value \(no link feeds it/);
  });

  it("a __proto__ fieldPath is a load error (fieldpath-unsafe) and nothing runs", async () => {
    const before = server.received.length;
    const polluted = { ...document, flows: [flow("f", [["s", "get_status"]], [["f", "parameters.code", "s", "parameters.__proto__.polluted"]], { parameters: [param("code")] })] };
    await expect(runFlow(polluted, "f", { parameters: { code: "ok" } }, base())).rejects.toThrow(AgentsJsonLoadError);
    await expect(runFlow(polluted, "f", { parameters: { code: "ok" } }, base())).rejects.toThrow(/fieldpath-unsafe/);
    expect(sent(before)).toEqual([]);
  });

  it("constructor and prototype fieldPaths are ordinary keys and never reach Object.prototype", async () => {
    const links: [string, string, string, string][] = [
      ["f", "parameters.code", "s", "requestBody.constructor.prototype.polluted"],
      ["f", "parameters.code", "s", "requestBody.prototype.polluted"],
      ["s", "responses.success.constructor", "f", "responses.success.constructor.prototype.polluted"],
      ["f", "parameters.constructor", "f", "responses.success.prototype"],
    ];
    const safe = load({ ...document, flows: [flow("f", [["s", "create_widget"]], links, { parameters: [param("code")] })] }, { file: join(fixtures, "x.json") });
    const { result } = await runFlow(safe, "f", { parameters: { code: "ok" } }, base());
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect(result).toEqual({});
    const form = new URLSearchParams(server.received.at(-1)!.body);
    expect(JSON.parse(form.get("constructor")!)).toEqual({ prototype: { polluted: "ok" } });
    expect(JSON.parse(form.get("prototype")!)).toEqual({ polluted: "ok" });
  });

  it("a per-call timeout and an aborted run", async () => {
    const slowFetch = (async (_url: unknown, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        if (init?.signal?.aborted) reject(init.signal.reason);
        init?.signal?.addEventListener("abort", () => reject(init.signal!.reason));
      })) as typeof fetch;
    await expect(run("status_flow", { parameters: { code: "ok" } }, { fetch: slowFetch, timeoutMs: 50 })).rejects.toThrow(/no response within 50 ms/);
    const controller = new AbortController();
    const running = run("status_flow", { parameters: { code: "ok" } }, { fetch: slowFetch, signal: controller.signal });
    controller.abort();
    await expect(running).rejects.toThrow(/the run was aborted/);
  });
});
