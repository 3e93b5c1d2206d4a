import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpClient, fetchPost, JsonRpcTransportError, type HttpPost } from "@flowspec/runtime/jsonrpc";
import { createNodeHttpPost, createStreamableHttpListener, listenHttp, type RunningHttpServer } from "@flowspec/runtime/node";

const stops: (() => unknown)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function serve(listener: RequestListener): Promise<string> {
  const server: RunningHttpServer = await listenHttp(listener);
  stops.push(() => server.close());
  return server.url;
}

const posts: [string, () => HttpPost][] = [
  ["node:http", () => {
    const post = createNodeHttpPost();
    stops.push(() => post.close());
    return post;
  }],
  ["fetch", () => fetchPost()],
];

describe.each(posts)("createHttpClient through %s", (_name, makePost) => {
  it("gets JSON answers, and SSE answers that carry calls back to the client", async () => {
    const { listener } = createStreamableHttpListener({
      handlers: {
        add: (params) => (params as number[]).reduce((a, b) => a + b, 0),
        twice: async (params, rpc) => 2 * (await rpc.request<number>("base", params)),
      },
      streams: (method) => method === "twice",
    });
    const client = createHttpClient({ url: await serve(listener), post: makePost(), handlers: { base: (params) => (params as number) + 1 } });
    expect(await client.request("add", [1, 2, 3])).toBe(6);
    expect(await Promise.all([client.request("twice", 1), client.request("twice", 10)])).toEqual([4, 22]);
    await client.notify("note", {});
  });

  it("names the URL when the server cannot be reached", async () => {
    const url = await serve(() => undefined);
    for (const stop of stops.splice(0)) await stop();
    const client = createHttpClient({ url, post: makePost() });
    const error = await client.request("add", []).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcTransportError);
    expect((error as Error).message).toMatch(new RegExp(`^POST ${url} failed: .*ECONNREFUSED`));
  });

  it("rejects with the signal's reason when the call is aborted", async () => {
    const client = createHttpClient({ url: await serve(() => undefined), post: makePost() });
    const controller = new AbortController();
    const call = client.request("slow", {}, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("stop")), 20);
    await expect(call).rejects.toThrow("stop");
  });

  it("stops the POST of a call that timed out, so the server sees the client go", async () => {
    const { listener, peer } = createStreamableHttpListener({
      handlers: { slow: async (params, rpc) => rpc.request("base", params) },
      streams: () => true,
    });
    const client = createHttpClient({ url: await serve(listener), post: makePost(), handlers: { base: () => new Promise(() => undefined) } });
    await expect(client.request("slow", 1, { timeoutMs: 50 })).rejects.toThrow("slow timed out after 50 ms");
    // The server fails its call back once the SSE stream answering "slow" closes.
    for (let i = 0; i < 100 && peer.pendingCount > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(peer.pendingCount).toBe(0);
    // With a timeout and a signal, aborting still rejects with the signal's reason.
    const controller = new AbortController();
    const call = client.request("slow", 2, { timeoutMs: 10_000, signal: controller.signal });
    setTimeout(() => controller.abort(new Error("stop")), 20);
    await expect(call).rejects.toThrow("stop");
  });

  it("fails a call whose answer is cut off, ends without the response, or is not JSON-RPC", async () => {
    const url = await serve((req, res) => {
      req.resume();
      if (req.url === "/sse") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end('data: {"jsonrpc":"2.0","method":"note","params":{}}\n\n');
      } else if (req.url === "/cut") {
        res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
        res.write('{"jsonrpc":"2.0"');
        setTimeout(() => res.destroy(), 10);
      } else {
        res.writeHead(500, { "content-type": "text/plain" });
        res.end("boom");
      }
    });
    const cut = createHttpClient({ url: `${url}/cut`, post: makePost() });
    await expect(cut.request("m", {})).rejects.toThrow(new RegExp(`^reading the answer to m from ${url}/cut failed: `));
    const unfinished = createHttpClient({ url: `${url}/sse`, post: makePost() });
    await expect(unfinished.request("m", {})).rejects.toThrow(`the SSE stream answering m from ${url}/sse ended without its final response`);
    const broken = createHttpClient({ url, post: makePost() });
    await expect(broken.request("m", {})).rejects.toThrow(`HTTP 500 from ${url} is not a JSON-RPC message: boom`);
  });
});
