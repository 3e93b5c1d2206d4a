import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTaskTree } from "@flowspec/apflow";
import {
  ApflowResponseError,
  ApflowRpcError,
  ApflowStreamError,
  ApflowTransportError,
  createApflowClient,
  settledState,
  specCodeOf,
  type StreamEvent,
} from "@flowspec/apflow/client";
import { startFakeV1Server, type FakeV1Server } from "./v1-server.js";

let server: FakeV1Server;
beforeAll(async () => {
  server = await startFakeV1Server();
});
afterAll(() => server.close());
beforeEach(() => {
  server.behaviour = "normal";
  server.tasks.clear();
  server.requests.length = 0;
});

const ROOT = "0b6f3a4e-8c1d-4f2a-9e3b-5d7c1a2b3c4d";
const A = "7c2d9e1f-3a4b-4c5d-8e6f-1a2b3c4d5e6f";
const B = "1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9";
const seed = () => [
  { id: ROOT, name: "root", status: "completed" as const, result: { x: 1 } },
  { id: A, name: "a", parent_id: ROOT },
  { id: B, name: "b", parent_id: ROOT, dependencies: [{ id: A, required: true }] },
];

describe("ApflowClient against a v1-like server", () => {
  it("creates tasks from a bare array, stripping execution state, with integer ids counting up", async () => {
    const client = createApflowClient({ baseUrl: server.url });
    const created = await client.createTasks(seed());
    expect(created.data.map((t) => t.id)).toEqual([ROOT, A, B]);
    expect(server.requests[0]).toMatchObject({ path: "/tasks", body: { jsonrpc: "2.0", method: "tasks.create", id: 1 } });
    const sent = server.requests[0]!.body.params as Record<string, unknown>[];
    expect(Array.isArray(sent)).toBe(true);
    expect(sent[0]).toEqual({ id: ROOT, name: "root" });
    // Python timestamps without an offset and v1 extension fields: warnings only.
    expect(created.warnings.map((w) => w.code)).toContain("timestamp");
    expect(created.warnings.map((w) => w.code)).not.toContain("unknown-field");
    await client.getTask(ROOT);
    expect(server.requests[1]!.body.id).toBe(2);
  });
  it("sends the builder's toTaskList() as it is and wraps a single dict in an array", async () => {
    const client = createApflowClient({ baseUrl: server.url });
    const tree = createTaskTree();
    tree.root("only", { method: "rest_executor" });
    const created = await client.createTasks(tree.toTaskList());
    expect(created.data).toHaveLength(1);
    expect(created.data[0]!.name).toBe("only");
  });
  it("reads tasks, trees, children, lists and counts", async () => {
    const client = createApflowClient({ baseUrl: server.url });
    await client.createTasks(seed());
    expect((await client.getTask(A)).data?.name).toBe("a");
    expect((await client.getTask("00000000-0000-4000-8000-999999999999")).data).toBeNull();
    expect((await client.getTaskDetail(B)).data?.dependencies).toEqual([{ id: A, required: true }]);
    const tree = await client.getTree(B);
    expect(tree.data.task.id).toBe(ROOT);
    expect(tree.data.children!.map((n) => n.task.id)).toEqual([A, B]);
    expect((await client.getChildren(ROOT)).data).toHaveLength(2);
    expect((await client.listTasks()).data).toHaveLength(1);
    expect((await client.listTasks({ root_only: false })).data).toHaveLength(3);
    expect(server.requests.at(-1)!.body.params).toEqual({ root_only: false });
    expect(await client.countTasks()).toEqual({ total: 3, pending: 3 });
  });
  it("updates with flat params, deletes, clones, cancels with task_ids, running.*", async () => {
    const client = createApflowClient({ baseUrl: server.url });
    await client.createTasks(seed());
    const updated = await client.updateTask(A, { name: "renamed", priority: 0 });
    expect(updated.data).toMatchObject({ name: "renamed", priority: 0 });
    expect(server.requests.at(-1)!.body.params).toEqual({ name: "renamed", priority: 0, task_id: A });
    expect(await client.deleteTask(B)).toMatchObject({ success: true });
    expect(await client.cancelTasks([A], { force: true })).toEqual([{ task_id: A, status: "cancelled", message: "ok", force: true }]);
    expect(server.requests.at(-1)!.body.params).toEqual({ task_ids: [A], force: true });
    expect(await client.cloneTask(A, { save: false })).toMatchObject({ saved: false });
    expect((await client.listRunningTasks()).data).toEqual([]);
    expect(await client.runningStatus([A])).toMatchObject([{ task_id: A, status: "pending" }]);
    expect(await client.countRunningTasks({ user_id: "u" })).toEqual({ count: 0, user_id: "u" });
    expect(await client.generateTasks({ requirement: "x" })).toMatchObject({ count: 0 });
  });
  it("executes blocking and talks to /system", async () => {
    const client = createApflowClient({ baseUrl: server.url, headers: { "X-LLM-API-KEY": "openai:sk-test" } });
    await client.createTasks(seed());
    expect(await client.executeTasks({ task_id: ROOT })).toMatchObject({ success: true, root_task_id: ROOT });
    expect(await client.health()).toMatchObject({ status: "healthy", version: "0.18.1" });
    expect((await client.executors()).count).toBe(1);
    expect(server.requests.at(-1)).toMatchObject({ path: "/system", llmKey: "openai:sk-test" });
    expect(await client.setLlmKey({ api_key: "k", provider: "openai" })).toMatchObject({ success: true });
    expect(await client.getLlmKey()).toMatchObject({ has_key: false });
    expect(await client.deleteLlmKey({ provider: "openai" })).toMatchObject({ deleted: false });
    expect(await client.call("tasks.count", {})).toEqual({ total: 3, pending: 0 });
  });
});

describe("errors", () => {
  it("HTTP 500 with -32603: ApflowRpcError with data, status and the Spec's code", async () => {
    const client = createApflowClient({ baseUrl: server.url });
    const error = await client.createTasks([{ id: A, name: "a" }, { id: B, name: "b" }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApflowRpcError);
    expect(error).toMatchObject({ code: -32603, httpStatus: 500, specCode: -32012, data: "Multiple root tasks found: a, b" });
    const cycle = await client.createTasks([{ id: A, name: "a", dependencies: [{ id: A }] }]).catch((e: unknown) => e);
    expect(cycle).toMatchObject({ specCode: -32002 });
  });
  it("unknown methods: HTTP 400 -32601", async () => {
    const error = await createApflowClient({ baseUrl: server.url }).call("tasks.nope").catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "ApflowRpcError", code: -32601, httpStatus: 400, specCode: -32601, data: "Unknown task method: tasks.nope" });
  });
  it("a body that is not JSON: a transport error carrying the HTTP status", async () => {
    server.behaviour = "non-json";
    const error = await createApflowClient({ baseUrl: server.url }).health().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApflowTransportError);
    expect(error).toMatchObject({ httpStatus: 502, body: "<html>Bad Gateway</html>" });
    expect((error as Error).message).toMatch(/not JSON/);
  });
  it("a task dict that fails the wire checks throws; warnings do not", async () => {
    const client = createApflowClient({ baseUrl: server.url });
    await client.createTasks(seed());
    server.behaviour = "bad-task";
    const error = await client.getTask(A).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApflowResponseError);
    expect((error as ApflowResponseError).issues[0]).toMatchObject({ code: "schema", path: "/status" });
    const lax = createApflowClient({ baseUrl: server.url, validateResponses: false });
    expect((await lax.getTask(A)).data?.status).toBe("exploded");
  });
  it("times out, and honours an AbortSignal", async () => {
    server.behaviour = "slow";
    const client = createApflowClient({ baseUrl: server.url, timeoutMs: 50 });
    await expect(client.health()).rejects.toThrow(/no answer within 50 ms/);
    const controller = new AbortController();
    const pending = client.health({ signal: controller.signal, timeoutMs: 0 });
    controller.abort("user");
    await expect(pending).rejects.toThrow(/aborted \(user\)/);
  });
  it.each([[Infinity], [3e9], [1500.5]])("a timeoutMs of %s neither throws nor fires early", async (timeoutMs) => {
    // A server that answers after 50 ms, honouring the request's signal as fetch does.
    const slowFetch = (async (_url: string, init: RequestInit) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (init.signal?.aborted) throw init.signal.reason;
      return new Response(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { status: "healthy" } }), { headers: { "content-type": "application/json" } });
    }) as typeof fetch;
    const client = createApflowClient({ baseUrl: "http://apflow.test", timeoutMs, fetch: slowFetch });
    await expect(client.health()).resolves.toMatchObject({ status: "healthy" });
    await expect(createApflowClient({ baseUrl: "http://apflow.test", fetch: slowFetch }).health({ timeoutMs })).resolves.toMatchObject({ status: "healthy" });
  });
  it("a refused connection is a transport error", async () => {
    const closed = await startFakeV1Server();
    const url = closed.url;
    await closed.close();
    await expect(createApflowClient({ baseUrl: url }).health()).rejects.toBeInstanceOf(ApflowTransportError);
  });
  it.each([
    ["Circular dependency detected: a", 500, -32002],
    ["No root task found", 500, -32012],
    ["Tasks array cannot be empty", 500, -32012],
    ["Task b has parent_id 'x' which is not in the task array", 500, -32010],
    ["Task b has dependency 'x' which is not a valid id or name in the task array", 500, -32011],
    ["Task must have a 'name' field", 500, -32005],
    ["Duplicate task id 'a'", 500, -32005],
    ["Task id 'a' already exists in database", 500, -32005],
    ["Cannot delete task: it has running children", 500, -32009],
    ["Invalid or missing token", 401, -32004],
    ["something else", 500, undefined],
  ])("specCode for %j (HTTP %i) is %s", (data, status, code) => {
    expect(specCodeOf(-32603, data, status)).toBe(code);
  });
});

describe("auth", () => {
  it("sends a bearer token from a string or an async function; 401 maps to -32004", async () => {
    const secured = await startFakeV1Server({ token: "s3cret" });
    try {
      await expect(createApflowClient({ baseUrl: secured.url }).health()).rejects.toMatchObject({ code: -32001, httpStatus: 401, specCode: -32004 });
      expect(await createApflowClient({ baseUrl: secured.url, token: "s3cret" }).health()).toMatchObject({ status: "healthy" });
      let calls = 0;
      const client = createApflowClient({ baseUrl: secured.url, token: async () => (calls++, "s3cret") });
      await client.health();
      await client.executors();
      expect(calls).toBe(2);
      expect(secured.requests.at(-1)!.authorization).toBe("Bearer s3cret");
    } finally {
      await secured.close();
    }
  });
});

describe("streaming tasks.execute", () => {
  it("yields every event, ends only at stream_end, then polls until the tree settles", async () => {
    const client = createApflowClient({ baseUrl: server.url, pollIntervalMs: 10 });
    await client.createTasks(seed());
    const stream = client.streamExecute({ task_id: ROOT });
    const events: StreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => e.type)).toEqual(["started", "task_start", "progress", "task_completed", "stream_end"]);
    expect(events[0]).toMatchObject({ root_task_id: ROOT, streaming: true });
    expect(server.requests.find((r) => r.body.method === "tasks.execute")!.body.params).toEqual({ task_id: ROOT, use_streaming: true });
    const outcome = await stream.result;
    expect(outcome.rootTaskId).toBe(ROOT);
    expect(outcome.blocked).toEqual([B]);
    expect(outcome.tree!.data.children!.map((n) => n.task.status)).toEqual(["failed", "pending"]);
  });
  it("in {tasks} mode polls with the first real task id, not the temporary root id", async () => {
    const client = createApflowClient({ baseUrl: server.url, pollIntervalMs: 10 });
    const stream = client.streamExecute({ tasks: seed() });
    const events: StreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events[0]!.root_task_id).toBe("99999999-9999-4999-8999-999999999999");
    expect((server.requests.find((r) => r.body.method === "tasks.execute")!.body.params as { tasks: unknown[] }).tasks[0]).toEqual({ id: ROOT, name: "root" });
    const outcome = await stream.result;
    expect(outcome.rootTaskId).toBe(ROOT);
    expect(outcome.blocked).toEqual([B]);
  });
  it("breaking out of the loop early rejects result instead of leaving it pending", async () => {
    const client = createApflowClient({ baseUrl: server.url });
    await client.createTasks(seed());
    const stream = client.streamExecute({ task_id: ROOT });
    for await (const event of stream) if (event.type === "started") break;
    await expect(stream.result).rejects.toThrow(/closed before its end/);
    expect(() => stream[Symbol.asyncIterator]()).toThrow(/only once/);
  });
  it("a dropped connection raises ApflowStreamError with the root task id", async () => {
    server.behaviour = "normal";
    const client = createApflowClient({ baseUrl: server.url });
    await client.createTasks(seed());
    server.behaviour = "drop-stream";
    const stream = client.streamExecute({ task_id: ROOT });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of stream) seen.push(event.type);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApflowStreamError);
    expect(error).toMatchObject({ rootTaskId: ROOT });
    expect(seen[0]).toBe("started");
    await expect(stream.result).rejects.toBeInstanceOf(ApflowStreamError);
  });
  it("unparseable event data raises ApflowStreamError", async () => {
    const client = createApflowClient({ baseUrl: server.url });
    await client.createTasks(seed());
    server.behaviour = "bad-event";
    const error = await (async () => {
      for await (const _ of client.streamExecute({ task_id: ROOT })) void _;
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "ApflowStreamError", rootTaskId: ROOT });
    expect((error as Error).message).toMatch(/not JSON/);
  });
  it("an error envelope instead of a stream raises ApflowRpcError", async () => {
    const client = createApflowClient({ baseUrl: server.url });
    const error = await (async () => {
      for await (const _ of client.streamExecute({ task_id: "00000000-0000-4000-8000-000000000404" })) void _;
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "ApflowRpcError", code: -32603, httpStatus: 500 });
  });
});

describe("tree shapes", () => {
  it("getTree also accepts the API doc's task-with-nested-children shape", async () => {
    const nested = { id: ROOT, name: "root", status: "pending", children: [{ id: A, name: "a", status: "pending", parent_id: ROOT, children: [] }] };
    const fakeFetch = (async () => new Response(JSON.stringify({ jsonrpc: "2.0", id: 1, result: nested }), { headers: { "content-type": "application/json" } })) as typeof fetch;
    const client = createApflowClient({ baseUrl: "http://127.0.0.1:9", fetch: fakeFetch });
    const tree = await client.getTree(ROOT);
    expect(tree.data).toEqual({ task: { id: ROOT, name: "root", status: "pending" }, children: [{ task: { id: A, name: "a", status: "pending", parent_id: ROOT }, children: [] }] });
  });
});

describe("settledState", () => {
  it("counts pending tasks behind broken required dependencies as blocked, transitively", () => {
    const t = (id: string, status: string, deps: string[] = [], required = true) => ({ task: { id, name: id, status, dependencies: deps.map((d) => ({ id: d, required })) }, children: [] }) as never;
    const tree = { task: { id: "r", name: "r", status: "completed" }, children: [t("a", "failed"), t("b", "pending", ["a"]), t("c", "pending", ["b"]), t("d", "pending", ["a"], false)] } as never;
    expect(settledState(tree)).toEqual({ settled: false, blocked: ["b", "c"] });
  });
});
