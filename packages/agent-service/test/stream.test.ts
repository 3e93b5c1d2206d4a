import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiError,
  AuthenticationError,
  NotFoundError,
  RunsClient,
  StreamFrameError,
  StreamProtocolError,
  WaitTimeoutError,
  type SequencedOutputEnvelope,
  type StreamTransport,
  type UnknownFrame,
} from "@flowspec/agent-service";
import { startTestServer, type RunScript, type TestServer } from "@flowspec/agent-service/testing";
import { agentBody, clientFor } from "./support/clients.js";

/** A run that emits `count` message deltas, one per tick, so streams see them arrive live. */
const deltas =
  (count: number): RunScript =>
  async (ctx) => {
    ctx.setStatus("running");
    for (let i = 1; i <= count; i++) {
      ctx.emit({ type: "message.delta", messageId: "m-1", delta: `d${i} ` });
      if (i % 3 === 0) await ctx.tick();
    }
  };
const EVENTS = 40 + 2; // running, 40 deltas, completed

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ script: deltas(40), tickMs: 1, keepaliveMs: 3 });
});
afterAll(() => server.close());

async function collect(iterable: AsyncIterable<SequencedOutputEnvelope>): Promise<number[]> {
  const sequences: number[] = [];
  for await (const envelope of iterable) sequences.push(envelope.sequence);
  return sequences;
}
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe.each<StreamTransport>(["sse", "ndjson"])("stream over %s", (transport) => {
  it("delivers every event once, in order, and ends on the terminal frame", async () => {
    const { client } = clientFor(server);
    const run = await client.create(agentBody());
    const stream = client.stream(run.runId, { transport });
    expect(await collect(stream)).toEqual(range(1, EVENTS));
    expect(stream.terminal).toMatchObject({ type: "end", runId: run.runId, status: "completed", lastSequence: EVENTS });
    expect(stream.reconnects).toBe(0);
  });

  it("delivers every event exactly once across several dropped connections mid-run", async () => {
    const { client, delays } = clientFor(server);
    server.fault({ route: "stream", dropAfterEvents: 5, partialFrame: true, times: 5 });
    const run = await client.create(agentBody());
    const reasons: string[] = [];
    const stream = client.stream(run.runId, { transport, onReconnect: ({ reason }) => reasons.push(reason) });
    expect(await collect(stream)).toEqual(range(1, EVENTS));
    expect(stream.reconnects).toBe(5);
    expect(reasons.every((r) => /connection lost|ended without/.test(r))).toBe(true);
    expect(delays).toEqual([500, 500, 500, 500, 500]); // an arriving envelope resets the backoff
    expect(stream.terminal?.status).toBe("completed");
    if (transport === "sse") expect(server.lastHeaders.stream?.["last-event-id"]).toBe("25");
  });

  it.each([1, 2, 3, 7, 13])("delivers every event exactly once when every connection drops after %i events", async (after) => {
    const { client } = clientFor(server);
    server.fault({ route: "stream", dropAfterEvents: after, partialFrame: after % 2 === 1, times: 100 });
    const run = await client.create(agentBody());
    const stream = client.stream(run.runId, { transport });
    expect(await collect(stream)).toEqual(range(1, EVENTS));
    expect(stream.reconnects).toBeGreaterThanOrEqual(Math.floor(EVENTS / after) - 1);
    server.clearFaults();
  });

  it("resumes after a given sequence", async () => {
    const { client } = clientFor(server);
    const run = await client.create(agentBody());
    await client.waitForCompletion(run.runId);
    expect(await collect(client.stream(run.runId, { transport, afterSequence: 30 }))).toEqual(range(31, EVENTS));
  });

  it("reconnects when the connection goes idle (no keepalives)", async () => {
    const { client } = clientFor(server);
    server.fault({ route: "stream", stallAfterEvents: 4 });
    const run = await client.create(agentBody());
    const stream = client.stream(run.runId, { transport, idleTimeoutMs: 60 });
    expect(await collect(stream)).toEqual(range(1, EVENTS));
    expect(stream.reconnects).toBeGreaterThanOrEqual(1);
  });

  it("reports a malformed frame with its position", async () => {
    const { client } = clientFor(server);
    const run = await client.create(agentBody());
    server.fault({ route: "stream", malformed: "json" });
    const error = (await collect(client.stream(run.runId, { transport })).catch((e: unknown) => e)) as StreamFrameError;
    expect(error).toBeInstanceOf(StreamFrameError);
    // SSE opens with a comment block ": stream open\n\n" (15 bytes, lines 1–2).
    expect(error.position).toEqual(transport === "sse" ? { transport, frameIndex: 1, line: 3, byteOffset: 15 } : { transport, frameIndex: 0, line: 1, byteOffset: 0 });
    expect(error.message).toMatch(/not JSON/);
  });

  it("reports an envelope that fails the schema, with the schema errors", async () => {
    const { client } = clientFor(server);
    const run = await client.create(agentBody());
    server.fault({ route: "stream", malformed: "envelope" });
    const error = (await collect(client.stream(run.runId, { transport })).catch((e: unknown) => e)) as StreamFrameError;
    expect(error).toBeInstanceOf(StreamFrameError);
    expect(error.errors.map((e) => e.path)).toEqual(expect.arrayContaining(["/threadId", "/event/eventId"]));
  });

  it("hands a frame of unknown kind to onUnknownFrame and goes on", async () => {
    const { client } = clientFor(server);
    const run = await client.create(agentBody());
    server.fault({ route: "stream", malformed: "unknown" });
    const unknown: UnknownFrame[] = [];
    expect(await collect(client.stream(run.runId, { transport, onUnknownFrame: (f) => unknown.push(f) }))).toEqual(range(1, EVENTS));
    expect(unknown).toHaveLength(1);
    expect(unknown[0]!.raw).toBe('{"hello":"world"}');
  });

  it("reconnects once over a gap, and fails if the gap persists", async () => {
    const { client } = clientFor(server);
    const run = await client.create(agentBody());
    await client.waitForCompletion(run.runId);
    server.fault({ route: "stream", skipSequence: 7 });
    const stream = client.stream(run.runId, { transport });
    expect(await collect(stream)).toEqual(range(1, EVENTS));
    expect(stream.reconnects).toBe(1);
    server.fault({ route: "stream", skipSequence: 7, times: 2 });
    const error = (await collect(client.stream(run.runId, { transport })).catch((e: unknown) => e)) as StreamProtocolError;
    expect(error).toBeInstanceOf(StreamProtocolError);
    expect(error.details).toMatchObject({ expectedSequence: 7, receivedSequence: 8 });
  });

  it("fetches events missing before the terminal frame from the event list", async () => {
    const { client } = clientFor(server);
    const run = await client.create(agentBody());
    await client.waitForCompletion(run.runId);
    const eventsBefore = server.requests.events;
    server.fault({ route: "stream", skipSequence: EVENTS });
    expect(await collect(client.stream(run.runId, { transport }))).toEqual(range(1, EVENTS));
    expect(server.requests.events).toBe(eventsBefore + 1);
  });
});

describe("stream: thread filter", () => {
  it("delivers the run's thread, and nothing (but the end) for another thread, without gap errors", async () => {
    const { client } = clientFor(server);
    const run = await client.create(agentBody({ threadId: "thread-x" }));
    await client.waitForCompletion(run.runId);
    expect(await collect(client.stream(run.runId, { threadId: "thread-x" }))).toEqual(range(1, EVENTS));
    const other = client.stream(run.runId, { threadId: "thread-y" });
    expect(await collect(other)).toEqual([]);
    expect(other.terminal).toMatchObject({ lastSequence: EVENTS });
    expect(other.lastSequence).toBe(EVENTS);
  });
});

describe("stream: consumers", () => {
  it("does not count a slow consumer's pause as an idle connection", async () => {
    const { client } = clientFor(server);
    const run = await client.create(agentBody()); // still running while the consumer pauses
    const pausedAt: number[] = [];
    // A reconnect before the first event (a slow connect on a busy machine) is not what this is about.
    const stream = client.stream(run.runId, { idleTimeoutMs: 150, onReconnect: ({ lastSequence }) => lastSequence > 0 && pausedAt.push(lastSequence) });
    const sequences: number[] = [];
    for await (const envelope of stream) {
      sequences.push(envelope.sequence);
      if (envelope.sequence === 1) await new Promise((r) => setTimeout(r, 450));
    }
    expect(sequences).toEqual(range(1, EVENTS));
    expect(pausedAt).toEqual([]);
  });

  it("an aborted signal stops delivery at once, also of events already received", async () => {
    const { client } = clientFor(server);
    const run = await client.create(agentBody());
    await client.waitForCompletion(run.runId); // the whole replay and the end arrive in a few chunks
    const controller = new AbortController();
    const reason = new Error("enough");
    const seen: number[] = [];
    const stream = client.stream(run.runId, { signal: controller.signal });
    const outcome = await (async () => {
      for await (const envelope of stream) {
        seen.push(envelope.sequence);
        if (envelope.sequence === 2) controller.abort(reason);
      }
    })().catch((e: unknown) => e);
    expect(outcome).toBe(reason);
    expect(seen).toEqual([1, 2]);
    expect(stream.lastSequence).toBe(2);
    expect(stream.terminal).toBeUndefined();
  });

  it("takes idleTimeoutMs: Infinity as no idle timeout, without a timer that overflows to 1 ms", async () => {
    const overflows: string[] = [];
    const onWarning = (warning: Error) => void (warning.name === "TimeoutOverflowWarning" && overflows.push(warning.message));
    process.on("warning", onWarning);
    try {
      const { client } = clientFor(server);
      const run = await client.create(agentBody());
      const stream = client.stream(run.runId, { idleTimeoutMs: Infinity });
      expect(await collect(stream)).toEqual(range(1, EVENTS));
      expect(stream.reconnects).toBe(0);
      await new Promise((r) => setTimeout(r, 5)); // warnings are emitted on a later tick
      expect(overflows).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("reports lastSequence as the last event handed out, also after break", async () => {
    const { client } = clientFor(server);
    const run = await client.create(agentBody());
    await client.waitForCompletion(run.runId);
    const stream = client.stream(run.runId);
    for await (const envelope of stream) if (envelope.sequence === 5) break;
    expect(stream.lastSequence).toBe(5);
    expect(stream.terminal).toBeUndefined();
    expect(() => stream[Symbol.asyncIterator]()).toThrow(/only once/);
  });
});

describe("stream: connecting", () => {
  it("retries 429 (honouring Retry-After) and 5xx on connect, fails at once on 401 and 404", async () => {
    const { client, delays } = clientFor(server);
    const run = await client.create(agentBody());
    server.fault({ route: "stream", status: 429, retryAfter: "2" });
    server.fault({ route: "stream", status: 503 });
    expect(await collect(client.stream(run.runId))).toEqual(range(1, EVENTS));
    expect(delays[0]).toBe(2000);
    server.fault({ route: "stream", status: 401 });
    await expect(collect(client.stream(run.runId))).rejects.toBeInstanceOf(AuthenticationError);
    await expect(collect(client.stream("no-such-run"))).rejects.toBeInstanceOf(NotFoundError);
  });

  it("reads a JSON error envelope answered to the stream request as the typed error, with code and request id", async () => {
    const client = new RunsClient({
      baseUrl: "http://127.0.0.1:9",
      orgId: "o",
      token: "t",
      fetch: async () =>
        new Response(JSON.stringify({ code: 4099, message: "stream not available" }), { status: 200, headers: { "content-type": "application/json", "x-request-id": "req-s" } }),
    });
    const error = await collect(client.stream("run-1")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200, code: 4099, requestId: "req-s", serverMessage: "stream not available" });
  });

  it("gives up after maxReconnects consecutive failures", async () => {
    const { client } = clientFor(server);
    const run = await client.create(agentBody());
    server.fault({ route: "stream", dropAfterEvents: 0, times: 10 });
    const error = await collect(client.stream(run.runId, { maxReconnects: 3 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamProtocolError);
    expect((error as Error).message).toMatch(/after 3 reconnects/);
    server.clearFaults();
  });

  it("finishes when the run has ended and nothing is missing after a drop", async () => {
    const { client } = clientFor(server);
    const run = await client.create(agentBody());
    await client.waitForCompletion(run.runId);
    server.fault({ route: "stream", dropAfterEvents: EVENTS });
    const stream = client.stream(run.runId);
    expect(await collect(stream)).toEqual(range(1, EVENTS));
    expect(stream.terminal).toMatchObject({ lastSequence: EVENTS, status: "completed" });
    expect(stream.reconnects).toBe(0);
  });

  it("break closes the connection and does not cancel the run; an aborted signal rejects with its reason", async () => {
    const s = await startTestServer({ keepaliveMs: 5, script: async (ctx) => void (await ctx.requestInteraction({ q: 1 })) });
    try {
      const { client } = clientFor(s);
      const run = await client.create(agentBody());
      for await (const envelope of client.stream(run.runId)) {
        if (envelope.event.type === "interaction.requested") break;
      }
      expect((await client.get(run.runId)).status).toBe("blocked");
      const controller = new AbortController();
      const reason = new Error("stop");
      setTimeout(() => controller.abort(reason), 20);
      await expect(collect(client.stream(run.runId, { signal: controller.signal }))).rejects.toBe(reason);
      expect((await client.get(run.runId)).status).toBe("blocked");
    } finally {
      await s.close();
    }
  });

  it("waitForCompletion times out with WaitTimeoutError without cancelling, then returns the final run", async () => {
    const s = await startTestServer({ keepaliveMs: 5, script: async (ctx) => void (await ctx.requestInteraction({ q: 1 })) });
    try {
      const { client } = clientFor(s);
      const run = await client.create(agentBody());
      await expect(client.waitForCompletion(run.runId, { timeoutMs: 50 })).rejects.toBeInstanceOf(WaitTimeoutError);
      const blocked = await client.get(run.runId);
      expect(blocked.status).toBe("blocked");
      const waiting = client.waitForCompletion(run.runId);
      await client.respondToInteraction(run.runId, blocked.blockingInteractionId!, { decision: "approve" });
      const final = await waiting;
      expect(final).toMatchObject({ status: "completed", finishedAt: expect.any(String) });
      expect(await client.waitForCompletion(run.runId)).toMatchObject({ status: "completed" });
    } finally {
      await s.close();
    }
  });
});
