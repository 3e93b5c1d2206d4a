import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ResponseTooLargeError, RunsClient, StreamEventTooLargeError, StreamFrameError } from "@flowspec/agent-service";
import { createFrameDecoder, type Frame } from "../src/client/frames.js";

// What a server the client does not control can send: bodies and stream events with no end. Each is
// cut off at the client's limit with a typed error, quickly (a test that hangs fails on its
// timeout), and the connection is closed.

const LIMIT = 64 * 1024;
const PIECE = "x".repeat(16 * 1024);

const servers: { close(): void; closeAllConnections(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** Writes `piece` every millisecond until the client goes: a body that never ends (16 MB/s, not enough to fill memory). */
function endless(res: ServerResponse, piece: string): void {
  const timer = setInterval(() => res.write(piece), 1);
  res.once("close", () => clearInterval(timer));
}

/** A loopback server; `closed` resolves once a response's connection has closed. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  let closed!: () => void;
  const closedOnce = new Promise<void>((resolve) => (closed = resolve));
  const server = createServer((req, res) => {
    res.once("close", closed);
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, closed: closedOnce };
}

const clientOf = (url: string, options: { maxResponseBytes?: number } = {}) =>
  new RunsClient({ baseUrl: url, orgId: "o", token: "t", retry: { maxRetries: 0 }, timeoutMs: 20_000, ...options });

describe("RunsClient's maxResponseBytes", () => {
  it("fails a call whose body never ends at the limit, with a ResponseTooLargeError naming the request, and closes the connection", { timeout: 10_000 }, async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"code":0,"message":"ok","data":"');
      endless(res, PIECE);
    });
    const error = await clientOf(server.url, { maxResponseBytes: LIMIT }).get("r-1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limit: LIMIT, request: `GET ${server.url}/v1/organizations/o/runs/r-1`, declared: false });
    expect((error as ResponseTooLargeError).bytesRead).toBeGreaterThan(LIMIT);
    expect((error as Error).message).toMatch(new RegExp(`^GET ${server.url}/v1/organizations/o/runs/r-1: the response body exceeds maxResponseBytes \\(at least \\d+ bytes > ${LIMIT}\\)$`));
    await server.closed;
  });

  it("fails at once on a Content-Length over the default 16 MiB, without reading the body", { timeout: 10_000 }, async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": 2 ** 30 });
      endless(res, PIECE);
    });
    const error = await clientOf(server.url).get("r-1").catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "ResponseTooLargeError", limit: 16 * 1024 * 1024, bytesRead: 2 ** 30, declared: true });
    await server.closed;
  });

  it("bounds an error answer's body on the stream too", { timeout: 10_000 }, async () => {
    const server = await serve((_req, res) => {
      res.writeHead(503, { "content-type": "application/json" });
      endless(res, PIECE);
    });
    const error = await (async () => {
      for await (const _ of clientOf(server.url, { maxResponseBytes: LIMIT }).stream("r-1")) void _;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    await server.closed;
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses maxResponseBytes %s", (maxResponseBytes) => {
    expect(() => clientOf("http://127.0.0.1:9", { maxResponseBytes })).toThrow(new RangeError(`maxResponseBytes must be a positive integer, got ${maxResponseBytes}`));
  });
});

describe("the run stream's maxEventBytes", () => {
  it.each(["sse", "ndjson"] as const)("ends a %s event that never ends with StreamEventTooLargeError, and closes the connection", { timeout: 10_000 }, async (transport) => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": transport === "sse" ? "text/event-stream" : "application/x-ndjson" });
      res.write(transport === "sse" ? "event: run.stream.event\ndata: " : '{"runId":"r-1","delta":"');
      endless(res, PIECE);
    });
    const error = await (async () => {
      for await (const _ of clientOf(server.url).stream("r-1", { transport, maxEventBytes: LIMIT })) void _;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamEventTooLargeError);
    expect(error).toBeInstanceOf(StreamFrameError);
    expect(error).toMatchObject({ limit: LIMIT, position: { transport, frameIndex: 0, line: 1, byteOffset: 0 } });
    expect((error as Error).message).toMatch(new RegExp(`^bad ${transport} frame #0 at line 1, byte 0: the event exceeds maxEventBytes \\(at least \\d+ bytes > ${LIMIT}\\)$`));
    await server.closed;
  });
});

describe("the frame decoder's maxEventBytes", () => {
  const utf8 = (text: string) => new TextEncoder().encode(text);
  const kinds = (frames: Frame[]) => frames.map((f) => (f.kind === "error" ? `error ${f.error.message}` : f.kind));
  /** A keepalive frame of `bytes` bytes with its line ends: an SSE comment block (2-byte characters) or an NDJSON line. */
  const keepalive = (transport: "sse" | "ndjson", bytes: number) =>
    transport === "sse" ? `: ${"é".repeat((bytes - 4) / 2)}\n\n` : `{"type":"keepalive"${" ".repeat(bytes - 21)}}\n`;

  it.each(["sse", "ndjson"] as const)("takes a %s frame of exactly the limit in bytes, whole or byte by byte, and refuses a larger one", (transport) => {
    for (const split of [false, true]) {
      const push = (text: string) => {
        const decoder = createFrameDecoder(transport, 1000);
        const bytes = utf8(text);
        return kinds(split ? [...bytes].flatMap((byte) => decoder.push(new Uint8Array([byte]))) : decoder.push(bytes));
      };
      expect(utf8(keepalive(transport, 1000)).length).toBe(1000);
      expect(push(keepalive(transport, 1000) + keepalive(transport, 1000))).toEqual(["keepalive", "keepalive"]);
      const [refused, ...rest] = push(keepalive(transport, 1002) + keepalive(transport, 1000));
      expect(refused).toMatch(new RegExp(`^error bad ${transport} frame #0 at line 1, byte 0: the event exceeds maxEventBytes \\((at least )?100[12] bytes > 1000\\)$`));
      expect(rest).toEqual([]);
    }
  });

  it("refuses a frame that ends in a later chunk than its first lines with its whole size, as when it comes in one chunk", () => {
    // The chunk that ends the frame also completes the line left over from the chunk before; that
    // line is read first, and the limit must not be checked on what had arrived up to it.
    const frame = keepalive("sse", 1010);
    const message = "error bad sse frame #0 at line 1, byte 0: the event exceeds maxEventBytes (1010 bytes > 1000)";
    expect(kinds(createFrameDecoder("sse", 1000).push(utf8(frame)))).toEqual([message]);
    for (const at of [3, 500, 1000]) {
      const decoder = createFrameDecoder("sse", 1000);
      const bytes = utf8(frame + keepalive("sse", 100));
      expect(kinds([...decoder.push(bytes.subarray(0, at)), ...decoder.push(bytes.subarray(at))])).toEqual([message]);
    }
  });

  it("reads nothing more after refusing an event", () => {
    const decoder = createFrameDecoder("ndjson", 10);
    expect(kinds(decoder.push(utf8("x".repeat(11))))).toEqual(["error bad ndjson frame #0 at line 1, byte 0: the event exceeds maxEventBytes (at least 11 bytes > 10)"]);
    expect(decoder.push(utf8('\n{"type":"keepalive"}\n'))).toEqual([]);
  });
});

describe("the frame decoder's cost", () => {
  it("copies only the line that a chunk completes, not the whole chunk", () => {
    // Chunks end where a socket read did, so nearly every one starts inside a line; joining the
    // rest of that line with the whole chunk copied every chunk once more.
    const event = (sequence: number) =>
      `id: ${sequence}\nevent: run.stream.event\ndata: ${JSON.stringify({ runId: "r-1", threadId: "t-1", sequence, event: { type: "message.delta", eventId: `e-${sequence}`, createdAt: "2026-12-07T10:00:00Z", delta: "x" } })}\n\n`;
    const bytes = new TextEncoder().encode(Array.from({ length: 400 }, (_, i) => event(i + 1)).join(""));
    const decoder = createFrameDecoder("sse");
    const first = decoder.push(bytes.subarray(0, 100)); // ends inside the first event's data line
    const allocated: number[] = [];
    const Native = globalThis.Uint8Array;
    globalThis.Uint8Array = class extends Native {
      constructor(...args: unknown[]) {
        super(...(args as []));
        if (typeof args[0] === "number") allocated.push(args[0]);
      }
    } as Uint8ArrayConstructor;
    let rest: Frame[];
    try {
      rest = decoder.push(bytes.subarray(100));
    } finally {
      globalThis.Uint8Array = Native;
    }
    expect([...first, ...rest].map((frame) => (frame.kind === "envelope" ? frame.envelope.sequence : frame.kind))).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    expect(Math.max(0, ...allocated)).toBeLessThan(1024);
  });

  // 1 KiB chunks of one large event. Copying and rescanning what is buffered at every chunk took
  // 5.4 s for a 1 MiB data line (and 35 s for 32 MiB in larger chunks); buffering in linear time
  // takes milliseconds. The bound leaves a wide margin for a loaded machine.
  const MIB = 1024 * 1024;
  const CHUNK = 1024;
  const bodies = {
    "one 1 MiB data line": `event: run.stream.keepalive\ndata: {"type":"keepalive","pad":"${"x".repeat(MIB)}"}\n\n`,
    "one event of 75,000 data lines": `event: run.stream.keepalive\ndata: {"type":"keepalive"\n${"data: \n".repeat(MIB / 2 / 7)}data: }\n\n`,
    "one 1 MiB NDJSON line": `{"type":"keepalive","pad":"${"x".repeat(MIB)}"}\n`,
  };

  it.each(Object.entries(bodies))("is linear in the size of an event: %s", { timeout: 60_000 }, (name, text) => {
    const decoder = createFrameDecoder(name.includes("NDJSON") ? "ndjson" : "sse");
    const bytes = new TextEncoder().encode(text);
    const start = performance.now();
    const frames: Frame[] = [];
    for (let at = 0; at < bytes.length; at += CHUNK) frames.push(...decoder.push(bytes.subarray(at, at + CHUNK)));
    const ms = performance.now() - start;
    expect(frames.map((frame) => frame.kind)).toEqual(["keepalive"]);
    expect(ms).toBeLessThan(1_000);
  });
});
