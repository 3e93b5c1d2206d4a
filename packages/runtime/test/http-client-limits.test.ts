import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpClient, DEFAULT_MAX_LINE_BYTES, fetchPost, JsonRpcTransportError, type HttpClient, type HttpPost } from "@flowspec/runtime/jsonrpc";
import { createNodeHttpPost, listenHttp } from "@flowspec/runtime/node";

// What a misbehaving component server can send the client: bodies and SSE events over the
// client's maxMessageBytes, and streams that never end. Each must fail its call with an error
// naming the method, the URL and the limit, without the client buffering it, and quickly: a test
// that hangs fails on its timeout.

const LIMIT = 1000;
/** Endless answers trickle: enough to pass the limit in a few ms, never enough to fill memory. */
const TRICKLE_MS = 5;
const HANG = 5_000;

const stops: (() => unknown)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** Writes `piece` every TRICKLE_MS until the client goes. */
function trickle(res: ServerResponse, piece: string): void {
  const timer = setInterval(() => res.write(piece), TRICKLE_MS);
  res.once("close", () => clearInterval(timer));
}

/** The response line for `id`. */
const answer = (id: unknown, result: unknown) => JSON.stringify({ jsonrpc: "2.0", id, result });

/** A string result whose response is exactly `bytes` bytes long (ids are UUIDs), `wide` of its characters 2-byte ones. */
function resultOfSize(bytes: number, wide: number): string {
  const frame = Buffer.byteLength(answer(crypto.randomUUID(), ""));
  return "é".repeat(wide) + "x".repeat(bytes - frame - 2 * wide);
}

interface Misbehaving {
  url: string;
  /** Resolves when the server sees the connection answering `method` close. */
  closed(method: string): Promise<void>;
}

/** A server that answers each method its own way, most of them wrongly. */
async function misbehaving(): Promise<Misbehaving> {
  const closes = new Map<string, Promise<void>>();
  const server = await listenHttp((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const { id, method, params } = JSON.parse(body) as { id?: number; method?: string; params?: unknown };
      if (id === undefined || method === undefined) return void res.writeHead(202).end();
      closes.set(method, new Promise((resolve) => res.once("close", () => resolve())));
      const sse = () => res.writeHead(200, { "content-type": "text/event-stream" });
      switch (method) {
        case "echo": {
          const text = answer(id, params);
          return void res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) }).end(text);
        }
        case "echo-chunked":
          // No Content-Length: the body is counted as it comes.
          res.writeHead(200, { "content-type": "application/json" });
          return void res.end(answer(id, params));
        case "declared":
          // Declares a gigabyte and sends the start of it, then nothing: the client must not wait for it.
          res.writeHead(200, { "content-type": "application/json", "content-length": String(2 ** 30) });
          return void res.write(`{"jsonrpc":"2.0","id":${id},"result":"`);
        case "endless-json":
          res.writeHead(200, { "content-type": "application/json" });
          res.write(`{"jsonrpc":"2.0","id":${id},"result":"`);
          return trickle(res, "x".repeat(256));
        case "sse-echo": {
          // The data line, then its line end: the client holds the whole line before it knows it is one.
          sse();
          res.write(`data: ${answer(id, params)}`);
          return void setTimeout(() => res.end("\n\n"), 20);
        }
        case "sse-big":
          // An oversized final response, then the stream stays open.
          sse();
          return void res.write(`data: ${answer(id, "x".repeat(2 * LIMIT))}\n\n`);
        case "sse-lines":
          // Data lines forever, never the blank line that ends the event.
          sse();
          return trickle(res, "data: xxxxxxxxxxxxxxxxxxxxxxxx\n");
        case "sse-endless":
          // One data line that never ends.
          sse();
          res.write("data: ");
          return trickle(res, "x".repeat(256));
        default:
          return void res.writeHead(404).end();
      }
    });
  });
  stops.push(() => server.close());
  return {
    url: server.url,
    closed: async (method) => {
      for (let i = 0; i < 100 && !closes.has(method); i++) await new Promise((r) => setTimeout(r, 10));
      return closes.get(method);
    },
  };
}

const posts: [string, () => HttpPost][] = [
  [
    "node:http",
    () => {
      const post = createNodeHttpPost();
      stops.push(() => post.close());
      return post;
    },
  ],
  ["fetch", () => fetchPost()],
];

describe.each(posts)("createHttpClient's maxMessageBytes through %s", (_name, makePost) => {
  let server: Misbehaving;
  let client: HttpClient;
  const start = async () => {
    server = await misbehaving();
    client = createHttpClient({ url: server.url, post: makePost(), maxMessageBytes: LIMIT });
  };
  const failure = (method: string, what: string) =>
    what === "the body"
      ? new RegExp(`^${method}: POST ${server.url}: the response body exceeds maxMessageBytes \\(.*> ${LIMIT}\\)`)
      : new RegExp(`^reading the answer to ${method} from ${server.url} failed: ${what} exceeds maxMessageBytes \\(.*> ${LIMIT}\\)`);

  it.each([
    { name: "a JSON body whose Content-Length is over the limit, without reading it", method: "declared", what: "the body" },
    { name: "a JSON body that passes the limit as it comes", method: "endless-json", what: "the body" },
    { name: "an SSE event whose data is over the limit", method: "sse-big", what: "an SSE event" },
    { name: "an SSE event whose data lines go on without the end of the event", method: "sse-lines", what: "an SSE event" },
    { name: "an SSE data line that never ends", method: "sse-endless", what: "an SSE event" },
  ])("fails $name, and drops the connection", { timeout: HANG }, async ({ method, what }) => {
    await start();
    const error = await client.request(method, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcTransportError);
    expect((error as Error).message).toMatch(failure(method, what));
    if (what === "the body") expect((error as Error).cause).toMatchObject({ name: "ResponseTooLargeError", limit: LIMIT, request: `POST ${server.url}` });
    await server.closed(method);
  });

  it.each([0, 100])("accepts a body or an SSE event of exactly the limit in bytes (%s 2-byte characters), not one more", { timeout: HANG }, async (wide) => {
    await start();
    const exact = resultOfSize(LIMIT, wide);
    for (const method of ["echo", "echo-chunked", "sse-echo"]) expect(await client.request(method, exact)).toBe(exact);
    const over = resultOfSize(LIMIT + 1, wide);
    for (const [method, what] of [["echo", "the body"], ["echo-chunked", "the body"], ["sse-echo", "an SSE event"]] as const) {
      await expect(client.request(method, over)).rejects.toThrow(failure(method, what));
    }
  });

  it("stays usable after a call failed on the limit, for calls made alongside it and after it", { timeout: HANG }, async () => {
    await start();
    const calls = await Promise.allSettled([client.request("sse-endless", {}), client.request("echo", 1), client.request("endless-json", {}), client.request("sse-echo", 2)]);
    expect(calls.map((call) => call.status)).toEqual(["rejected", "fulfilled", "rejected", "fulfilled"]);
    expect(await client.request("echo", 3)).toBe(3);
    expect(await client.request("sse-echo", 4)).toBe(4);
  });
});

describe("createHttpClient's maxMessageBytes", () => {
  it("defaults to the stdio line limit, 16 MiB", { timeout: HANG }, async () => {
    const server = await misbehaving();
    const client = createHttpClient({ url: server.url, post: fetchPost() });
    await expect(client.request("declared", {})).rejects.toThrow(`declared: POST ${server.url}: the response body exceeds maxMessageBytes (Content-Length ${2 ** 30} bytes > ${DEFAULT_MAX_LINE_BYTES})`);
    expect(DEFAULT_MAX_LINE_BYTES).toBe(16 * 1024 * 1024);
  });

  it.each([0, -1, 1.5, Number.NaN])("rejects maxMessageBytes %s", (maxMessageBytes) => {
    expect(() => createHttpClient({ url: "http://127.0.0.1:1", maxMessageBytes })).toThrow(`maxMessageBytes must be a positive integer, got ${maxMessageBytes}`);
  });
});
