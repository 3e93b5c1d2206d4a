import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "@flowspec/agent-service/testing";

let server: TestServer;
const body = (overrides: Record<string, unknown> = {}) => ({
  resourceType: "agent",
  resourceId: "agent-1",
  input: { mode: "agent", messages: [{ role: "user", content: "hello there world" }] },
  ...overrides,
});

/** Calls a test server's API as a client would (a JSON body only when there is a payload). */
const callOn = (target: () => TestServer) => async (method: string, path: string, payload?: unknown, headers: Record<string, string> = {}) => {
  const { url, orgId, token } = target();
  const response = await fetch(`${url}/v1/organizations/${orgId}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(payload !== undefined && { "content-type": "application/json" }), ...headers },
    ...(payload !== undefined && { body: JSON.stringify(payload) }),
  });
  return { status: response.status, headers: response.headers, json: (await response.json()) as { code: number; message: string; data: any } };
};
const call = callOn(() => server);

async function waitTerminal(runId: string) {
  for (;;) {
    const { json } = await call("GET", `/runs/${runId}`);
    if (json.data.finishedAt) return json.data;
    await new Promise((r) => setTimeout(r, 2));
  }
}

async function readStream(runId: string, query = "", headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/v1/organizations/${server.orgId}/runs/${runId}/stream${query}`, {
    headers: { authorization: `Bearer ${server.token}`, ...headers },
  });
  return { contentType: response.headers.get("content-type"), text: await response.text() };
}

beforeAll(async () => {
  server = await startTestServer({ keepaliveMs: 5 });
});
afterAll(() => server.close());

describe("test server: envelope, auth and routes", () => {
  it("wraps data in {code: 0, message, data} and sends x-request-id", async () => {
    const { status, headers, json } = await call("POST", "/runs", body());
    expect(status).toBe(200);
    expect(json.code).toBe(0);
    expect(json.data).toMatchObject({ runId: expect.any(String), orgId: server.orgId, status: "queued", eventSequence: 0 });
    expect(headers.get("x-request-id")).toMatch(/^req-/);
  });

  it.each([
    { name: "no token", headers: { authorization: "" }, path: `/v1/organizations/org-test/runs`, status: 401 },
    { name: "another org", headers: {}, path: `/v1/organizations/org-other/runs`, status: 403 },
    { name: "unknown run", headers: {}, path: `/v1/organizations/org-test/runs/nope`, status: 404 },
    { name: "unknown route", headers: {}, path: `/v2/whatever`, status: 404 },
    { name: "bad limit", headers: {}, path: `/v1/organizations/org-test/runs?limit=abc`, status: 400 },
  ])("answers $name with $status and an error envelope", async ({ headers, path, status }) => {
    const response = await fetch(server.url + path, { headers: { authorization: `Bearer ${server.token}`, ...headers } });
    expect(response.status).toBe(status);
    const json = (await response.json()) as { code: number; message: string };
    expect(json.code).toBe(status);
    expect(json.message).toEqual(expect.any(String));
  });

  it("rejects an invalid create body with 400 and the schema errors", async () => {
    const { status, json } = await call("POST", "/runs", body({ input: { mode: "tool", messages: [] } }));
    expect(status).toBe(400);
    expect(json.data.errors[0]).toMatchObject({ path: "/input/mode" });
  });

  it("pages runs newest first with total, offset and limit", async () => {
    for (let i = 0; i < 3; i++) await call("POST", "/runs", body({ contextId: "paging" }));
    const first = await call("GET", "/runs?contextId=paging&limit=2");
    expect(first.json.data).toMatchObject({ total: 3, offset: 0, limit: 2 });
    expect(first.json.data.list).toHaveLength(2);
    const second = await call("GET", "/runs?contextId=paging&limit=2&offset=2");
    expect(second.json.data.list).toHaveLength(1);
    const ids = [...first.json.data.list, ...second.json.data.list].map((r: { runId: string }) => Number(r.runId.slice(4)));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });
});

describe("test server: idempotent create, cancel, interactions, events", () => {
  it("returns the same run for the same key and body, 422 for another body", async () => {
    const a = await call("POST", "/runs", body({ idempotencyKey: "k-1" }));
    const b = await call("POST", "/runs", { ...body(), idempotencyKey: "k-1" });
    expect(b.json.data.runId).toBe(a.json.data.runId);
    const c = await call("POST", "/runs", body({ idempotencyKey: "k-1", contextId: "other" }));
    expect(c.status).toBe(422);
  });

  it("answers 409 with Retry-After while the same create is in flight", async () => {
    server.fault({ route: "create", delayMs: 50 });
    const before = server.requests.create;
    const first = call("POST", "/runs", body({ idempotencyKey: "k-2" }));
    while (server.requests.create === before) await new Promise((r) => setTimeout(r, 1));
    await new Promise((r) => setTimeout(r, 10)); // its body read, its key is registered (the create then takes 50 ms)
    const second = await call("POST", "/runs", body({ idempotencyKey: "k-2" }));
    expect(second.status).toBe(409);
    expect(second.headers.get("retry-after")).toBe("1");
    expect((await first).status).toBe(200);
  });

  it("cancels a running run, returns a cancelled one unchanged, refuses a completed one", async () => {
    const blocked = await startTestServer({ script: async (ctx) => void (await ctx.requestInteraction({ question: "go?" })) });
    try {
      const local = callOn(() => blocked);
      const run = (await local("POST", "/runs", body())).json.data;
      const cancelled = await local("POST", `/runs/${run.runId}/cancel`, {});
      expect(cancelled.json.data.status).toBe("canceled");
      const again = await local("POST", `/runs/${run.runId}/cancel`, {});
      expect(again.status).toBe(200);
      expect(again.json.data.version).toBe(cancelled.json.data.version);
    } finally {
      await blocked.close();
    }
    const done = (await call("POST", "/runs", body())).json.data;
    await waitTerminal(done.runId);
    expect((await call("POST", `/runs/${done.runId}/cancel`, {})).status).toBe(409);
  });

  it("refuses a cancel body that is not {} or {expectedVersion} with 400, leaving the run alone", async () => {
    const s = await startTestServer({ script: async (ctx) => void (await ctx.requestInteraction({ question: "go?" })) });
    try {
      const local = callOn(() => s);
      const run = (await local("POST", "/runs", body())).json.data;
      for (const bad of [{ reason: "bored" }, { expectedVersion: "0" }, { expectedVersion: -1 }, ["x"]]) {
        expect((await local("POST", `/runs/${run.runId}/cancel`, bad)).status).toBe(400);
      }
      expect(s.run(run.runId)?.status).not.toBe("canceled");
      expect((await local("POST", `/runs/${run.runId}/cancel`)).json.data.status).toBe("canceled");
    } finally {
      await s.close();
    }
  });

  it("closes open interactions when a run ends, so a late response gets 409 and the run stays ended", async () => {
    const s = await startTestServer({
      script: async (ctx) => {
        ctx.requestInteraction({ question: "go?" }).catch(() => undefined);
        await ctx.tick();
        throw new Error("gave up waiting");
      },
    });
    try {
      const local = callOn(() => s);
      const run = (await local("POST", "/runs", body())).json.data;
      let current = run;
      while (!current.finishedAt) current = (await local("GET", `/runs/${run.runId}`)).json.data;
      expect(current).toMatchObject({ status: "failed", openInteractionCount: 0 });
      const respond = await local("POST", `/runs/${run.runId}/interactions/${run.runId}-int-1/respond`, { decision: "approve" });
      expect(respond.status).toBe(409);
      expect(s.run(run.runId)).toMatchObject({ status: "failed", version: current.version });
    } finally {
      await s.close();
    }
  });

  it("spends a create's delay fault without an idempotency key too", async () => {
    server.fault({ route: "create", delayMs: 150 });
    const started = Date.now();
    expect((await call("POST", "/runs", body())).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("blocks on an interaction, accepts one response, then 409", async () => {
    const s = await startTestServer({ script: async (ctx) => void (await ctx.requestInteraction({ question: "go?" }, "approval_required")) });
    try {
      const local = callOn(() => s);
      const run = (await local("POST", "/runs", body())).json.data;
      let current = run;
      while (current.status !== "blocked") current = (await local("GET", `/runs/${run.runId}`)).json.data;
      expect(current).toMatchObject({ blockedReason: "approval_required", openInteractionCount: 1, blockingInteractionId: expect.any(String) });
      const respond = `/runs/${run.runId}/interactions/${current.blockingInteractionId}/respond`;
      expect((await local("POST", respond, {})).status).toBe(400);
      expect((await local("POST", respond, { decision: "approve" })).status).toBe(200);
      expect((await local("POST", respond, { decision: "approve" })).status).toBe(409);
      expect((await local("POST", `/runs/${run.runId}/interactions/nope/respond`, { decision: "approve" })).status).toBe(404);
    } finally {
      await s.close();
    }
  });

  it("lists events after an offset", async () => {
    const run = (await call("POST", "/runs", body())).json.data;
    const final = await waitTerminal(run.runId);
    const page = await call("GET", `/runs/${run.runId}/events?offset=2&limit=2`);
    expect(page.json.data).toMatchObject({ total: final.eventSequence, offset: 2, limit: 2 });
    expect(page.json.data.list.map((e: { sequence: number }) => e.sequence)).toEqual([3, 4]);
  });
});

describe("test server: streams", () => {
  it("writes SSE with ids, channel names and a terminal frame", async () => {
    const run = (await call("POST", "/runs", body())).json.data;
    const final = await waitTerminal(run.runId);
    const { contentType, text } = await readStream(run.runId, "", { accept: "text/event-stream" });
    expect(contentType).toContain("text/event-stream");
    expect(text).toContain("id: 1\nevent: run.stream.event\ndata: {");
    expect(text.trimEnd().split("\n\n").at(-1)).toBe(
      `event: run.stream.end\ndata: ${JSON.stringify({ type: "end", runId: run.runId, status: "completed", lastSequence: final.eventSequence })}`,
    );
  });

  it("writes NDJSON and honours the cursor and Last-Event-ID (the larger wins)", async () => {
    const run = (await call("POST", "/runs", body())).json.data;
    await waitTerminal(run.runId);
    const { contentType, text } = await readStream(run.runId, "?cursor=2", { accept: "application/x-ndjson", "last-event-id": "4" });
    expect(contentType).toContain("application/x-ndjson");
    const frames = text.trim().split("\n").map((line) => JSON.parse(line));
    expect(frames[0].sequence).toBe(5);
    expect(frames.at(-1).type).toBe("end");
  });

  it("sends keepalives while a run is idle", async () => {
    const s = await startTestServer({ keepaliveMs: 2, script: async (ctx) => void (await ctx.requestInteraction({})) });
    try {
      const created = await fetch(`${s.url}/v1/organizations/${s.orgId}/runs`, { method: "POST", headers: { authorization: `Bearer ${s.token}` }, body: JSON.stringify(body()) });
      const run = ((await created.json()) as { data: { runId: string } }).data;
      const response = await fetch(`${s.url}/v1/organizations/${s.orgId}/runs/${run.runId}/stream?transport=ndjson`, { headers: { authorization: `Bearer ${s.token}` } });
      const reader = response.body!.getReader();
      let text = "";
      while (!text.includes('"keepalive"')) text += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
    } finally {
      await s.close();
    }
  });

  it.each([
    { fault: { dropAfterEvents: 2 }, check: (t: string) => t.split("run.stream.event").length - 1 === 2 && !t.includes("run.stream.end") },
    { fault: { malformed: "json" as const }, check: (t: string) => t.includes("oops") },
    { fault: { status: 429, retryAfter: "2" }, check: (t: string) => t.includes("injected fault 429") },
  ])("injects $fault", async ({ fault, check }) => {
    const run = (await call("POST", "/runs", body())).json.data;
    await waitTerminal(run.runId);
    server.fault({ route: "stream", ...fault });
    const response = await fetch(`${server.url}/v1/organizations/${server.orgId}/runs/${run.runId}/stream`, { headers: { authorization: `Bearer ${server.token}` } });
    const reader = response.body!.getReader();
    let text = "";
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
    } catch {
      // a dropped connection ends the body with an error; keep what arrived
    }
    expect(check(text)).toBe(true);
  });
});
