import { describe, expect, it } from "vitest";
import { backoffDelay, parseRetryAfter, resolveRetry, sleep } from "../src/client/retry.js";

describe("retry rules", () => {
  it.each([
    { value: "2", expected: 2000 },
    { value: " 0.5 ", expected: 500 },
    { value: "Thu, 01 Jan 2026 00:00:10 GMT", expected: 10_000 },
    { value: "Wed, 31 Dec 2025 00:00:00 GMT", expected: 0 },
    { value: "soon", expected: undefined },
    // Neither delay-seconds nor an HTTP-date, though Date.parse reads each as a day in 2001.
    { value: "-1", expected: undefined },
    { value: "2.", expected: undefined },
    { value: "retry 1", expected: undefined },
    { value: "Thursday, 01-Jan-26 00:00:10 GMT", expected: 10_000 },
    { value: null, expected: undefined },
  ])("reads Retry-After $value as $expected ms", ({ value, expected }) => {
    expect(parseRetryAfter(value, Date.parse("2026-01-01T00:00:00Z"))).toBe(expected);
  });

  it("doubles from 500 ms to the 8 s cap, taking off up to 25 % jitter", () => {
    const none = resolveRetry({ random: () => 0 });
    const most = resolveRetry({ random: () => 1 });
    expect([0, 1, 2, 3, 4, 5].map((r) => backoffDelay(r, none))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    expect([0, 5].map((r) => backoffDelay(r, most))).toEqual([375, 6000]);
  });

  it("sleep rejects with the signal's reason", async () => {
    const controller = new AbortController();
    const pending = sleep(10_000, controller.signal);
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
  });
});
