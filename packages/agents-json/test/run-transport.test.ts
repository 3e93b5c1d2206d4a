import { getEventListeners } from "node:events";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { load, loadSources, ResponseTooLargeError, runFlow, TransportError, type RunOptions, type SourceResolver } from "@flowspec/agents-json";

// Timeouts, the run signal, body size limits and what the executor works out once per flow,
// against a real loopback server and the real fetch (plus an injected fetch where that is clearer).
const openapi = {
  openapi: "3.1.0",
  info: { title: "Transport", version: "1" },
  servers: [{ url: "https://transport.invalid" }],
  components: { securitySchemes: { key: { type: "apiKey", in: "query", name: "api_key" } } },
  paths: {
    "/answer/{kind}": {
      parameters: [{ name: "kind", in: "path", required: true, schema: { type: "string" } }],
      get: { operationId: "answer", security: [{ key: [] }, {}], responses: { "200": { description: "ok", content: { "application/json": {} } } } },
    },
    "/echo": {
      post: {
        operationId: "echo",
        requestBody: { content: { "application/json": { schema: { type: "object", properties: { keep: { type: ["string", "null"] }, drop: { type: "string" } } } } } },
        responses: { "200": { description: "ok" } },
      },
    },
  },
};
const resolver: SourceResolver = { read: async () => ({ text: JSON.stringify(openapi), location: "https://transport.invalid/openapi.json" }) };
const doc = load({
  agentsJson: "0.1.0",
  info: { title: "Transport", version: "1.0.0", description: "d" },
  sources: [{ id: "t", path: "openapi.json" }],
  flows: [
    {
      id: "answer_flow",
      title: "answer",
      description: "one GET",
      actions: [{ id: "get", sourceId: "t", operationId: "answer" }],
      links: [{ origin: { actionId: "answer_flow", fieldPath: "parameters.kind" }, target: { actionId: "get", fieldPath: "parameters.kind" } }],
      fields: { parameters: [{ name: "kind", type: "string", required: true }], responses: { success: {} } },
    },
    {
      id: "three_flow",
      title: "three",
      description: "three GETs",
      actions: ["one", "two", "three"].map((id) => ({ id, sourceId: "t", operationId: "answer" })),
      links: ["one", "two", "three"].map((id) => ({ origin: { actionId: "three_flow", fieldPath: "parameters.kind" }, target: { actionId: id, fieldPath: "parameters.kind" } })),
      fields: { parameters: [{ name: "kind", type: "string", required: true }], responses: { success: {} } },
    },
    {
      id: "twelve_flow",
      title: "twelve",
      description: "more calls than node:events' default listener limit (10)",
      actions: Array.from({ length: 12 }, (_, i) => ({ id: `call_${i}`, sourceId: "t", operationId: "answer" })),
      links: Array.from({ length: 12 }, (_, i) => ({ origin: { actionId: "twelve_flow", fieldPath: "parameters.kind" }, target: { actionId: `call_${i}`, fieldPath: "parameters.kind" } })),
      fields: { parameters: [{ name: "kind", type: "string", required: true }], responses: { success: {} } },
    },
    {
      id: "echo_flow",
      title: "echo",
      description: "one POST",
      actions: [{ id: "post", sourceId: "t", operationId: "echo" }],
      links: [{ origin: { actionId: "echo_flow", fieldPath: "requestBody" }, target: { actionId: "post", fieldPath: "requestBody" } }],
      fields: {
        parameters: [],
        // Lets every null through to the request, where the operation's body schema decides.
        requestBody: {
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: { keep: { type: ["string", "null"] }, drop: { type: ["string", "null"] }, nested: { type: "object", properties: { gone: { type: ["string", "null"] } } } },
              },
            },
          },
        },
        responses: { success: {} },
      },
    },
  ],
});
const sources = await loadSources(doc, { resolver });

const big = JSON.stringify({ blob: "x".repeat(5000) });
const hanging: ServerResponse[] = [];
let closedHanging = 0;
const server = createServer((req, res) => {
  const kind = (req.url ?? "").split("?")[0]!.split("/")[2];
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    if (kind === "hang") {
      hanging.push(res);
      res.on("close", () => closedHanging++);
      return;
    }
    if (kind === "stall-body") {
      // Headers and half a body, then nothing.
      hanging.push(res);
      res.on("close", () => closedHanging++);
      res.writeHead(200, { "content-type": "application/json" });
      return void res.write('{"half":');
    }
    if (kind === "sized") {
      // A declared length under the limit: read in one go.
      res.writeHead(200, { "content-type": "application/json", "content-length": "11" });
      return void res.end('{"ok":true}');
    }
    if (kind === "sized-big") {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(Buffer.byteLength(big)) });
      return void res.end(big);
    }
    if (kind === "chunked-big") {
      // No Content-Length: the limit is found while the body arrives.
      res.writeHead(200, { "content-type": "application/json" });
      res.write(big.slice(0, 2500));
      return void res.end(big.slice(2500));
    }
    if (kind === "gzip-big") {
      // Small on the wire, over the limit once fetch has decoded it.
      const zipped = gzipSync(big);
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": String(zipped.byteLength) });
      return void res.end(zipped);
    }
    if (kind === "gzip-small") {
      const zipped = gzipSync('{"ok":"zipped"}');
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": String(zipped.byteLength) });
      return void res.end(zipped);
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ kind, url: req.url, body: Buffer.concat(chunks).toString("utf8") }));
  });
});
let base = "";
beforeAll(async () => {
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
});
const answer = (kind: string, options: RunOptions = {}) => runFlow(doc, "answer_flow", { parameters: { kind } }, { sources, servers: { t: base }, ...options });

describe("runFlow over a loopback server", () => {
  it("ends a call that gets no response within timeoutMs, and really aborts the request", async () => {
    const before = closedHanging;
    const started = performance.now();
    const error = await answer("hang", { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).message).toMatch(/action "get" \(operation "answer", GET http:\/\/127\.0\.0\.1:\d+\/answer\/hang\): no response within 100 ms/);
    expect(performance.now() - started).toBeLessThan(5_000);
    await expect.poll(() => closedHanging, { timeout: 5_000 }).toBe(before + 1);
    // The next run has its own controller: the timeout above does not touch it.
    expect((await answer("ok", { timeoutMs: 100 })).result).toEqual({ success: { kind: "ok", url: "/answer/ok", body: "" } });
  });

  it("ends a body that stalls after the headers at the timeout, and closes its connection", async () => {
    const before = closedHanging;
    // A second, so that the headers are in well before it even on a loaded machine: the timeout must
    // fire while the body is read.
    const error = await answer("stall-body", { timeoutMs: 1_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(/\/answer\/stall-body\): reading the response failed: no response within 1000 ms$/);
    await expect.poll(() => closedHanging, { timeout: 5_000 }).toBe(before + 1);
  });

  it("runs more timed calls in one run than node:events' default listener limit", async () => {
    const { trace } = await runFlow(doc, "twelve_flow", { parameters: { kind: "k" } }, { sources, servers: { t: base }, timeoutMs: 5_000, signal: new AbortController().signal });
    expect(trace.map((step) => step.request.url)).toEqual(Array.from({ length: 12 }, () => `${base}/answer/k`));
  });

  it("gives a global fetch replaced by a wrapper that wants a real AbortSignal one, so its timeouts still end calls", async () => {
    const platform = globalThis.fetch;
    // A wrapper that combines signals: AbortSignal.any takes a light signal but would never follow it.
    const combining = (url: string, init: RequestInit) => platform(url, { ...init, signal: AbortSignal.any([init.signal!]) });
    const strict = (url: string, init: RequestInit) => {
      if (!(init.signal instanceof AbortSignal)) throw new TypeError("Expected signal to be an instanceof AbortSignal");
      return platform(url, init);
    };
    // The same after an await (a token fetched first, say): the signal is already aborted when it combines.
    const combiningLater = async (url: string, init: RequestInit) => {
      await null;
      return platform(url, { ...init, signal: AbortSignal.any([init.signal!]) });
    };
    for (const wrapper of [combining, strict, combiningLater]) {
      globalThis.fetch = wrapper as typeof fetch;
      try {
        const before = closedHanging;
        await expect(answer("hang", { timeoutMs: 100 })).rejects.toThrow(/no response within 100 ms/);
        await expect.poll(() => closedHanging).toBe(before + 1);
        expect((await answer("ok", { timeoutMs: 1_000 })).result).toEqual({ success: { kind: "ok", url: "/answer/ok", body: "" } });
      } finally {
        globalThis.fetch = platform;
      }
    }
  });

  it("uses a global fetch replaced during the run, and its timeouts still end calls", async () => {
    const platform = globalThis.fetch;
    let wrapped = 0;
    const combining = (url: string, init: RequestInit) => {
      wrapped++;
      return platform(url, { ...init, signal: AbortSignal.any([init.signal!]) });
    };
    try {
      const before = closedHanging;
      const onRequest = () => void (globalThis.fetch = combining as typeof fetch);
      await expect(answer("hang", { timeoutMs: 100, hooks: { onRequest } })).rejects.toThrow(/no response within 100 ms/);
      await expect.poll(() => closedHanging).toBe(before + 1);
      expect(wrapped).toBe(1);
    } finally {
      globalThis.fetch = platform;
    }
  });

  it("aborts with the caller's signal while a timeout is also set, and before any call when already aborted", async () => {
    const before = closedHanging;
    const controller = new AbortController();
    const running = answer("hang", { signal: controller.signal, timeoutMs: 10_000 });
    setTimeout(() => controller.abort(), 50);
    await expect(running).rejects.toThrow(/the run was aborted/);
    await expect.poll(() => closedHanging).toBe(before + 1);
    await expect(answer("ok", { signal: AbortSignal.abort() })).rejects.toThrow(/the run was aborted before action "get"/);
  });

  it("reads a body of declared length in one go, and refuses one declared over maxResponseBytes", async () => {
    expect((await answer("sized")).result).toEqual({ success: { ok: true } });
    const error = await answer("sized-big", { maxResponseBytes: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toMatch(/^action "get" \(operation "answer", GET .*\/answer\/sized-big\): the response body exceeds maxResponseBytes \(Content-Length \d+ bytes > 1000\)$/);
    expect((error as Error).cause).toMatchObject({ name: "ResponseTooLargeError", limit: 1000, declared: true });
    expect((await answer("sized-big", { maxResponseBytes: 10_000 })).result).toEqual({ success: JSON.parse(big) });
  });

  it("names the masked request when a body without Content-Length passes maxResponseBytes while it arrives", async () => {
    // The request line is written only when the limit is passed (not for every body read); it must still be masked then.
    const credentials = { t: { key: { value: "query-secret" } } };
    const error = await answer("chunked-big", { maxResponseBytes: 1000, credentials }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toMatch(/^action "get" \(operation "answer", GET http:\/\/127\.0\.0\.1:\d+\/answer\/chunked-big\?api_key=\*\*\*\): the response body exceeds maxResponseBytes \(at least \d+ bytes > 1000\)$/);
    expect((error as Error).message).not.toContain("query-secret");
    expect((await answer("chunked-big", { maxResponseBytes: 10_000, credentials })).result).toEqual({ success: JSON.parse(big) });
  });

  it("counts the decoded bytes of a compressed body against maxResponseBytes, whatever its content-length says", async () => {
    expect((await answer("gzip-small", { maxResponseBytes: 1000 })).result).toEqual({ success: { ok: "zipped" } });
    await expect(answer("gzip-big", { maxResponseBytes: 1000 })).rejects.toThrow(ResponseTooLargeError);
  });

  it("masks a secret query parameter in the trace and in errors, and leaves other URLs alone", async () => {
    const credentials = { t: { key: { value: "query-secret" } } };
    const { trace } = await answer("ok", { credentials });
    expect(trace[0]!.request.url).toBe(`${base}/answer/ok?api_key=***`);
    expect(JSON.stringify(trace)).not.toContain("query-secret");
    const error = await answer("hang", { credentials, timeoutMs: 50 }).catch((e: unknown) => e);
    expect((error as Error).message).toContain("/answer/hang?api_key=***): no response within 50 ms");
    expect((error as Error).message).not.toContain("query-secret");
    expect((await answer("ok")).trace[0]!.request.url).toBe(`${base}/answer/ok`);
  });
});

describe("runFlow timeouts with an injected fetch", () => {
  it("reports a timeout that fired during a retry back-off as a timeout, and stops retrying", async () => {
    let calls = 0;
    const fetch = (async (_url: string, init: RequestInit) => {
      calls++;
      if (init.signal?.aborted) throw init.signal.reason;
      return new Response("{}", { status: 503, headers: { "content-type": "application/json", "retry-after": "0.2" } });
    }) as unknown as typeof globalThis.fetch;
    const error = await runFlow(doc, "answer_flow", { parameters: { kind: "x" } }, { sources, fetch, timeoutMs: 50, retry: { limit: 5 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(/no response within 50 ms$/);
    expect(calls).toBe(2);
  });
});

describe("runFlow body limits with an injected fetch", () => {
  it.each(["lots", "", "10, 10"])("does not trust content-length %j: the body is still counted against maxResponseBytes", async (declared) => {
    const fetch = (async () =>
      new Response(JSON.stringify({ pad: "x".repeat(5000) }), { headers: { "content-type": "application/json", "content-length": declared } })) as unknown as typeof globalThis.fetch;
    const run = (maxResponseBytes: number) => runFlow(doc, "answer_flow", { parameters: { kind: "x" } }, { sources, fetch, maxResponseBytes });
    await expect(run(1000)).rejects.toThrow(ResponseTooLargeError);
    expect(((await run(10_000)).result.success as { pad: string }).pad).toHaveLength(5000);
  });
});

describe("runFlow retries with an injected fetch", () => {
  it("leaves no listener on the caller's signal after back-offs, so a long-lived signal does not collect them", async () => {
    let calls = 0;
    const fetch = (async () =>
      ++calls < 4 ? new Response("{}", { status: 503, headers: { "content-type": "application/json" } }) : new Response('{"ok":true}', { headers: { "content-type": "application/json" } })) as unknown as typeof globalThis.fetch;
    const signal = new AbortController().signal;
    const { result } = await runFlow(doc, "answer_flow", { parameters: { kind: "x" } }, { sources, fetch, signal, retry: { limit: 5, baseDelayMs: 1 } });
    expect(result).toEqual({ success: { ok: true } });
    expect(calls).toBe(4);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });
});

describe("runFlow traces with an injected fetch", () => {
  it("keeps a response header named __proto__ in the trace as an own property", async () => {
    const fetch = (async () => new Response("{}", { headers: [["content-type", "application/json"], ["__proto__", "odd"]] })) as unknown as typeof globalThis.fetch;
    const { trace } = await runFlow(doc, "answer_flow", { parameters: { kind: "x" } }, { sources, fetch });
    const headers = trace[0]!.response!.headers;
    expect(Object.hasOwn(headers, "__proto__")).toBe(true);
    expect(headers["__proto__"]).toBe("odd");
    expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
  });
});

describe("runFlow per-call timeouts", () => {
  // An injected fetch that answers after the given delay per call (and honours the signal).
  const slowFetch = (delays: number[], calls: string[]) =>
    (async (url: string, init: RequestInit) => {
      const delay = delays[calls.length] ?? 0;
      calls.push(url);
      return new Promise<Response>((resolve, reject) => {
        const timer = setTimeout(() => resolve(new Response("{}", { headers: { "content-type": "application/json" } })), delay);
        init.signal?.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(init.signal!.reason);
        });
      });
    }) as unknown as typeof globalThis.fetch;

  it("times each call, not the run: calls under timeoutMs succeed however long the run takes", async () => {
    const calls: string[] = [];
    const { trace } = await runFlow(doc, "three_flow", { parameters: { kind: "k" } }, { sources, fetch: slowFetch([60, 60, 60], calls), timeoutMs: 150 });
    expect(calls).toHaveLength(3);
    expect(trace.reduce((sum, step) => sum + step.durationMs, 0)).toBeGreaterThan(170);
  });

  it("ends the call that runs out of time, whichever call of the run it is", async () => {
    // The third call starts well before the first call's 150 ms are up, and still gets its own 150 ms.
    const calls: string[] = [];
    const started = performance.now();
    const error = await runFlow(doc, "three_flow", { parameters: { kind: "k" } }, { sources, fetch: slowFetch([10, 60, 1_000], calls), timeoutMs: 150 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(/^action "three" \(operation "answer", GET https:\/\/transport\.invalid\/answer\/k\): no response within 150 ms$/);
    expect((error as TransportError).trace?.map((step) => step.actionId)).toEqual(["one", "two", "three"]);
    expect(performance.now() - started).toBeLessThan(900);
  });
});

describe("runFlow with a timeout longer than a timer holds", () => {
  it("waits out a call under a timeoutMs past 2^31 - 1 ms without a timer that overflows to 1 ms", async () => {
    const overflows: string[] = [];
    const onWarning = (warning: Error) => void (warning.name === "TimeoutOverflowWarning" && overflows.push(warning.message));
    process.on("warning", onWarning);
    try {
      const fetch = (async () => {
        await new Promise((resolve) => setTimeout(resolve, 40));
        return new Response("{}", { headers: { "content-type": "application/json" } });
      }) as unknown as typeof globalThis.fetch;
      const { result } = await runFlow(doc, "answer_flow", { parameters: { kind: "x" } }, { sources, fetch, timeoutMs: 30 * 24 * 3600 * 1000 });
      expect(result).toEqual({ success: {} });
      await new Promise((resolve) => setTimeout(resolve, 5)); // warnings are emitted on a later tick
      expect(overflows).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});

describe("runFlow repeated (what is worked out once per flow and per operation)", () => {
  it("gives the same requests and results on every run, with other servers, sources and arguments", async () => {
    const urls: string[] = [];
    const fetch = (async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify({ url }), { headers: { "content-type": "application/json" } });
    }) as unknown as typeof globalThis.fetch;
    const first = await runFlow(doc, "answer_flow", { parameters: { kind: "a b" } }, { sources, fetch });
    const second = await runFlow(doc, "answer_flow", { parameters: { kind: "c/d" } }, { sources, fetch, servers: { t: "https://other.invalid/base/" } });
    const third = await runFlow(doc, "answer_flow", { parameters: { kind: "e" } }, { resolver, fetch });
    expect(urls).toEqual(["https://transport.invalid/answer/a%20b", "https://other.invalid/base/answer/c%2Fd", "https://transport.invalid/answer/e"]);
    expect([first, second, third].map((r) => r.result)).toEqual(urls.map((url) => ({ success: { url } })));
  });

  it("sends a JSON body without nulls as it is, and drops the nulls its schema does not allow", async () => {
    const bodies: string[] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      bodies.push(init.body as string);
      return new Response("{}", { headers: { "content-type": "application/json" } });
    }) as unknown as typeof globalThis.fetch;
    const echo = (body: unknown) => runFlow(doc, "echo_flow", { requestBody: body }, { sources, fetch });
    await echo({ keep: "k", drop: "d", list: [null, { inner: 1 }] });
    await echo({ keep: null, drop: null, nested: { gone: null, kept: [1] } });
    expect(bodies).toEqual(['{"keep":"k","drop":"d","list":[null,{"inner":1}]}', '{"keep":null,"nested":{"kept":[1]}}']);
  });
});
