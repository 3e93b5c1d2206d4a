import { afterEach, describe, expect, it, vi } from "vitest";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ApflowRpcError, ApflowTransportError, createApflowClient, settledState } from "@flowspec/apflow/client";
import type { TaskTreeNode } from "@flowspec/apflow";

const ROOT = "0b6f3a4e-8c1d-4f2a-9e3b-5d7c1a2b3c4d";

/** A fetch that answers each JSON-RPC method from `answers` (an SSE body for streaming tasks.execute). */
function fakeFetch(answers: Record<string, () => string | { sse: string }>): typeof fetch {
  return (async (_url: string, init: RequestInit) => {
    const { method, id } = JSON.parse(String(init.body)) as { method: string; id: number };
    const answer = answers[method]?.();
    if (answer === undefined) throw new Error(`unexpected ${method}`);
    if (typeof answer === "object") return new Response(answer.sse, { headers: { "content-type": "text/event-stream" } });
    return new Response(`{"jsonrpc":"2.0","id":${id},"result":${answer}}`, { headers: { "content-type": "application/json" } });
  }) as typeof fetch;
}

const sse = (...events: unknown[]) => ({ sse: events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("") });
const started = { jsonrpc: "2.0", id: 1, result: { success: true, root_task_id: ROOT, status: "started", streaming: true } };

afterEach(() => {
  vi.useRealTimers();
});

describe("polling after a stream", () => {
  it.each([[2 ** 31], [2 ** 40], [Infinity]])("a pollIntervalMs of %s waits that long instead of polling every millisecond", async (pollIntervalMs) => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let treeCalls = 0;
    const fetch = fakeFetch({
      "tasks.execute": () => sse(started, { type: "stream_end", task_id: ROOT }),
      "tasks.tree": () => {
        treeCalls++;
        return JSON.stringify({ task: { id: ROOT, name: "root", status: "in_progress", started_at: "2026-01-01T00:00:00Z" }, children: [] });
      },
    });
    const client = createApflowClient({ baseUrl: "http://apflow.test", pollIntervalMs, fetch });
    const controller = new AbortController();
    const stream = client.streamExecute({ task_id: ROOT }, { signal: controller.signal });
    const consumed = (async () => {
      for await (const _ of stream) void _;
    })().catch((e: unknown) => e);

    await vi.advanceTimersByTimeAsync(50);
    expect(treeCalls).toBe(1); // not one poll per millisecond
    if (pollIntervalMs !== Infinity) {
      await vi.advanceTimersByTimeAsync(pollIntervalMs - 50);
      expect(treeCalls).toBe(2); // the long wait does end, on time
    }
    controller.abort();
    expect(await consumed).toBeInstanceOf(ApflowTransportError);
    await expect(stream.result).rejects.toThrow(/polling aborted/);
    expect(vi.getTimerCount()).toBe(0); // the abort stopped the timer
  });
});

/** A chain `depth` tasks deep as JSON text (JSON.stringify itself overflows at this depth). */
function deepTreeText(depth: number, shape: "node" | "nested", bad?: string): string {
  const taskFields = (i: number) => `"id":"t${i}","name":"n","status":"completed","completed_at":"2026-01-01T00:00:00Z","result":{}${i === 0 ? "" : `,"parent_id":"t${i - 1}"`}`;
  const open: string[] = [];
  for (let i = 0; i < depth; i++) open.push(shape === "node" ? `{"task":{${taskFields(i)}},"children":[` : `{${taskFields(i)},"children":[`);
  return open.join("") + (bad ?? "") + "]}".repeat(depth);
}

function depthOf(tree: TaskTreeNode): number {
  let depth = 0;
  for (let node: TaskTreeNode | undefined = tree; node; node = node.children?.[0]) depth++;
  return depth;
}

describe("deep trees from the server", () => {
  it.each([["node" as const], ["nested" as const]])("getTree converts a 100,000-deep tree (%s shape) without overflowing the stack", async (shape) => {
    const text = deepTreeText(100_000, shape);
    for (const validateResponses of [false, true]) {
      const client = createApflowClient({ baseUrl: "http://apflow.test", validateResponses, fetch: fakeFetch({ "tasks.tree": () => text }) });
      const tree = await client.getTree("t0");
      expect(depthOf(tree.data)).toBe(100_000);
      expect(tree.data.task).toMatchObject({ id: "t0", status: "completed" });
      expect(Object.keys(tree.data.task)).not.toContain("children");
    }
  });
  it("a node that is not an object fails with a transport error naming where it is", async () => {
    const client = createApflowClient({ baseUrl: "http://apflow.test", fetch: fakeFetch({ "tasks.tree": () => deepTreeText(3, "nested", "null") }) });
    const error = await client.getTree("t0").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApflowTransportError);
    expect((error as Error).message).toBe("tasks.tree: expected a task tree at /children/0/children/0/children/0, got null");
    const top = createApflowClient({ baseUrl: "http://apflow.test", fetch: fakeFetch({ "tasks.tree": () => "[]" }) });
    await expect(top.getTree("t0")).rejects.toThrow("tasks.tree: expected a task tree, got an array");
  });
});

describe("settledState on large trees", () => {
  it("finds blocked tasks in linear time, whatever order the dependency chain is listed in", () => {
    // t0 needs t1, t1 needs t2, … and the last one failed: listed this way round, a pass over the
    // tasks that only looks one step back finds one more blocked task per pass (quadratic).
    const n = 20_000;
    const children = [];
    for (let i = 1; i < n; i++) {
      children.push({ task: { id: `t${i}`, name: "n", parent_id: "t0", status: i === n - 1 ? "failed" : "pending", dependencies: i < n - 1 ? [{ id: `t${i + 1}`, required: true }] : [] }, children: [] });
    }
    const tree = { task: { id: "t0", name: "n", status: "pending", dependencies: [{ id: "t1", required: true }] }, children } as TaskTreeNode;
    const start = performance.now();
    const state = settledState(tree);
    const elapsed = performance.now() - start;
    expect(state.settled).toBe(true);
    expect(state.blocked).toHaveLength(n - 1);
    expect(state.blocked.slice(0, 3)).toEqual(["t0", "t1", "t2"]); // tree order, as before
    expect(elapsed).toBeLessThan(2000); // linear: a few ms; the quadratic walk took about 30 s
  });
});

describe("numeric options", () => {
  const fetch = fakeFetch({ "system.health": () => `{"status":"healthy"}` });
  const bad: [unknown][] = [[Number.NaN], [-1], [-Infinity], ["1000"], [null]];
  const shown = (value: unknown) => (typeof value === "number" ? String(value) : JSON.stringify(value));

  // NaN, a negative number or a string used to reach setTimeout as a 1 ms delay: a poll loop
  // about every millisecond, or a timeout that silently never applied.
  it.each<[unknown]>([...bad, [0], [0.5]])("pollIntervalMs %s is a RangeError naming the option", (pollIntervalMs) => {
    expect(() => createApflowClient({ baseUrl: "http://apflow.test", fetch, pollIntervalMs: pollIntervalMs as number })).toThrow(
      new RangeError(`pollIntervalMs must be a number of milliseconds ≥ 1 (or Infinity), got ${shown(pollIntervalMs)}`),
    );
  });

  it.each(bad)("timeoutMs %s is a RangeError naming the option, for the client and for a call", async (timeoutMs) => {
    const message = `timeoutMs must be a number of milliseconds ≥ 0 (0 or Infinity for none), got ${shown(timeoutMs)}`;
    expect(() => createApflowClient({ baseUrl: "http://apflow.test", fetch, timeoutMs: timeoutMs as number })).toThrow(new RangeError(message));
    const client = createApflowClient({ baseUrl: "http://apflow.test", fetch });
    await expect(client.health({ timeoutMs: timeoutMs as number })).rejects.toThrow(new RangeError(message));
  });

  it.each([
    { timeoutMs: 0, pollIntervalMs: 1 },
    { timeoutMs: Infinity, pollIntervalMs: Infinity },
    { timeoutMs: 1500.5, pollIntervalMs: 2 ** 40 },
  ])("accepts timeoutMs $timeoutMs and pollIntervalMs $pollIntervalMs", async (numbers) => {
    const client = createApflowClient({ baseUrl: "http://apflow.test", fetch, ...numbers });
    await expect(client.health({ timeoutMs: numbers.timeoutMs })).resolves.toMatchObject({ status: "healthy" });
  });
});

describe("a token function that hangs", () => {
  const hanging = () => new Promise<string>(() => undefined);
  const fetch = fakeFetch({ "system.health": () => `{"status":"healthy"}` });

  it("is bounded by the call's timeout", async () => {
    const client = createApflowClient({ baseUrl: "http://apflow.test", token: hanging, fetch, timeoutMs: 30 });
    await expect(client.call("system.health", {}, { endpoint: "/system" })).rejects.toThrow(ApflowTransportError);
  });

  it("is ended by the caller's signal, with its reason", async () => {
    const client = createApflowClient({ baseUrl: "http://apflow.test", token: hanging, fetch, timeoutMs: 0 });
    const caller = new AbortController();
    setTimeout(() => caller.abort(new Error("user gave up")), 20);
    await expect(client.call("system.health", {}, { endpoint: "/system", signal: caller.signal })).rejects.toThrow(/user gave up|aborted/);
  });
});

describe("transport errors name the call", () => {
  async function closedPort(): Promise<number> {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    return port;
  }

  it("a refused connection names the JSON-RPC method, the HTTP method and the URL", async () => {
    const port = await closedPort();
    const error = await createApflowClient({ baseUrl: `http://127.0.0.1:${port}/` }).health().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApflowTransportError);
    expect((error as Error).message).toMatch(new RegExp(`^system.health: POST http://127.0.0.1:${port}/system failed: fetch failed \\(.*ECONNREFUSED`));
  });
  it("a timeout names the URL too", async () => {
    const hanging = ((_url: string, init: RequestInit) => new Promise((_, reject) => init.signal?.addEventListener("abort", () => reject(init.signal?.reason)))) as typeof fetch;
    const client = createApflowClient({ baseUrl: "http://apflow.test", fetch: hanging, timeoutMs: 20 });
    await expect(client.call("tasks.get", { task_id: "x" })).rejects.toThrow("tasks.get: POST http://apflow.test/tasks: no answer within 20 ms");
  });
  it("credentials in the base URL and the caller's secrets are masked", async () => {
    const port = await closedPort();
    const failing = (async (url: string) => {
      throw new TypeError(`could not reach ${url} with token sekrit-token and key sekrit-key`);
    }) as typeof fetch;
    const client = createApflowClient({ baseUrl: `http://admin:sekrit-pass@127.0.0.1:${port}`, token: async () => "sekrit-token", headers: { "X-LLM-API-KEY": "openai:sekrit-key" }, fetch: failing });
    const error = (await client.health().catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(ApflowTransportError);
    expect(error.message).not.toMatch(/sekrit/);
    expect(error.message).toContain(`POST http://admin:***@127.0.0.1:${port}/system failed: could not reach`);
    const real = (await createApflowClient({ baseUrl: `http://admin:sekrit-pass@127.0.0.1:${port}` }).health().catch((e: unknown) => e)) as Error;
    expect(real).toBeInstanceOf(ApflowTransportError);
    expect(real.message).not.toMatch(/sekrit/);
  });
});

describe("secrets echoed in error bodies", () => {
  const options = { baseUrl: "http://apflow.test", token: "sekrit-token", headers: { "x-api-key": "sekrit-key", "X-LLM-API-KEY": "anthropic:sekrit-llm" } };
  const answering = (status: number, body: string) => (async () => new Response(body, { status, headers: { "content-type": "text/plain" } })) as unknown as typeof fetch;

  it("a body that is not JSON is masked in the message and in error.body", async () => {
    const fetch = answering(502, "<html>proxy refused Bearer sekrit-token / sekrit-key / sekrit-llm</html>");
    const error = (await createApflowClient({ ...options, fetch }).health().catch((e: unknown) => e)) as ApflowTransportError;
    expect(error).toBeInstanceOf(ApflowTransportError);
    expect(error.message).not.toMatch(/sekrit/);
    expect(error.body).toBe("<html>proxy refused Bearer *** / *** / ***</html>");
  });
  it("an RPC error echoing the token is masked in message, rpcMessage and data", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "bad token sekrit-token", data: "key sekrit-key rejected" } });
    const error = (await createApflowClient({ ...options, fetch: answering(401, body) }).health().catch((e: unknown) => e)) as ApflowRpcError;
    expect(error).toBeInstanceOf(ApflowRpcError);
    expect(error.message).toBe("system.health failed: bad token *** (code -32603, HTTP 401): key *** rejected");
    expect(error).toMatchObject({ rpcMessage: "bad token ***", data: "key *** rejected", specCode: -32004 });
  });
  it("object data is masked too", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32000, message: "no", data: { headers: { authorization: "Bearer sekrit-token" } } } });
    const error = (await createApflowClient({ ...options, fetch: answering(500, body) }).health().catch((e: unknown) => e)) as ApflowRpcError;
    expect(error.data).toEqual({ headers: { authorization: "Bearer ***" } });
  });
});

describe("RPC error messages are bounded", () => {
  it("a 10 MB error message is cut in error.message, kept whole in rpcMessage and data", async () => {
    const huge = "x".repeat(10 * 1024 * 1024);
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: huge, data: huge } });
    const fetch = (async () => new Response(body, { status: 500 })) as unknown as typeof globalThis.fetch;
    // The body is 20 MB: over the default maxResponseBytes, which the next test is not about.
    const error = (await createApflowClient({ baseUrl: "http://apflow.test", fetch, maxResponseBytes: 32 * 1024 * 1024 }).health().catch((e: unknown) => e)) as ApflowRpcError;
    expect(error).toBeInstanceOf(ApflowRpcError);
    expect(error.message.length).toBeLessThan(1000);
    expect(error.message).toMatch(/^system.health failed: x+… \(10485\d+ more characters\) \(code -32603, HTTP 500\): x+… \(10485\d+ more characters\)$/);
    expect(error.rpcMessage).toHaveLength(huge.length);
    expect(error.data).toHaveLength(huge.length);
  });
  it("a short message is unchanged", () => {
    expect(new ApflowRpcError("m", -1, "short", "data", 500, undefined).message).toBe("m failed: short (code -1, HTTP 500): data");
  });
});
