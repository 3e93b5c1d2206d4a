import { afterEach, describe, expect, it, vi } from "vitest";
import { ApflowTransportError, createApflowClient, settledState } from "@flowspec/apflow/client";
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
