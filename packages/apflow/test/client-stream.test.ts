import { afterEach, describe, expect, it } from "vitest";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ApflowRpcError, ApflowStreamError, ApflowTransportError, createApflowClient, type ExecutionStream, type StreamEvent } from "@flowspec/apflow/client";

const ROOT = "0b6f3a4e-8c1d-4f2a-9e3b-5d7c1a2b3c4d";
const started = { jsonrpc: "2.0", id: 1, result: { success: true, root_task_id: ROOT, status: "started", streaming: true } };
const tree = JSON.stringify({ jsonrpc: "2.0", id: 2, result: { task: { id: ROOT, name: "root", status: "completed", completed_at: "2026-01-01T00:00:00Z", result: {} }, children: [] } });

/** A loopback server whose `tasks.execute` answer the test writes; it records when each request's connection closes. */
async function startServer(onExecute: (res: ServerResponse, req: IncomingMessage) => void) {
  const closed: Promise<void>[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const { method } = JSON.parse(body) as { method: string };
      if (method === "tasks.tree") return void res.writeHead(200, { "content-type": "application/json" }).end(tree);
      closed.push(new Promise((resolve) => res.on("close", () => resolve())));
      onExecute(res, req);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  servers.push(close);
  return { url, closed };
}
const servers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((close) => close()));
});

async function consume(stream: ExecutionStream): Promise<{ events: StreamEvent[]; error: unknown }> {
  const events: StreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events, error: undefined };
  } catch (error) {
    return { events, error };
  }
}

const data = (event: unknown) => `data: ${JSON.stringify(event)}\n\n`;

describe("streamExecute honours a call's timeoutMs until the stream has opened", () => {
  it("no response headers within the timeout: a transport error naming method, URL and timeout; the connection is released", async () => {
    const { url, closed } = await startServer(() => {}); // never answers
    const client = createApflowClient({ baseUrl: url });
    const stream = client.streamExecute({ task_id: ROOT }, { timeoutMs: 50 });
    const { error } = await consume(stream);
    expect(error).toBeInstanceOf(ApflowTransportError);
    expect((error as Error).message).toBe(`tasks.execute: POST ${url}/tasks: no answer within 50 ms`);
    await expect(stream.result).rejects.toBe(error);
    await closed[0]; // the server sees the connection go
  });

  it("headers but no first event within the timeout: the same error, and the body is cancelled", async () => {
    const { url, closed } = await startServer((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(": keepalive\n\n"); // a comment is not an event
    });
    const client = createApflowClient({ baseUrl: url });
    const stream = client.streamExecute({ task_id: ROOT }, { timeoutMs: 50 });
    const { events, error } = await consume(stream);
    expect(events).toEqual([]);
    expect(error).toBeInstanceOf(ApflowTransportError);
    expect((error as Error).message).toBe(`tasks.execute: POST ${url}/tasks: no answer within 50 ms`);
    await closed[0];
  });

  it("a plain-JSON answer that never finishes is bounded too", async () => {
    const { url, closed } = await startServer((res) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.write('{"jsonrpc":"2.0",');
    });
    const stream = createApflowClient({ baseUrl: url }).streamExecute({ task_id: ROOT }, { timeoutMs: 50 });
    const { error } = await consume(stream);
    expect(error).toBeInstanceOf(ApflowTransportError);
    expect((error as Error).message).toBe(`tasks.execute: POST ${url}/tasks: no answer within 50 ms`);
    await closed[0];
  });

  it("does not bound the events after the first one: a long-running tree is not cut off", async () => {
    const { url } = await startServer((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(data(started));
      setTimeout(() => res.end(data({ type: "task_completed", task_id: ROOT, final: true }) + data({ type: "stream_end", task_id: ROOT })), 150);
    });
    const client = createApflowClient({ baseUrl: url, pollIntervalMs: 10 });
    const stream = client.streamExecute({ task_id: ROOT }, { timeoutMs: 50 });
    const { events, error } = await consume(stream);
    expect(error).toBeUndefined();
    expect(events.map((e) => e.type)).toEqual(["started", "task_completed", "stream_end"]);
    await expect(stream.result).resolves.toMatchObject({ rootTaskId: ROOT });
  });

  it("a bad timeoutMs is a RangeError; the client's default timeout does not apply to streams", async () => {
    const { url } = await startServer((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      setTimeout(() => res.end(data(started) + data({ type: "stream_end", task_id: ROOT })), 100);
    });
    const { error: bad } = await consume(createApflowClient({ baseUrl: url }).streamExecute({ task_id: ROOT }, { timeoutMs: -1 }));
    expect(bad).toBeInstanceOf(RangeError);
    const { error } = await consume(createApflowClient({ baseUrl: url, timeoutMs: 20, pollIntervalMs: 10 }).streamExecute({ task_id: ROOT }));
    expect(error).toBeUndefined();
  });

  it("the caller's abort before the first event still releases the connection", async () => {
    const { url, closed } = await startServer((res) => res.writeHead(200, { "content-type": "text/event-stream" }).write(": keepalive\n\n"));
    const controller = new AbortController();
    const stream = createApflowClient({ baseUrl: url }).streamExecute({ task_id: ROOT }, { signal: controller.signal, timeoutMs: 10_000 });
    setTimeout(() => controller.abort(), 30);
    const { error } = await consume(stream);
    expect(error).toBeInstanceOf(Error);
    await closed[0];
  });
});

describe("streaming errors mask the request's credentials", () => {
  const options = { token: "sekrit-token", headers: { "x-api-key": "sekrit-key", "X-LLM-API-KEY": "anthropic:sekrit-llm" } };
  const echo = "Bearer sekrit-token / sekrit-key / sekrit-llm";
  const answering = (status: number, type: string, body: string) => (async () => new Response(body, { status, headers: { "content-type": type } })) as unknown as typeof fetch;
  const streamError = async (fetch: typeof globalThis.fetch) => (await consume(createApflowClient({ baseUrl: "http://apflow.test", ...options, fetch }).streamExecute({ task_id: ROOT }))).error;

  it("a body that is not JSON", async () => {
    const error = (await streamError(answering(502, "text/html", `<html>proxy refused ${echo}</html>`))) as ApflowTransportError;
    expect(error).toBeInstanceOf(ApflowTransportError);
    expect(error.message).not.toMatch(/sekrit/);
    expect(error.body).toBe("<html>proxy refused Bearer *** / *** / ***</html>");
  });
  it("an RPC error envelope in a plain body", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: `bad ${echo}`, data: { echoed: echo } } });
    const error = (await streamError(answering(401, "application/json", body))) as ApflowRpcError;
    expect(error).toBeInstanceOf(ApflowRpcError);
    expect(error.message).toBe("tasks.execute failed: bad Bearer *** / *** / *** (code -32603, HTTP 401)");
    expect(error.data).toEqual({ echoed: "Bearer *** / *** / ***" });
  });
  it("an RPC error envelope as the first event", async () => {
    const body = data({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "no", data: `key ${echo}` } });
    const error = (await streamError(answering(200, "text/event-stream", body))) as ApflowRpcError;
    expect(error).toBeInstanceOf(ApflowRpcError);
    expect(error).toMatchObject({ rpcMessage: "no", data: "key Bearer *** / *** / ***" });
  });
  it("event data that is not JSON", async () => {
    const body = data(started) + `data: {oops ${echo}\n\n`;
    const error = (await streamError(answering(200, "text/event-stream", body))) as ApflowStreamError;
    expect(error).toBeInstanceOf(ApflowStreamError);
    expect(error).toMatchObject({ rootTaskId: ROOT });
    expect(error.message).toBe(`tasks.execute: an event's data is not JSON: "{oops Bearer *** / *** / ***"`);
  });
  it("a transport failure while opening, with credentials in the base URL", async () => {
    const failing = (async (url: string) => {
      throw new TypeError(`could not reach ${url} with ${echo}`);
    }) as typeof fetch;
    const client = createApflowClient({ baseUrl: "http://admin:sekrit-pass@127.0.0.1:9", ...options, fetch: failing });
    const { error } = await consume(client.streamExecute({ task_id: ROOT }));
    expect(error).toBeInstanceOf(ApflowTransportError);
    expect((error as Error).message).not.toMatch(/sekrit/);
    expect((error as Error).message).toContain("tasks.execute: POST http://admin:***@127.0.0.1:9/tasks failed: could not reach");
  });
  it("a timeout while waiting for the first event", async () => {
    const { url } = await startServer((res) => res.writeHead(200, { "content-type": "text/event-stream" }).write(": keepalive\n\n"));
    const base = url.replace("http://", "http://admin:sekrit-pass@");
    // Node's fetch refuses a URL with userinfo: send it without, as a proxying fetch would.
    const viaPlainUrl = (async (input: string, init: RequestInit) => fetch(input.replace("admin:sekrit-pass@", ""), init)) as typeof globalThis.fetch;
    const { error } = await consume(createApflowClient({ baseUrl: base, ...options, fetch: viaPlainUrl }).streamExecute({ task_id: ROOT }, { timeoutMs: 40 }));
    expect(error).toBeInstanceOf(ApflowTransportError);
    expect((error as Error).message).toBe(`tasks.execute: POST ${url.replace("http://", "http://admin:***@")}/tasks: no answer within 40 ms`);
  });
});
