import { describe, expect, it } from "vitest";
import { ApiTimeoutError, RunsClient } from "@flowspec/agent-service";
import { endFrame, fakeClient, fakeRun, ok } from "./support/fake.js";

const base = { baseUrl: "http://agent-service.test", orgId: "o", token: "t", fetch: async () => ok(fakeRun()) };

describe("RunsClient: numeric options are checked where they are passed", () => {
  it.each([
    { name: "retry.maxRetries NaN (retry >= NaN never stops the loop)", options: { retry: { maxRetries: NaN } } },
    { name: "retry.maxRetries -1", options: { retry: { maxRetries: -1 } } },
    { name: "retry.maxRetries 1.5", options: { retry: { maxRetries: 1.5 } } },
    { name: "retry.initialDelayMs NaN", options: { retry: { initialDelayMs: NaN } } },
    { name: "retry.maxRetryAfterMs -5", options: { retry: { maxRetryAfterMs: -5 } } },
    { name: "timeoutMs NaN (setTimeout takes it as 1 ms)", options: { timeoutMs: NaN } },
    { name: "timeoutMs as a string", options: { timeoutMs: "60000" as unknown as number } },
  ])("refuses $name with a RangeError", ({ options }) => {
    expect(() => new RunsClient({ ...base, ...options })).toThrow(RangeError);
  });

  it("refuses a bad per-call timeoutMs, and bad stream options, before sending", async () => {
    const { client, urls } = fakeClient(() => ok(fakeRun()));
    await expect(client.get("run-1", { timeoutMs: -1 })).rejects.toThrow(RangeError);
    expect(() => client.stream("run-1", { idleTimeoutMs: NaN })).toThrow(RangeError);
    expect(() => client.stream("run-1", { maxReconnects: NaN })).toThrow(RangeError);
    expect(urls).toHaveLength(0);
  });

  it.each([0, -1, 2.5, NaN])("refuses pageSize %s and afterSequence -1 / 2.5 before sending", async (pageSize) => {
    const { client, urls } = fakeClient(() => ok({ total: 0, offset: 0, limit: 20, list: [] }));
    const listAll = async () => {
      for await (const _ of client.list({ pageSize })) {
        // nothing
      }
    };
    await expect(listAll()).rejects.toThrow(RangeError);
    await expect(client.listEvents("run-1", { afterSequence: -1 })).rejects.toThrow(RangeError);
    expect(() => client.stream("run-1", { afterSequence: 2.5 })).toThrow(RangeError);
    expect(urls).toHaveLength(0);
  });

  it("takes timeoutMs 0 as no timeout, as the other flowspec clients do (it timed out at once)", async () => {
    let answer!: () => void;
    const slow = new Promise<void>((resolve) => (answer = resolve));
    // Like fetch, the answer never comes once the request's signal has aborted.
    const fetch = (_url: string, init: RequestInit) =>
      new Promise<Response>((resolve, reject) => {
        init.signal?.addEventListener("abort", () => reject(init.signal!.reason));
        void slow.then(() => resolve(ok(fakeRun())));
      });
    const client = new RunsClient({ ...base, timeoutMs: 0, retry: { maxRetries: 0 }, fetch });
    const got = client.get("run-1");
    await new Promise((resolve) => setTimeout(resolve, 30));
    answer();
    await expect(got).resolves.toMatchObject({ runId: fakeRun().runId });
  });

  it("takes idleTimeoutMs 0 as no idle timeout, as timeoutMs 0 is no timeout (it dropped every connection at once)", async () => {
    const { client, urls } = fakeClient((url) => {
      if (!url.includes("/stream")) return ok(fakeRun());
      // The end frame comes after a short silence, as on any live stream.
      const body = new ReadableStream<Uint8Array>({
        start: (c) =>
          void setTimeout(() => {
            try {
              c.enqueue(new TextEncoder().encode(endFrame({ status: "completed", lastSequence: 0 })));
              c.close();
            } catch {
              // the client already dropped this connection
            }
          }, 20),
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    });
    const reasons: string[] = [];
    const stream = client.stream("run-1", { idleTimeoutMs: 0, onReconnect: ({ reason }) => reasons.push(reason) });
    for await (const _ of stream) {
      // nothing: the run has no events
    }
    expect(reasons).toEqual([]);
    expect(stream.terminal).toMatchObject({ status: "completed" });
    expect(urls.filter((u) => u.includes("/stream"))).toHaveLength(1);
  });

  it("accepts Infinity for counts and durations", () => {
    expect(() => new RunsClient({ ...base, timeoutMs: Infinity, retry: { maxRetries: Infinity } })).not.toThrow();
  });
});

describe("RunsClient: a token function that hangs", () => {
  const hanging = () => new Promise<string>(() => {});

  it("does not outlive the caller's abort", async () => {
    const { client } = fakeClient(() => ok(fakeRun()), { token: hanging, retry: { maxRetries: 0 } });
    const controller = new AbortController();
    const reason = new Error("user gave up");
    setTimeout(() => controller.abort(reason), 10);
    await expect(client.get("run-1", { signal: controller.signal })).rejects.toBe(reason);
  });

  it("does not outlive the timeout", async () => {
    const { client } = fakeClient(() => ok(fakeRun()), { token: hanging, retry: { maxRetries: 0 }, timeoutMs: 20 });
    await expect(client.get("run-1")).rejects.toBeInstanceOf(ApiTimeoutError);
  });

  it("does not hold a stream past the caller's abort", async () => {
    const { client } = fakeClient(() => ok(fakeRun()), { token: hanging });
    const controller = new AbortController();
    const reason = new Error("user gave up");
    setTimeout(() => controller.abort(reason), 10);
    const consume = async () => {
      for await (const _ of client.stream("run-1", { signal: controller.signal })) {
        // nothing arrives
      }
    };
    await expect(consume()).rejects.toBe(reason);
  });

  it("a token function that throws is the caller's error, not retried", async () => {
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new Error("no credentials");
    };
    const { client } = fakeClient(() => ok(fakeRun()), { token: failing });
    await expect(client.get("run-1")).rejects.toThrow("no credentials");
    expect(calls).toBe(1);
  });
});

describe("RunsClient.list", () => {
  it("advances from the offset it asked for, so a server that always echoes offset 0 cannot loop it", async () => {
    let calls = 0;
    const { client, urls } = fakeClient(() => {
      calls++;
      // The same two runs every time; after 10 calls an empty page, so the old code ends at all.
      const list = calls > 10 ? [] : [fakeRun({ runId: "r1" }), fakeRun({ runId: "r2" })];
      return ok({ total: 5, offset: 0, limit: 2, list });
    });
    const ids: string[] = [];
    for await (const run of client.list({ pageSize: 2 })) ids.push(run.runId);
    expect(ids).toEqual(["r1", "r2"]);
    expect(urls.map((u) => new URL(u).searchParams.get("offset"))).toEqual(["0", "2", "4"]);
  });

  it("stops on an empty page mid-way, even when total says there is more", async () => {
    const pages: Record<string, ReturnType<typeof fakeRun>[]> = { "0": [fakeRun({ runId: "a" }), fakeRun({ runId: "b" })], "2": [], "4": [fakeRun({ runId: "c" })] };
    const { client } = fakeClient((url) => {
      const offset = new URL(url).searchParams.get("offset")!;
      return ok({ total: 9, offset: Number(offset), limit: 2, list: pages[offset] ?? [] });
    });
    const ids: string[] = [];
    for await (const run of client.list({ pageSize: 2 })) ids.push(run.runId);
    expect(ids).toEqual(["a", "b"]);
  });
});
