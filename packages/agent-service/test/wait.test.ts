import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { WaitTimeoutError } from "@flowspec/agent-service";
import { endFrame, fakeClient, fakeRun, ok, sse } from "./support/fake.js";

const done = { status: "completed", finishedAt: "2026-01-01T00:01:00Z" };

describe("waitForCompletion", () => {
  it("returns a run that is already terminal without opening a stream", async () => {
    const { client, urls } = fakeClient(() => ok(fakeRun(done)));
    await expect(client.waitForCompletion("run-1")).resolves.toMatchObject({ status: "completed" });
    expect(urls).toHaveLength(1);
  });

  it("streams again when the stream ends while the run goes on (an end frame with a non-terminal status)", async () => {
    let streams = 0;
    let gets = 0;
    const { client, urls } = fakeClient((url) => {
      if (url.includes("/stream")) {
        streams++;
        return sse(streams === 1 ? endFrame({ status: "running", lastSequence: 0, reason: "stream length limit" }) : endFrame({ status: "completed", lastSequence: 0 }));
      }
      gets++;
      return ok(fakeRun(gets >= 3 ? done : {}));
    });
    await expect(client.waitForCompletion("run-1")).resolves.toMatchObject({ status: "completed" });
    expect(urls.filter((u) => u.includes("/stream"))).toHaveLength(2);
  });

  it("follows a stream that made progress at once, backing off only after rounds that brought nothing", async () => {
    // The server ends each stream after one event with a non-terminal end frame (a length cap).
    const envelope = (sequence: number) =>
      `id: ${sequence}\nevent: run.stream.event\ndata: ${JSON.stringify({ runId: "run-1", threadId: "thread-1", sequence, event: { type: "message.delta", eventId: `e${sequence}`, createdAt: "2026-01-01T00:00:00Z", delta: "x" } })}\n\n`;
    let gets = 0;
    const { client, delays } = fakeClient((url) => {
      if (url.includes("/stream")) {
        const after = Number(new URL(url).searchParams.get("cursor") ?? 0);
        return sse(after < 3 ? envelope(after + 1) + endFrame({ status: "running", lastSequence: after + 1 }) : endFrame({ status: "running", lastSequence: 3 }));
      }
      gets++;
      return ok(fakeRun(gets >= 6 ? { ...done, eventSequence: 3 } : {}));
    });
    await expect(client.waitForCompletion("run-1")).resolves.toMatchObject({ status: "completed" });
    // Three streams with an event each follow one another at once; only the round after the first
    // stream that brought nothing waits (the old loop waited 500, 1000, 2000 and 4000 ms).
    expect(delays).toEqual([500]);
  });

  it("waits, backing off, for a read plane that lags behind the stream's end", async () => {
    let gets = 0;
    const { client, delays } = fakeClient((url) => {
      if (url.includes("/stream")) return sse(endFrame({ status: "completed", lastSequence: 0 }));
      gets++;
      return ok(fakeRun(gets >= 4 ? done : {}));
    });
    await expect(client.waitForCompletion("run-1")).resolves.toMatchObject({ status: "completed" });
    expect(delays).toEqual([500, 1000]);
  });

  it.each([
    { name: "the timeout", timeoutMs: 30, abortAfterMs: undefined, error: WaitTimeoutError },
    { name: "the caller's signal", timeoutMs: 5000, abortAfterMs: 30, error: undefined },
  ])("on $name, closes the stream and leaves no listener on the caller's signal", async ({ timeoutMs, abortAfterMs, error }) => {
    let streamSignal: AbortSignal | undefined;
    const { client } = fakeClient((url, init) => {
      if (!url.includes("/stream")) return ok(fakeRun());
      streamSignal = init.signal!;
      // A stream that only ever sends keepalives.
      const body = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode(": keepalive\n\n")) });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    });
    const caller = new AbortController();
    const reason = new Error("user gave up");
    if (abortAfterMs !== undefined) setTimeout(() => caller.abort(reason), abortAfterMs);
    const outcome = await client.waitForCompletion("run-1", { timeoutMs, signal: caller.signal }).catch((e: unknown) => e);
    if (error) expect(outcome).toBeInstanceOf(error);
    else expect(outcome).toBe(reason);
    expect(streamSignal?.aborted).toBe(true);
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
  });

  it.each([NaN, -1, "5" as unknown as number])("refuses timeoutMs %s before doing anything", async (timeoutMs) => {
    const { client, urls } = fakeClient(() => ok(fakeRun()));
    await expect(client.waitForCompletion("run-1", { timeoutMs })).rejects.toThrow(RangeError);
    expect(urls).toHaveLength(0);
  });
});
