import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startTimer } from "@flowspec/runtime";

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
