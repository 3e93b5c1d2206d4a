import { PassThrough } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { classifyMessage, createLineReader, createPeer, ErrorCode, JsonRpcError, JsonRpcResultError, JsonRpcTransportError, type PeerOptions } from "@flowspec/runtime/jsonrpc";
import { ChildEndedError, connectStreams, spawnPeer } from "@flowspec/runtime/node";

/** Two peers joined by in-memory streams, plus a tap on what the server writes. */
function pair(server: Omit<PeerOptions, "send">, client: Omit<PeerOptions, "send"> = {}, maxLineBytes?: number) {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const serverLines: unknown[] = [];
  toClient.on("data", (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n").filter(Boolean)) serverLines.push(JSON.parse(line));
  });
  const s = connectStreams(toServer, toClient, { ...server, role: "server", maxLineBytes });
  const c = connectStreams(toClient, toServer, { ...client, role: "client" });
  /** Writes raw text to the server and resolves with the next line it writes back. */
  const raw = async (text: string) => {
    const before = serverLines.length;
    toServer.write(text);
    await until(() => serverLines.length > before);
    return serverLines[before];
  };
  return { server: s, client: c, toServer, serverLines, raw };
}

async function until(condition: () => boolean) {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!condition()) throw new Error("timed out waiting");
}

describe("JSON-RPC peer over newline-delimited streams", () => {
  it("calls and answers in both directions", async () => {
    const { client, server } = pair({ handlers: { add: (p) => (p as number[]).reduce((a, b) => a + b, 0) } }, { handlers: { ping: () => "pong" } });
    expect(await client.request("add", [1, 2, 3])).toBe(6);
    expect(await server.request("ping", {})).toBe("pong");
  });

  it("handles requests concurrently: a handler awaiting a call back never blocks the reader", async () => {
    const { client } = pair(
      { handlers: { outer: async (p, ctx) => `outer(${await ctx.request("inner", p)})` } },
      { handlers: { inner: async (p) => `inner(${p})` } },
    );
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => client.request("outer", i)));
    expect(results[199]).toBe("outer(inner(199))");
  });

  it("matches responses by id, whatever the order they come back in", async () => {
    const { client } = pair({ handlers: { wait: (ms) => new Promise((r) => setTimeout(() => r(ms), ms as number)) } });
    const order: number[] = [];
    await Promise.all([30, 1, 15].map((ms) => client.request<number>("wait", ms).then((v) => order.push(v))));
    expect(order).toEqual([1, 15, 30]);
  });

  it.each([
    ["invalid JSON", "{nope\n", { id: null, error: { code: ErrorCode.ParseError } }],
    ["a non-2.0 envelope", '{"jsonrpc":"1.0","id":"a","method":"x"}\n', { id: "a", error: { code: ErrorCode.InvalidRequest } }],
    ["a message without method or id", '{"jsonrpc":"2.0","params":{}}\n', { id: null, error: { code: ErrorCode.InvalidRequest } }],
    ["an unknown method", '{"jsonrpc":"2.0","id":1,"method":"nope","params":{}}\n', { id: 1, error: { code: ErrorCode.MethodNotFound, message: "Method not found: nope" } }],
    ["invalid params", '{"jsonrpc":"2.0","id":2,"method":"echo","params":{"x":1}}\n', { id: 2, error: { code: ErrorCode.InvalidParams } }],
    ["a handler that throws", '{"jsonrpc":"2.0","id":3,"method":"boom","params":{}}\n', { id: 3, error: { code: ErrorCode.InternalError, message: "Internal error: kaboom" } }],
    ["a handler that throws a JsonRpcError", '{"jsonrpc":"2.0","id":4,"method":"custom","params":{}}\n', { id: 4, error: { code: -32001, message: "not here", data: { a: 1 } } }],
  ])("answers %s with the right error and keeps serving", async (_name, text, expected) => {
    const { raw } = pair({
      handlers: {
        echo: (p) => p,
        boom: () => {
          throw new Error("kaboom");
        },
        custom: () => {
          throw new JsonRpcError(-32001, "not here", { a: 1 });
        },
      },
      validateParams: (method, params) => (method === "echo" && (params as { x?: unknown }).x !== undefined ? [{ path: "/x", message: "not allowed", keyword: "x", params: {} }] : undefined),
    });
    expect(await raw(text)).toMatchObject({ jsonrpc: "2.0", ...expected });
    expect(await raw('{"jsonrpc":"2.0","id":"after","method":"echo","params":{}}\n')).toEqual({ jsonrpc: "2.0", id: "after", result: {} });
  });

  it("answers a result that cannot be written as JSON with -32603, instead of leaving the call unanswered", async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const { client } = pair({ handlers: { big: () => ({ n: 1n }), loop: async () => circular, echo: (p) => p } });
    const outcome = (call: Promise<unknown>) => Promise.race([call.catch((error: unknown) => error), new Promise((r) => setTimeout(() => r("unanswered"), 500))]);
    expect(await outcome(client.request("big", {}))).toMatchObject({ code: ErrorCode.InternalError, message: expect.stringMatching(/^Internal error: .*BigInt/) });
    expect(await outcome(client.request("loop", {}))).toMatchObject({ code: ErrorCode.InternalError, message: expect.stringMatching(/^Internal error: .*circular/) });
    expect(await client.request("echo", 1)).toBe(1);
  });

  it("answers nothing to a notification, and hands it over", async () => {
    const seen: unknown[] = [];
    const { raw, toServer } = pair({ handlers: { echo: (p) => p }, onNotification: (method, params) => seen.push([method, params]) });
    toServer.write('{"jsonrpc":"2.0","method":"initialized","params":{}}\n');
    expect(await raw('{"jsonrpc":"2.0","id":"next","method":"echo","params":1}\n')).toMatchObject({ id: "next", result: 1 });
    expect(seen).toEqual([["initialized", {}]]);
  });

  it("discards an oversized line without buffering it, answers -32600 with id null, and keeps serving", async () => {
    const { raw } = pair({ handlers: { echo: (p) => p } }, {}, 1024);
    const big = `{"jsonrpc":"2.0","id":"big","method":"echo","params":"${"x".repeat(5000)}"}\n`;
    expect(await raw(big)).toEqual({ jsonrpc: "2.0", id: null, error: { code: ErrorCode.InvalidRequest, message: expect.stringContaining("exceeds maxLineBytes") } });
    expect(await raw('{"jsonrpc":"2.0","id":"small","method":"echo","params":1}\n')).toMatchObject({ id: "small", result: 1 });
  });

  it("takes timeoutMs: Infinity and timeouts past 2^31 - 1 ms as what they say, not as 1 ms", async () => {
    const { client } = pair({ handlers: { later: () => new Promise((resolve) => setTimeout(() => resolve("done"), 30)) } });
    expect(await client.request("later", {}, { timeoutMs: Infinity })).toBe("done");
    expect(await client.request("later", {}, { timeoutMs: 2 ** 31 })).toBe("done");
  });

  it("takes timeoutMs: 0 as no timeout, as the agents.json, apflow and Agent Service clients do (it timed out at once)", async () => {
    const { client } = pair({ handlers: { later: () => new Promise((resolve) => setTimeout(() => resolve("done"), 30)) } });
    expect(await client.request("later", {}, { timeoutMs: 0 })).toBe("done");
  });

  // Every call's promise is made by one shared executor that hands its resolving functions to the
  // call's bookkeeping (no closure per call): each answer must still reach its own call, and a write
  // that fails must still fail the call it was for.
  it("settles each of many calls in flight with its own answer, answered out of order", async () => {
    const sent: { id: number; method: string; params: unknown }[] = [];
    let last = 0;
    const peer = createPeer({ send: (message) => void sent.push(message as (typeof sent)[number]), nextId: () => ++last });
    const calls = Array.from({ length: 1000 }, (_, i) => peer.request<number>("double", i));
    expect(peer.pendingCount).toBe(1000);
    for (const { id, params } of [...sent].reverse()) peer.receive({ jsonrpc: "2.0", id, result: (params as number) * 2 });
    expect(await Promise.all(calls)).toEqual(Array.from({ length: 1000 }, (_, i) => i * 2));
    expect(peer.pendingCount).toBe(0);
  });

  it("fails a call whose write throws or rejects, naming the method, and keeps nothing pending", async () => {
    const throwing = createPeer({
      send: () => {
        throw new JsonRpcTransportError("pipe closed");
      },
    });
    await expect(throwing.request("first", {})).rejects.toThrow("cannot send first: pipe closed");
    expect(throwing.pendingCount).toBe(0);
    const rejecting = createPeer({ send: () => Promise.reject(new Error("socket gone")) });
    await expect(rejecting.request("second", {}, { timeoutMs: 60_000 })).rejects.toThrow("cannot send second: socket gone");
    expect(rejecting.pendingCount).toBe(0);
  });

  it("rejects a call whose signal cannot take a listener with what adding it threw", async () => {
    const peer = createPeer({ send: () => undefined });
    const notASignal = { aborted: false } as unknown as AbortSignal;
    await expect(peer.request("m", {}, { signal: notASignal })).rejects.toBeInstanceOf(TypeError);
    expect(peer.pendingCount).toBe(0);
  });

  it("a call answered before its timeout or abort resolves, and neither fires later", async () => {
    const sent: { id: number }[] = [];
    let last = 0;
    const peer = createPeer({ send: (message) => void sent.push(message as { id: number }), nextId: () => ++last });
    const controller = new AbortController();
    const call = peer.request("quick", {}, { timeoutMs: 30, signal: controller.signal });
    peer.receive({ jsonrpc: "2.0", id: sent[0]!.id, result: "done" });
    expect(await call).toBe("done");
    controller.abort(new Error("too late"));
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(peer.pendingCount).toBe(0);
  });

  it("times out, aborts, and fails pending calls when the connection closes", async () => {
    const { client, toServer } = pair({ handlers: { never: () => new Promise(() => undefined) } });
    await expect(client.request("never", {}, { timeoutMs: 20 })).rejects.toThrow(/never timed out after 20 ms/);
    const controller = new AbortController();
    const aborted = client.request("never", {}, { signal: controller.signal });
    controller.abort(new Error("stop"));
    await expect(aborted).rejects.toThrow("stop");
    const pending = client.request("never", {});
    toServer.end();
    (client as { close(): void }).close();
    await expect(pending).rejects.toBeInstanceOf(JsonRpcTransportError);
    expect(client.pendingCount).toBe(0);
  });

  it("fails a pending call whose response is malformed, instead of leaving it pending, and answers nothing to it", async () => {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const written: { id: unknown; method?: string }[] = [];
    toServer.on("data", (chunk: Buffer) => written.push(...chunk.toString().split("\n").filter(Boolean).map((line) => JSON.parse(line))));
    const client = connectStreams(toClient, toServer, { role: "client" });
    const call = client.request("x", {}).catch((error: unknown) => error);
    await until(() => written.length === 1);
    // "result": null counts as absent (protocol notes §2.2): not a valid response.
    toClient.write(JSON.stringify({ jsonrpc: "2.0", id: written[0]!.id, result: null }) + "\n");
    const error = await Promise.race([call, new Promise((r) => setTimeout(() => r("still pending"), 500))]);
    expect(error).toBeInstanceOf(JsonRpcTransportError);
    expect((error as Error).message).toMatch(/invalid response to x: .*exactly one of result and error/);
    expect(client.pendingCount).toBe(0);
    await new Promise((r) => setTimeout(r, 10));
    expect(written).toHaveLength(1);
  });

  it("rejects with the error response, or with JsonRpcResultError for a result that fails validation", async () => {
    const { client } = pair({ handlers: { bad: () => ({ wrong: true }), fail: () => Promise.reject(new JsonRpcError(-32004, "nope")) } });
    await expect(client.request("fail", {})).rejects.toMatchObject({ code: -32004, message: "nope" });
    const { client: strict } = pair(
      { handlers: { bad: () => ({ wrong: true }) } },
      { validateResult: (_m, r) => ((r as { ok?: unknown }).ok === undefined ? [{ path: "/ok", message: "missing", keyword: "required", params: {} }] : undefined) },
    );
    await expect(strict.request("bad", {})).rejects.toBeInstanceOf(JsonRpcResultError);
  });
});

describe("createLineReader", () => {
  it("splits across chunk boundaries, drops \\r, and reports oversized lines once", () => {
    const lines: string[] = [];
    const oversized: number[] = [];
    const reader = createLineReader((l) => lines.push(l), (n) => oversized.push(n), 8);
    const bytes = (s: string) => new TextEncoder().encode(s);
    reader.push(bytes("ab"));
    reader.push(bytes("c\r\nde"));
    reader.push(bytes("f\n0123456789"));
    reader.push(bytes("abcdef\nok\nté"));
    reader.end();
    expect(lines).toEqual(["abc", "def", "ok", "té"]);
    expect(oversized).toEqual([16]);
  });

  it("delivers every line of a chunk, whether the chunk is read in one go or line by line", () => {
    const text = "é1\r\n{\"a\":\"ü\"}\n\n" + "x".repeat(7) + "\n" + "y".repeat(11) + "\nlast\n";
    const bytes = new TextEncoder().encode(text);
    const expected = { lines: ["é1", '{"a":"ü"}', "", "xxxxxxx"], oversized: [11], after: ["last"] };
    // Whole chunk: the run up to the last newline is longer than maxLineBytes, so lines are checked one by one.
    const read = (chunks: Uint8Array[], max: number) => {
      const lines: string[] = [];
      const oversized: number[] = [];
      const reader = createLineReader((l) => lines.push(l), (n) => oversized.push(n), max);
      for (const chunk of chunks) reader.push(chunk);
      reader.end();
      return { lines, oversized };
    };
    expect(read([bytes], 10)).toEqual({ lines: [...expected.lines, ...expected.after], oversized: expected.oversized });
    // Byte by byte (a multi-byte character split across chunks), and with a limit no line reaches.
    expect(read([...bytes].map((b) => Uint8Array.of(b)), 10)).toEqual({ lines: [...expected.lines, ...expected.after], oversized: expected.oversized });
    expect(read([bytes], 1024).lines).toEqual([...expected.lines, "y".repeat(11), ...expected.after]);
  });
});

describe("createLineReader on a pipe, which cuts lines anywhere", () => {
  it("ends a line begun in an earlier chunk, then decodes the chunk's other complete lines in one call", () => {
    const lines: string[] = [];
    const reader = createLineReader((l) => lines.push(l), () => undefined);
    const bytes = (s: string) => new TextEncoder().encode(s);
    reader.push(bytes('{"a":1}\n{"b":'));
    const decode = vi.spyOn(TextDecoder.prototype, "decode");
    try {
      reader.push(bytes('2}\n{"c":3}\n{"d":4}\n{"e":"é"}\n{"f"'));
      expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}', '{"d":4}', '{"e":"é"}']);
      // The cut line, then the three after it together (was one call per line: 4).
      expect(decode).toHaveBeenCalledTimes(2);
      reader.push(bytes(":6}\n"));
      expect(lines.at(-1)).toBe('{"f":6}');
    } finally {
      decode.mockRestore();
    }
  });
});

describe("classifyMessage", () => {
  it("marks an invalid message without a method as a response, and one with a method as not", () => {
    expect(classifyMessage({ jsonrpc: "2.0", id: 1, result: null })).toMatchObject({ kind: "invalid", id: 1, response: true });
    expect(classifyMessage({ jsonrpc: "1.0", id: "a", error: { code: 1, message: "x" } })).toMatchObject({ kind: "invalid", id: "a", response: true });
    expect(classifyMessage({ jsonrpc: "2.0", id: 1, method: 5 })).toMatchObject({ kind: "invalid", id: 1, response: false });
    expect(classifyMessage([1])).toMatchObject({ kind: "invalid", id: null, response: false });
  });
});

describe("createPeer's receive", () => {
  // The peer tells requests and results apart without classifyMessage; near misses must still get
  // what classifyMessage says about them.
  const near = [
    { jsonrpc: "2.0", id: 2 ** 53, method: "echo" },
    { jsonrpc: "2.0", id: 1.5, method: "echo" },
    { jsonrpc: "2.0", id: null, method: "echo" },
    { jsonrpc: "1.0", id: 1, method: "echo" },
    { jsonrpc: "2.0", id: true, method: "echo" },
    { jsonrpc: "2.0", id: 7, result: 1, error: { code: 1, message: "x" } },
    { jsonrpc: "2.0", id: 7, result: null },
    { jsonrpc: "2.0", id: 7.5, result: 1 },
    { jsonrpc: "2.0", id: null, result: 1 },
    { jsonrpc: "1.0", id: 7, result: 1 },
  ];
  it.each(near)("answers or reports %j as classifyMessage classifies it", (message) => {
    const sent: unknown[] = [];
    const errors: Error[] = [];
    const peer = createPeer({ send: (m) => void sent.push(m), handlers: { echo: () => "handled" }, onError: (e) => errors.push(e), nextId: () => 7 });
    const call = peer.request("x", {}).then(
      () => "resolved",
      (error: Error) => error.message,
    );
    sent.length = 0;
    peer.receive(message);
    const classified = classifyMessage(message);
    expect(classified.kind).toBe("invalid");
    if (classified.kind !== "invalid") return;
    if (classified.response && classified.id === 7) {
      expect(sent).toEqual([]);
      return expect(call).resolves.toMatch(`invalid response to x: ${classified.reason}`);
    }
    expect(sent).toEqual([{ jsonrpc: "2.0", id: classified.id, error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${classified.reason}` } }]);
    expect(errors.map((e) => e.message)).toEqual([expect.stringContaining(classified.reason)]);
    expect(peer.pendingCount).toBe(1);
  });

  it("resolves a call with what resolveWith makes of its valid result, and rejects it with what resolveWith throws", async () => {
    const seen: unknown[] = [];
    let id = 0;
    const peer = createPeer({
      send: () => undefined,
      nextId: () => ++id,
      validateResult: (method, result) => (method === "checked" && typeof result !== "number" ? [{ path: "", message: "must be a number", keyword: "type", params: {} }] : undefined),
      resolveWith: (method, result) => {
        seen.push([method, result]);
        if (method === "throws") throw new Error("cannot pick");
        return (result as { output?: unknown }).output ?? result;
      },
    });
    const picked = peer.request("execute", {});
    const thrown = peer.request("throws", {});
    const refused = peer.request("checked", {});
    peer.receive({ jsonrpc: "2.0", id: 1, result: { output: "out" } });
    peer.receive({ jsonrpc: "2.0", id: 2, result: 5 });
    peer.receive({ jsonrpc: "2.0", id: 3, result: "five" });
    await expect(picked).resolves.toBe("out");
    await expect(thrown).rejects.toThrow("cannot pick");
    await expect(refused).rejects.toBeInstanceOf(JsonRpcResultError);
    // A result that fails validation never reaches resolveWith.
    expect(seen).toEqual([
      ["execute", { output: "out" }],
      ["throws", 5],
    ]);
    expect(peer.pendingCount).toBe(0);
  });

  it("handles a valid request and resolves a call from a valid result", async () => {
    const sent: unknown[] = [];
    const peer = createPeer({ send: (m) => void sent.push(m), handlers: { echo: (params) => params }, nextId: () => "c" });
    const call = peer.request("x", {});
    peer.receive({ jsonrpc: "2.0", id: "c", result: { ok: 1 } });
    peer.receive({ jsonrpc: "2.0", id: 2 ** 53 - 1, method: "echo", params: [1] });
    await expect(call).resolves.toEqual({ ok: 1 });
    expect(sent.at(-1)).toEqual({ jsonrpc: "2.0", id: 2 ** 53 - 1, result: [1] });
  });
});

describe("connectStreams", () => {
  it("writes the messages sent in one turn of the event loop with one write, in order", async () => {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    connectStreams(toServer, toClient, { role: "server", handlers: { echo: (params) => params } });
    const writes: string[] = [];
    toClient.on("data", (chunk: Buffer) => writes.push(chunk.toString()));
    toServer.write(Array.from({ length: 5 }, (_, i) => JSON.stringify({ jsonrpc: "2.0", id: i, method: "echo", params: [i] })).join("\n") + "\n");
    await until(() => writes.length > 0);
    await new Promise((r) => setTimeout(r, 10));
    expect(writes).toHaveLength(1);
    expect(writes[0]!.split("\n").filter(Boolean).map((line) => JSON.parse(line).result)).toEqual([[0], [1], [2], [3], [4]]);
  });

  it("writes a large batch in pieces of about 4 KiB as it grows, so the other side can start on it", async () => {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    connectStreams(toServer, toClient, { role: "server", handlers: { echo: (params) => params } });
    const writes: string[] = [];
    toClient.on("data", (chunk: Buffer) => writes.push(chunk.toString()));
    const padding = "x".repeat(200);
    toServer.write(Array.from({ length: 100 }, (_, i) => JSON.stringify({ jsonrpc: "2.0", id: i, method: "echo", params: [i, padding] })).join("\n") + "\n");
    await until(() => writes.join("").split("\n").length > 100);
    expect(writes.length).toBeGreaterThan(4);
    for (const write of writes.slice(0, -1)) expect(write.length).toBeGreaterThanOrEqual(4096);
    expect(writes.join("").split("\n").filter(Boolean).map((line) => JSON.parse(line).id)).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });
});

describe("maxLineBytes", () => {
  it.each([0, -1, 1.5, Number.NaN])("is refused when it is %s, as createHttpClient refuses such a maxMessageBytes", async (maxLineBytes) => {
    const message = `maxLineBytes must be a positive integer, got ${maxLineBytes}`;
    expect(() => connectStreams(new PassThrough(), new PassThrough(), { role: "client", maxLineBytes })).toThrow(new RangeError(message));
    // Before the child is started, not in its 'spawn' event where the throw would escape.
    await expect(spawnPeer({ command: process.execPath, args: ["-e", "setTimeout(() => {}, 60000)"], env: {} }, { maxLineBytes })).rejects.toThrow(new RangeError(message));
  });
});

describe("an answer over maxLineBytes, on the client side", () => {
  /** A client whose "server" answers each request with `answer(id)` as one raw line. */
  function client(answer: (id: unknown) => string) {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const errors: Error[] = [];
    toServer.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n").filter(Boolean)) toClient.write(answer((JSON.parse(line) as { id: unknown }).id) + "\n");
    });
    const peer = connectStreams(toClient, toServer, { role: "client", maxLineBytes: 100, onError: (error) => errors.push(error) });
    return { peer, errors };
  }
  const big = "x".repeat(500);

  it.each([
    ["the id first", (id: unknown) => `{"id":${JSON.stringify(id)},"jsonrpc":"2.0","result":"${big}"}`],
    ["jsonrpc, then the id", (id: unknown) => `{ "jsonrpc" : "2.0" , "id" : ${JSON.stringify(id)}, "result": "${big}"}`],
  ])("fails the call the line answered when the line starts with its id (%s)", async (_name, answer) => {
    const { peer, errors } = client(answer);
    const error = await peer.request("work", {}, { timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcTransportError);
    expect((error as Error).message).toMatch(/^the answer to request "[^"]+" was discarded: message exceeds maxLineBytes \(\d+ bytes > 100\)$/);
    expect(errors).toEqual([]);
  });

  it("reports a line whose id comes after a nested value through onError, and leaves the call to its timeout", async () => {
    const { peer, errors } = client((id) => `{"jsonrpc":"2.0","result":{"id":"not this one","data":"${big}"},"id":${JSON.stringify(id)}}`);
    await expect(peer.request("work", {}, { timeoutMs: 50 })).rejects.toThrow(/timed out/);
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/^discarded an incoming line: message exceeds maxLineBytes/)]);
  });
});

describe("spawnPeer", () => {
  it("fails calls in flight and later calls with how the child exited and its last stderr lines", async () => {
    // Exits as soon as a request arrives, with a partial last line on stderr.
    const dies = "process.stdin.on('data', () => { for (let i = 0; i < 30; i++) console.error('line ' + i); process.stderr.write('last words'); process.exit(3); });";
    const { peer } = await spawnPeer({ command: process.execPath, args: ["-e", dies] }, {});
    const error = await peer.request("work", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChildEndedError);
    expect(error).toMatchObject({ command: process.execPath, exit: "code 3" });
    expect((error as ChildEndedError).stderr).toEqual([...Array.from({ length: 19 }, (_, i) => `line ${i + 11}`), "last words"]);
    expect((error as Error).message).toBe(`"${process.execPath}" exited (code 3); its stderr ended with:\n${(error as ChildEndedError).stderr.join("\n")}`);
    await expect(peer.request("again", {})).rejects.toThrow(`cannot call again: "${process.execPath}" exited (code 3)`);
  });

  it("fails calls when the child closes its stdout and keeps running, saying so", async () => {
    const closes = "process.stdout.end(); console.error('closing stdout'); setTimeout(() => {}, 5000);";
    const { peer, close } = await spawnPeer({ command: process.execPath, args: ["-e", closes] }, {});
    try {
      const error = await peer.request("work", {}).catch((e: unknown) => e);
      expect((error as Error).message).toContain(`"${process.execPath}" closed its stdout; its stderr ended with:\nclosing stdout`);
    } finally {
      await close();
    }
  });

  it("close() ends a child that ignores stdin's end and SIGTERM, instead of hanging", { timeout: 15_000 }, async () => {
    const stubborn = "process.on('SIGTERM', () => {}); process.stdin.on('data', () => {}); process.stdin.on('end', () => {}); setInterval(() => {}, 1000); process.stderr.write('ready\\n');";
    let ready!: () => void;
    const started = new Promise<void>((r) => (ready = r));
    const { child, close, peer } = await spawnPeer({ command: process.execPath, args: ["-e", stubborn], onStderr: (line) => line === "ready" && ready() }, {});
    await started;
    const pending = peer.request("never", {}).catch((error: unknown) => error);
    const outcome = await Promise.race([close().then(() => "closed"), new Promise((r) => setTimeout(() => r("still open"), 10_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    expect(outcome).toBe("closed");
    expect(child.signalCode).toBe("SIGKILL");
    expect(await pending).toBeInstanceOf(JsonRpcTransportError);
  });
});

describe("review: a result whose toJSON throws", () => {
  it("is answered with -32603 under the request's id over stdio, not left unanswered", async () => {
    const { raw } = pair({ handlers: { bad: () => ({ toJSON() { throw new Error("no JSON for you"); } }) } });
    expect(await raw('{"jsonrpc":"2.0","id":"bad","method":"bad","params":{}}\n')).toMatchObject({ id: "bad", error: { code: -32603, message: expect.stringContaining("no JSON for you") } });
  });
});

describe("review: a notification with invalid params", () => {
  it("is reported naming the method, where and what is wrong", async () => {
    const errors: string[] = [];
    const { raw, toServer } = pair({ handlers: { echo: (p) => p }, validateParams: (method, params) => (typeof params === "object" && params !== null ? undefined : [{ path: "", message: "must be an object", keyword: "type", params: { type: "object" } }]), onError: (error) => errors.push(error.message) });
    toServer.write('{"jsonrpc":"2.0","method":"initialized","params":5}\n');
    expect(await raw('{"jsonrpc":"2.0","id":"next","method":"echo","params":{}}\n')).toMatchObject({ id: "next", result: {} });
    expect(errors).toEqual(["ignored notification initialized: invalid params: (root): must be an object"]);
  });
});
