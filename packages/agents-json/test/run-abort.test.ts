import { describe, expect, it } from "vitest";
import { createRunAbort, lightController, lightSignalsFor } from "../src/executor/run-abort.js";

describe("the run's abort signal", () => {
  it("is a light signal with Node's fetch, which follows it (the transport tests abort real requests with it)", async () => {
    expect(await lightSignalsFor(fetch)).toBe(true);
    expect(lightSignalsFor(fetch)).toBe(true); // asked once per fetch function
    expect(createRunAbort(undefined, 1_000, true).signal()).not.toBeInstanceOf(AbortSignal);
  });

  it("is a real AbortSignal with a fetch that wants one, and nothing is sent to find out", async () => {
    const sent: string[] = [];
    const strict = (async (url: string, init: RequestInit) => {
      sent.push(url);
      if (init.signal && !(init.signal instanceof AbortSignal)) throw new TypeError("Expected signal to be an instanceof AbortSignal");
      return fetch(url, init);
    }) as unknown as typeof fetch;
    const combining = ((url: string, init: RequestInit) => fetch(url, { ...init, signal: AbortSignal.any([init.signal!]) })) as unknown as typeof fetch;
    const ignoring = (async () => new Response("answered")) as unknown as typeof fetch;
    expect(await lightSignalsFor(strict)).toBe(false);
    expect(await lightSignalsFor(combining)).toBe(false);
    expect(await lightSignalsFor(ignoring)).toBe(false);
    expect(sent).toEqual(["data:,"]);
    const forwarding = ((url: string, init: RequestInit) => fetch(url, init)) as unknown as typeof fetch;
    expect(await lightSignalsFor(forwarding)).toBe(true);
  });

  it("is a real AbortSignal for an injected fetch, which may use it as one", () => {
    expect(createRunAbort(undefined, 1_000, false).signal()).toBeInstanceOf(AbortSignal);
  });

  it("calls each abort listener once, with the signal as this, and not after it was removed", () => {
    const controller = lightController();
    const calls: unknown[] = [];
    const kept = function (this: unknown, event: unknown) {
      calls.push([this, (event as { type: string }).type]);
    };
    const removed = () => calls.push("removed");
    controller.signal.addEventListener("abort", kept);
    controller.signal.addEventListener("abort", removed);
    controller.signal.removeEventListener("abort", removed);
    const reason = new Error("stop");
    controller.abort(reason);
    controller.abort(new Error("again"));
    expect(calls).toEqual([[controller.signal, "abort"]]);
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toBe(reason);
    expect(() => controller.signal.throwIfAborted()).toThrow(reason);
  });

  it("calls onabort and throws from throwIfAborted once aborted, as an AbortSignal does", () => {
    const controller = lightController();
    let seen: unknown;
    controller.signal.onabort = (event) => (seen = event.type);
    expect(() => controller.signal.throwIfAborted()).not.toThrow();
    controller.abort(new Error("stop"));
    expect(seen).toBe("abort");
    expect(() => controller.signal.throwIfAborted()).toThrow("stop");
  });

  it("follows the caller's signal", () => {
    const caller = new AbortController();
    const run = createRunAbort(caller.signal, 1_000, true);
    const signal = run.signal();
    caller.abort(new Error("caller"));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe("caller");
    run.release();
  });
});
