import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createExecutorRegistry, registerBuiltinExecutors, runTaskTree } from "@flowspec/apflow";
import { ApflowStreamError, createApflowClient, ResponseTooLargeError } from "@flowspec/apflow/client";

// A server the client does not control may answer with a body, or a stream event, that never ends.
// Each is cut off at its limit with a typed error, quickly (a test that hangs fails on its timeout),
// and the connection is closed.

const LIMIT = 64 * 1024;
const PIECE = "x".repeat(16 * 1024);

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** Writes `piece` every millisecond until the client goes (16 MB/s: a body that never ends, not enough to fill memory). */
function endless(res: ServerResponse, piece: string): void {
  const timer = setInterval(() => res.write(piece), 1);
  res.once("close", () => clearInterval(timer));
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  let closed!: () => void;
  const closedOnce = new Promise<void>((resolve) => (closed = resolve));
  const server = createServer((req, res) => {
    res.once("close", closed);
    req.resume();
    req.once("end", () => handler(req, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, closed: closedOnce };
}

describe("the apflow client's maxResponseBytes", () => {
  it("fails call() on a body that never ends, with a ResponseTooLargeError naming the method and URL", { timeout: 10_000 }, async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"jsonrpc":"2.0","id":1,"result":"');
      endless(res, PIECE);
    });
    const error = await createApflowClient({ baseUrl: server.url, maxResponseBytes: LIMIT, timeoutMs: 20_000 }).getTask("t").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limit: LIMIT, request: `tasks.get: POST ${server.url}/tasks` });
    expect((error as Error).message).toMatch(new RegExp(`^tasks.get: POST ${server.url}/tasks: the response body exceeds maxResponseBytes \\(at least \\d+ bytes > ${LIMIT}\\)$`));
    await server.closed;
  });

  it("fails streamExecute's non-stream answer on a body that never ends", { timeout: 10_000 }, async () => {
    const server = await serve((_req, res) => {
      res.writeHead(500, { "content-type": "application/json" });
      endless(res, PIECE);
    });
    const stream = createApflowClient({ baseUrl: server.url, maxResponseBytes: LIMIT }).streamExecute({ task_id: "t" });
    const error = await (async () => {
      for await (const _ of stream) void _;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    await expect(stream.result).rejects.toBe(error);
    await server.closed;
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses maxResponseBytes and maxEventBytes %s", (value) => {
    expect(() => createApflowClient({ baseUrl: "http://127.0.0.1:9", maxResponseBytes: value })).toThrow(new RangeError(`maxResponseBytes must be a positive integer, got ${value}`));
    expect(() => createApflowClient({ baseUrl: "http://127.0.0.1:9", maxEventBytes: value })).toThrow(new RangeError(`maxEventBytes must be a positive integer, got ${value}`));
  });
});

describe("streamExecute's maxEventBytes", () => {
  it.each([
    ["the first event", ""],
    ["an event after the first", `data: {"jsonrpc":"2.0","id":1,"result":{"root_task_id":"root"}}\n\n`],
  ])("ends the stream on %s that never ends, with ApflowStreamError", { timeout: 10_000 }, async (_name, before) => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`${before}data: "`);
      endless(res, PIECE);
    });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of createApflowClient({ baseUrl: server.url, maxEventBytes: LIMIT }).streamExecute({ task_id: "t" })) seen.push(event.type);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApflowStreamError);
    expect((error as Error).message).toMatch(new RegExp(`^tasks.execute: an event exceeds maxEventBytes \\(at least \\d+ bytes > ${LIMIT}\\); the stream was closed$`));
    expect(seen).toEqual(before ? ["started"] : []);
    await server.closed;
  });
});

describe("rest_executor's max_response_bytes", () => {
  it("fails the task on a body that never ends, naming the request and the limit", { timeout: 10_000 }, async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      endless(res, PIECE);
    });
    const task = { id: "t", name: "call", status: "pending" as const, schemas: { method: "rest_executor" }, inputs: { url: `${server.url}/big?token=s3cret`, headers: { authorization: "Bearer s3cret" }, max_response_bytes: LIMIT } };
    const result = await runTaskTree([task], { mode: "wire", registry: registerBuiltinExecutors(createExecutorRegistry()) }).done;
    expect(result.tasks.t).toMatchObject({ status: "failed" });
    expect(result.tasks.t!.error).toMatch(new RegExp(`^GET ${server.url}/big\\?token=\\S+: the response body exceeds max_response_bytes \\(at least \\d+ bytes > ${LIMIT}\\)$`));
    expect(result.tasks.t!.error).not.toContain("s3cret");
    await server.closed;
  });
});
