import { afterEach, describe, expect, it } from "vitest";
import { createHttpClient, type PeerOptions } from "@flowspec/runtime/jsonrpc";
import { createStreamableHttpListener, listenHttp, type StreamableHttpOptions } from "@flowspec/runtime/node";

const stops: (() => unknown)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function serve(options: StreamableHttpOptions) {
  const { listener, peer } = createStreamableHttpListener(options);
  const server = await listenHttp(listener);
  stops.push(() => server.close());
  return { url: server.url, peer };
}

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const post = (url: string, message: unknown, init: { headers?: Record<string, string>; signal?: AbortSignal } = {}) =>
  fetch(url, { method: "POST", headers: { ...HEADERS, ...init.headers }, body: JSON.stringify(message), signal: init.signal });

/** Reads SSE events from a response until `count` have arrived; resolves with them parsed. */
async function events(reader: ReadableStreamDefaultReader<string>, count: number, seen = { text: "" }) {
  while (seen.text.split("\n\n").length - 1 < count) {
    const { done, value } = await reader.read();
    if (done) break;
    seen.text += value;
  }
  return seen.text.split("\n\n").slice(0, count).map((event) => JSON.parse(event.replace(/^data: /, "")));
}

async function until(condition: () => boolean) {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!condition()) throw new Error("timed out waiting");
}

describe("createStreamableHttpListener", () => {
  it("reads Content-Type and Accept as media types: any case, with parameters", async () => {
    const { url } = await serve({ handlers: { echo: (params) => params } });
    const headers = { "content-type": "Application/JSON; charset=UTF-8", accept: "Application/Json;q=0.9, Text/Event-Stream" };
    expect((await post(url, { jsonrpc: "2.0", method: "note", params: {} }, { headers })).status).toBe(202);
    const answer = await post(url, { jsonrpc: "2.0", id: 1, method: "echo", params: [1] }, { headers });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ jsonrpc: "2.0", id: 1, result: [1] });
    expect((await post(url, {}, { headers: { "content-type": "text/plain" } })).status).toBe(415);
    expect((await post(url, {}, { headers: { accept: "application/json" } })).status).toBe(406);
  });

  it("fails a handler's call back when the client goes away before answering it, instead of leaving it pending", async () => {
    const outcome: string[] = [];
    const handlers: PeerOptions["handlers"] = {
      twice: async (params, rpc) => {
        try {
          return 2 * (await rpc.request<number>("base", params));
        } catch (error) {
          outcome.push((error as Error).message);
          throw error;
        }
      },
    };
    const { url, peer } = await serve({ handlers, streams: () => true });
    const controller = new AbortController();
    const response = await post(url, { jsonrpc: "2.0", id: 1, method: "twice", params: 1 }, { signal: controller.signal });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect(await events(reader, 1)).toMatchObject([{ method: "base", params: 1 }]);
    controller.abort();
    await until(() => outcome.length > 0);
    expect(outcome[0]).toMatch(/closed/);
    expect(peer.pendingCount).toBe(0);
  });

  it("still takes the answer to a call back made before the final response, though it arrives after it", async () => {
    let unawaited: Promise<unknown> | undefined;
    const { url } = await serve({
      handlers: {
        quick: (params, rpc) => {
          unawaited = rpc.request("base", params);
          return "done";
        },
      },
      streams: () => true,
    });
    const client = createHttpClient({ url, handlers: { base: async (params) => (await new Promise((r) => setTimeout(r, 20)), (params as number) + 1) } });
    expect(await client.request("quick", 1)).toBe("done");
    expect(await unawaited).toBe(2);
  });

  it("fails a call back made after the request's SSE answer has ended", async () => {
    let late: Promise<unknown> | undefined;
    const { url, peer } = await serve({
      handlers: {
        quick: (params, rpc) => {
          setTimeout(() => (late = rpc.request("base", params).catch((error: Error) => error)), 10);
          return "done";
        },
      },
      streams: () => true,
    });
    const response = await post(url, { jsonrpc: "2.0", id: 1, method: "quick", params: 1 });
    expect(await response.text()).toBe('data: {"jsonrpc":"2.0","id":1,"result":"done"}\n\n');
    await until(() => late !== undefined);
    expect(await Promise.race([late, new Promise((r) => setTimeout(() => r("still pending"), 500))])).toBeInstanceOf(Error);
    expect(peer.pendingCount).toBe(0);
  });

  it("fails a pending call back whose POSTed response is malformed, and answers 400", { timeout: 5000 }, async () => {
    const { url, peer } = await serve({ handlers: { twice: async (params, rpc) => 2 * (await rpc.request<number>("base", params)) }, streams: () => true });
    const response = await post(url, { jsonrpc: "2.0", id: "outer", method: "twice", params: 1 });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const seen = { text: "" };
    const [callBack] = await events(reader, 1, seen);
    expect((await post(url, { jsonrpc: "2.0", id: callBack.id, result: null })).status).toBe(400);
    const [, final] = await events(reader, 2, seen);
    expect(final).toMatchObject({ id: "outer", error: { code: -32603, message: expect.stringContaining("invalid response to a call back: a response must carry exactly one of result and error") } });
    expect(peer.pendingCount).toBe(0);
  });
});

describe("review: answers that cannot be written as JSON", () => {
  const unwritable = { bigint: () => ({ n: 1n }), cycle: () => { const a: Record<string, unknown> = {}; a.self = a; return a; }, toJSON: () => ({ toJSON() { throw new Error("no JSON for you"); } }) };

  it.each(Object.keys(unwritable))("answers a JSON-mode %s result with -32603 under the request's id, and keeps serving", async (method) => {
    const { url } = await serve({ handlers: { ...unwritable, echo: (params) => params } });
    const response = await post(url, { jsonrpc: "2.0", id: "bad", method, params: {} });
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", id: "bad", error: { code: -32603, message: expect.stringContaining("cannot be written as JSON") } });
    expect(await (await post(url, { jsonrpc: "2.0", id: "ok", method: "echo", params: 1 })).json()).toEqual({ jsonrpc: "2.0", id: "ok", result: 1 });
  });

  it.each(Object.keys(unwritable))("ends an SSE answer whose %s result cannot be written with a -32603 final response, not an empty stream", async (method) => {
    const { url } = await serve({ handlers: unwritable, streams: () => true });
    const text = await (await post(url, { jsonrpc: "2.0", id: "bad", method, params: {} })).text();
    expect(JSON.parse(text.replace(/^data: /, ""))).toMatchObject({ id: "bad", error: { code: -32603, message: expect.stringContaining("cannot be written as JSON") } });
  });
});

describe("review: a client that goes away while sending its request", () => {
  it("is reported saying what happened, not only 'aborted', and the server keeps serving", async () => {
    const errors: string[] = [];
    const { url } = await serve({ handlers: { echo: (params) => params }, onError: (error) => errors.push(error.message) });
    const { request } = await import("node:http");
    const req = request(url, { method: "POST", headers: { ...HEADERS, "content-length": "1000" } });
    req.on("error", () => undefined);
    req.write('{"jsonrpc":"2.0"');
    await new Promise((r) => setTimeout(r, 50));
    req.destroy();
    await until(() => errors.length > 0);
    expect(errors).toEqual([expect.stringMatching(/^the client closed the connection before its request body was read \(after 16 bytes\): aborted$/)]);
    expect(await (await post(url, { jsonrpc: "2.0", id: "ok", method: "echo", params: 1 })).json()).toEqual({ jsonrpc: "2.0", id: "ok", result: 1 });
  });
});
