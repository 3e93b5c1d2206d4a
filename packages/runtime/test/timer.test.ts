import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getEventListeners } from "node:events";
import { startTimer, untilAborted } from "@flowspec/runtime";

const MAX = 2 ** 31 - 1;

describe("startTimer", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("fires after the delay, once", () => {
    const fn = vi.fn();
    startTimer(fn, 100);
    vi.advanceTimersByTime(99);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    vi.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it("waits out a delay past what setTimeout holds, in steps", () => {
    const fn = vi.fn();
    startTimer(fn, 2 * MAX + 10);
    vi.advanceTimersByTime(2 * MAX + 9);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it("never fires for Infinity, and cancels at any step", () => {
    const fn = vi.fn();
    startTimer(fn, Infinity);
    const cancel = startTimer(fn, MAX + 10);
    vi.advanceTimersByTime(MAX + 1);
    cancel();
    vi.advanceTimersByTime(10 * MAX);
    expect(fn).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("untilAborted", () => {
  it("settles as the promise does, and leaves no listener on the signal", async () => {
    const controller = new AbortController();
    await expect(untilAborted(Promise.resolve(1), controller.signal)).resolves.toBe(1);
    await expect(untilAborted(Promise.reject(new Error("no")), controller.signal)).rejects.toThrow("no");
    await expect(untilAborted(2, undefined)).resolves.toBe(2);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("rejects with the signal's reason when it aborts first, or has already", async () => {
    const controller = new AbortController();
    const reason = new Error("stop");
    const pending = untilAborted(new Promise(() => undefined), controller.signal);
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await expect(untilAborted(Promise.resolve(1), controller.signal)).rejects.toBe(reason);
  });
});

describe("untilAborted with a signal already aborted", () => {
  it("does not leave the promise's later rejection unhandled", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const reason = new Error("stop");
      let fail!: (error: Error) => void;
      const work = new Promise((_, reject) => (fail = reject));
      await expect(untilAborted(work, AbortSignal.abort(reason))).rejects.toBe(reason);
      fail(new Error("the work failed later"));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
