import { request as httpRequest, type IncomingMessage } from "node:http";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { ErrorCode } from "@flowspec/runtime/jsonrpc";
import { connectStreams, createStreamableHttpListener, listenHttp } from "@flowspec/runtime/node";

const stops: (() => unknown)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function serve(maxBodyBytes?: number) {
  const { listener } = createStreamableHttpListener({ handlers: { echo: (params) => params }, maxBodyBytes });
  const server = await listenHttp(listener);
  stops.push(() => server.close());
  return server.url;
}

/** POSTs a body that never ends (a chunk every millisecond), or only `sent` bytes of a declared `length`; resolves with the answer. */
function postEndless(url: string, declared?: { length: number; sent: number }): Promise<{ status: number; body: string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    if (declared) headers["content-length"] = declared.length;
    const req = httpRequest(url, { method: "POST", headers }, (res: IncomingMessage) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, closed: new Promise<void>((closed) => (req.destroyed ? closed() : req.socket?.once("close", () => closed()))) }));
    });
    // The server drops the connection of a body it refused: an error after the answer is expected.
    let answered = false;
    req.once("response", () => (answered = true));
    req.on("error", (error) => answered || reject(error));
    stops.push(() => req.destroy());
    if (declared) return void req.write("x".repeat(declared.sent));
    const timer = setInterval(() => req.write("x".repeat(16 * 1024)), 1);
    req.once("close", () => clearInterval(timer));
    req.once("response", () => clearInterval(timer));
  });
}

describe("the Streamable HTTP server's maxBodyBytes", () => {
  it("answers 413 as soon as a body that never ends passes the limit, and drops the connection soon after", { timeout: 5_000 }, async () => {
    const url = await serve(64 * 1024);
    const answer = await postEndless(url);
    await answer.closed;
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ jsonrpc: "2.0", id: null, error: { code: ErrorCode.InvalidRequest, message: expect.stringMatching(/^Invalid Request: the body exceeds maxBodyBytes \(at least \d+ bytes > 65536\)$/) } });
  });

  it("answers 413 at once for a Content-Length over the limit, without waiting for the body", { timeout: 5_000 }, async () => {
    const url = await serve();
    const answer = await postEndless(url, { length: 2 ** 30, sent: 1024 });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error.message).toBe(`Invalid Request: the body exceeds maxBodyBytes (Content-Length ${2 ** 30} bytes > ${16 * 1024 * 1024})`);
  });
});

/** An integer id past 2^53 - 1 parses to another number: answered as is, the caller could not match it. */
const BIG_ID = '{"jsonrpc":"2.0","id":9007199254740993,"method":"echo","params":1}';
const INVALID_ID = { jsonrpc: "2.0", id: null, error: { code: ErrorCode.InvalidRequest, message: 'Invalid Request: "id" must be a string or an integer of at most 2^53 - 1 in size' } };

describe("JSON-RPC ids past 2^53 - 1", () => {
  it("are refused with -32600 over stdio, not echoed as another number", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    connectStreams(input, output, { role: "server", handlers: { echo: (params) => params } });
    const line = new Promise<string>((resolve) => output.once("data", (chunk: Buffer) => resolve(chunk.toString())));
    input.write(`${BIG_ID}\n`);
    expect(JSON.parse(await line)).toEqual(INVALID_ID);
  });

  it("are refused with -32600 over HTTP", async () => {
    const url = await serve();
    const answer = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: BIG_ID });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: { code: ErrorCode.InvalidRequest, message: INVALID_ID.error.message } });
  });
});
