import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiConnectionError,
  ApiError,
  ApiTimeoutError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  RunsClient,
  UnprocessableEntityError,
  ValidationError,
  isTerminalRun,
  type Run,
} from "@flowspec/agent-service";
import { startTestServer, type TestServer } from "@flowspec/agent-service/testing";
import { agentBody, clientFor } from "./support/clients.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function untilTerminal(client: RunsClient, runId: string): Promise<Run> {
  for (;;) {
    const run = await client.get(runId);
    if (isTerminalRun(run)) return run;
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe("RunsClient: calls", () => {
  it("creates a run with bearer auth and returns the unwrapped, typed Run", async () => {
    const { client } = clientFor(server);
    const run = await client.create(agentBody());
    expect(run).toMatchObject({ orgId: server.orgId, resourceType: "agent", input: { mode: "agent" } });
    expect(server.lastHeaders.create?.authorization).toBe(`Bearer ${server.token}`);
    expect(server.lastHeaders.create?.["content-type"]).toBe("application/json");
    expect((await client.get(run.runId)).runId).toBe(run.runId);
  });

  it("accepts a baseUrl with a trailing slash", async () => {
    const { client } = clientFor(server, { baseUrl: `${server.url}/` });
    const run = await client.create(agentBody());
    expect((await client.get(run.runId)).runId).toBe(run.runId);
    expect((await client.listPage({ limit: 1 })).list).toHaveLength(1);
    const split = clientFor(server, { baseUrl: "http://127.0.0.1:9", readBaseUrl: `${server.url}//` }).client;
    expect((await split.get(run.runId)).runId).toBe(run.runId);
  });

  it("accepts a token function, called per request", async () => {
    let calls = 0;
    const { client } = clientFor(server, { token: () => (calls++, server.token) });
    await client.listPage({ limit: 1 });
    await client.listPage({ limit: 1 });
    expect(calls).toBe(2);
  });

  it("refuses an invalid body before sending, listing every error", async () => {
    const { client } = clientFor(server);
    const before = server.requests.create;
    const error = await client.create({ ...agentBody(), resourceType: "tool", resourceId: "" } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain('/input/mode: resourceType "tool" requires input.mode "tool", got "agent"');
    expect((error as ValidationError).message).toContain("/resourceId:");
    expect(server.requests.create).toBe(before);
    await expect(client.respondToInteraction("r", "i", {})).rejects.toBeInstanceOf(ValidationError);
  });

  it("lists every run across pages, and one page with listPage", async () => {
    const { client } = clientFor(server);
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await client.create(agentBody({ contextId: "ctx-list" }))).runId);
    const page = await client.listPage({ contextId: "ctx-list", limit: 2 });
    expect(page).toMatchObject({ total: 5, offset: 0, limit: 2 });
    const all = [];
    for await (const run of client.list({ contextId: "ctx-list", pageSize: 2 })) all.push(run.runId);
    expect(all).toEqual([...ids].reverse());
  });

  it("does not yield a run twice when pages shift under it", async () => {
    const { client } = clientFor(server);
    for (let i = 0; i < 4; i++) await client.create(agentBody({ contextId: "ctx-shift" }));
    const seen: string[] = [];
    for await (const run of client.list({ contextId: "ctx-shift", pageSize: 2 })) {
      seen.push(run.runId);
      // A new run lands on top and pushes everything down by one.
      if (seen.length === 1) await client.create(agentBody({ contextId: "ctx-shift" }));
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(4);
  });

  it("cancels, and lists events after a sequence", async () => {
    const { client } = clientFor(server);
    const run = await client.create(agentBody());
    const final = await untilTerminal(client, run.runId);
    const page = await client.listEvents(run.runId, { afterSequence: 1, limit: 2 });
    expect(page.list.map((e) => e.sequence)).toEqual([2, 3]);
    expect(page.total).toBe(final.eventSequence);
    await expect(client.cancel(run.runId)).rejects.toBeInstanceOf(ConflictError);
  });

  it("responds to an interaction; the run leaves blocked and completes", async () => {
    const s = await startTestServer({ script: async (ctx) => void (await ctx.requestInteraction({ question: "ship it?" }, "approval_required")) });
    try {
      const { client } = clientFor(s);
      const run = await client.create(agentBody());
      let current: Run = run;
      while (current.status !== "blocked") current = await client.get(run.runId);
      const after = await client.respondToInteraction(run.runId, current.blockingInteractionId!, { decision: "approve" });
      expect(after.status).toBe("running");
      const final = await client.waitForCompletion(run.runId);
      expect(final.status).toBe("completed");
      const events = await client.listEvents(run.runId);
      expect(events.list.map((e) => e.event.type)).toContain("interaction.responded");
      await expect(client.respondToInteraction(run.runId, current.blockingInteractionId!, { decision: "approve" })).rejects.toBeInstanceOf(ConflictError);
      const cancelled = await client.cancel((await client.create(agentBody())).runId);
      expect(cancelled.status).toBe("canceled");
    } finally {
      await s.close();
    }
  });

  it("creates idempotently: same key and body → same run; other body → 422", async () => {
    const { client } = clientFor(server);
    const a = await client.create(agentBody({ idempotencyKey: "idem-1" }));
    const b = await client.create(agentBody({ idempotencyKey: "idem-1" }));
    expect(b.runId).toBe(a.runId);
    await expect(client.create(agentBody({ idempotencyKey: "idem-1", contextId: "x" }))).rejects.toBeInstanceOf(UnprocessableEntityError);
  });

  it("retries a create whose key is in flight (409 with Retry-After) and gets the same run", async () => {
    const s = await startTestServer({ inFlightRetryAfter: "0" });
    try {
      const { client, delays } = clientFor(s, {
        retry: { maxRetries: 50, sleep: (ms) => (delays.push(ms), new Promise((r) => setTimeout(r, 5))) },
      });
      s.fault({ route: "create", delayMs: 40 });
      const first = client.create(agentBody({ idempotencyKey: "idem-2" }));
      await new Promise((r) => setTimeout(r, 10));
      const second = await client.create(agentBody({ idempotencyKey: "idem-2" }));
      expect(second.runId).toBe((await first).runId);
      expect(delays.length).toBeGreaterThan(0);
      expect(delays.every((d) => d === 0)).toBe(true);
    } finally {
      await s.close();
    }
  });
});

describe("RunsClient: errors and retries", () => {
  it.each([
    { status: 400, Class: BadRequestError },
    { status: 401, Class: AuthenticationError },
    { status: 403, Class: PermissionDeniedError },
    { status: 404, Class: NotFoundError },
    { status: 409, Class: ConflictError },
    { status: 422, Class: UnprocessableEntityError },
    { status: 429, Class: RateLimitError },
    { status: 500, Class: InternalServerError },
    { status: 503, Class: InternalServerError },
  ])("maps $status to $Class.name with status, code, message and request id", async ({ status, Class }) => {
    const { client } = clientFor(server, { retry: { maxRetries: 0 } });
    server.fault({ route: "get", status });
    const error = (await client.get("run-1").catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status, code: status, requestId: expect.stringMatching(/^req-/) });
    expect(error.serverMessage).toBe(`injected fault ${status}`);
  });

  it("maps real answers: bad token 401, other org 403, unknown run 404", async () => {
    await expect(new RunsClient({ baseUrl: server.url, orgId: server.orgId, token: "wrong" }).get("run-1")).rejects.toBeInstanceOf(AuthenticationError);
    await expect(new RunsClient({ baseUrl: server.url, orgId: "org-other", token: server.token }).get("run-1")).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(clientFor(server).client.get("no-such-run")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("retries 429 honouring Retry-After, and 5xx with doubling backoff", async () => {
    const { client, delays } = clientFor(server);
    server.fault({ route: "get", status: 429, retryAfter: "1" });
    server.fault({ route: "get", status: 500 });
    const run = await client.create(agentBody());
    const before = server.requests.get;
    expect((await client.get(run.runId)).runId).toBe(run.runId);
    expect(server.requests.get - before).toBe(3);
    expect(delays).toEqual([1000, 1000]);
  });

  it("backs off 500, 1000 … with up to 25 % jitter, and caps Retry-After at 60 s", async () => {
    const { client, delays } = clientFor(server, { retry: { maxRetries: 3, random: () => 1 } });
    server.fault({ route: "list", status: 502, times: 3 });
    await client.listPage();
    expect(delays).toEqual([375, 750, 1500]);
    server.fault({ route: "list", status: 429, retryAfter: "3600" });
    await client.listPage();
    expect(delays.at(-1)).toBe(60_000);
  });

  it("gives up after maxRetries with the last error", async () => {
    const { client, delays } = clientFor(server);
    server.fault({ route: "list", status: 500, times: 3 });
    await expect(client.listPage()).rejects.toBeInstanceOf(InternalServerError);
    expect(delays).toHaveLength(2);
  });

  it.each([
    { name: "create without idempotencyKey", call: (c: RunsClient) => c.create(agentBody()), route: "create" as const, status: 500 },
    { name: "respondToInteraction", call: (c: RunsClient) => c.respondToInteraction("run-1", "i-1", { decision: "approve" }), route: "respond" as const, status: 503 },
    { name: "409 without Retry-After", call: (c: RunsClient) => c.get("run-1"), route: "get" as const, status: 409 },
    { name: "404", call: (c: RunsClient) => c.get("run-1"), route: "get" as const, status: 404 },
  ])("does not retry $name", async ({ call, route, status }) => {
    const { client, delays } = clientFor(server);
    server.fault({ route, status });
    await expect(call(client)).rejects.toBeInstanceOf(ApiError);
    expect(delays).toHaveLength(0);
    server.clearFaults();
  });

  it("retries a create that has an idempotencyKey", async () => {
    const { client, delays } = clientFor(server);
    server.fault({ route: "create", status: 500 });
    const run = await client.create(agentBody({ idempotencyKey: "idem-retry" }));
    expect(run.runId).toMatch(/^run-/);
    expect(delays).toHaveLength(1);
  });

  it("times out a slow request with ApiTimeoutError, and a reset connection is an ApiConnectionError", async () => {
    const { client } = clientFor(server, { retry: { maxRetries: 0 }, timeoutMs: 20 });
    server.fault({ route: "list", delayMs: 300 });
    await expect(client.listPage()).rejects.toBeInstanceOf(ApiTimeoutError);
    server.fault({ route: "list", resetConnection: true });
    const patient = clientFor(server, { retry: { maxRetries: 0 } }).client;
    const error = await patient.listPage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error).not.toBeInstanceOf(ApiTimeoutError);
  });

  it("honours timeouts longer than a timer holds (2^31 - 1 ms), and Infinity as no timeout", async () => {
    server.fault({ route: "list", delayMs: 30 });
    await expect(clientFor(server, { retry: { maxRetries: 0 }, timeoutMs: Infinity }).client.listPage()).resolves.toMatchObject({ offset: 0 });
    server.fault({ route: "list", delayMs: 30 });
    await expect(clientFor(server, { retry: { maxRetries: 0 }, timeoutMs: 2 ** 31 }).client.listPage()).resolves.toMatchObject({ offset: 0 });
    const s = await startTestServer({ script: async (ctx) => void (await new Promise((r) => setTimeout(r, 30)), ctx.setStatus("running")) });
    try {
      const { client } = clientFor(s);
      const run = await client.create(agentBody());
      const month = 30 * 24 * 3600 * 1000;
      await expect(client.waitForCompletion(run.runId, { timeoutMs: month })).resolves.toMatchObject({ status: "completed" });
    } finally {
      await s.close();
    }
  });

  it("retries a reset connection", async () => {
    const { client, delays } = clientFor(server);
    server.fault({ route: "list", resetConnection: true });
    await client.listPage();
    expect(delays).toHaveLength(1);
  });

  it("rejects with the signal's reason on abort, and does not retry after it", async () => {
    const { client } = clientFor(server);
    const controller = new AbortController();
    server.fault({ route: "list", delayMs: 200 });
    const pending = client.listPage({}, { signal: controller.signal });
    const reason = new Error("user gave up");
    setTimeout(() => controller.abort(reason), 10);
    await expect(pending).rejects.toBe(reason);
    server.clearFaults();
    const aborted = new AbortController();
    aborted.abort(reason);
    await expect(client.get("run-1", { signal: aborted.signal })).rejects.toBe(reason);
  });

  it("reads a non-JSON error page as an ApiError without code", async () => {
    const { client } = clientFor(server, { retry: { maxRetries: 0 } });
    server.fault({ route: "get", status: 502, rawBody: "<html>bad gateway</html>" });
    const error = (await client.get("run-1").catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.code).toBeUndefined();
    expect(error.body).toBe("<html>bad gateway</html>");
  });

  it.each([
    { name: "an invalid Run", body: { code: 0, message: "ok", data: { runId: 7 } }, Class: ResponseValidationError, pointer: "/data/runId" },
    { name: "a body that is not an envelope", body: [1, 2], Class: ResponseValidationError, pointer: "(root)" },
    { name: "an envelope without code", body: { message: "ok", data: {} }, Class: ResponseValidationError, pointer: "/code" },
    { name: "a 200 with a non-zero code", body: { code: 1234, message: "nope" }, Class: ApiError, pointer: undefined },
  ])("refuses $name", async ({ body, Class, pointer }) => {
    const client = new RunsClient({
      baseUrl: "http://127.0.0.1:9",
      orgId: "o",
      token: "t",
      fetch: async () => new Response(JSON.stringify(body), { status: 200, headers: { "x-request-id": "req-x" } }),
    });
    const error = await client.get("r").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Class);
    if (pointer) expect((error as Error).message).toContain(`${pointer}:`);
    else expect(error).toMatchObject({ status: 200, code: 1234, requestId: "req-x" });
  });

  it("accepts unknown values of provisional enums in answers", async () => {
    const run = await clientFor(server).client.create(agentBody());
    const future = { ...run, status: "paused_for_lunch" };
    const client = new RunsClient({ baseUrl: "http://127.0.0.1:9", orgId: "o", token: "t", fetch: async () => new Response(JSON.stringify({ code: 0, message: "ok", data: future })) });
    expect((await client.get(run.runId)).status).toBe("paused_for_lunch");
  });
});
