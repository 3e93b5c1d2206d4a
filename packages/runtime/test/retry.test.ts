import { describe, expect, it } from "vitest";
import { backoffDelay, parseRetryAfter, retryDelay, sleep } from "@flowspec/runtime";

const NOW = Date.parse("2026-01-01T00:00:00Z");

describe("parseRetryAfter", () => {
  it.each([
    { value: "2", expected: 2000 },
    { value: " 0.5 ", expected: 500 },
    { value: "0", expected: 0 },
    // The three HTTP-date forms of RFC 9110 §5.6.7.
    { value: "Thu, 01 Jan 2026 00:00:10 GMT", expected: 10_000 },
    { value: "Thursday, 01-Jan-26 00:00:10 GMT", expected: 10_000 },
    { value: "Thu Jan  1 00:00:10 2026", expected: 10_000 },
    { value: "Wed, 31 Dec 2025 00:00:00 GMT", expected: 0 },
    // Neither delay-seconds nor an HTTP-date, though Number() or Date.parse reads each as something.
    { value: "1e3", expected: undefined },
    { value: "-1", expected: undefined },
    { value: "2.", expected: undefined },
    { value: "0x10", expected: undefined },
    { value: "Infinity", expected: undefined },
    { value: "2026-01-01T00:00:10Z", expected: undefined },
    { value: "Thu, 01 Jan 2026 00:00:10", expected: undefined },
    { value: "Thu, 31 Feb 2026 00:00:10 GMT", expected: undefined },
    { value: "Thu, 01 Jan 2026 25:00:10 GMT", expected: undefined },
    { value: "soon", expected: undefined },
    { value: "", expected: undefined },
    { value: null, expected: undefined },
    { value: undefined, expected: undefined },
  ])("reads $value as $expected ms", ({ value, expected }) => {
    expect(parseRetryAfter(value, NOW)).toBe(expected);
  });
});

describe("backoffDelay and retryDelay", () => {
  const backoff = { initialDelayMs: 200, maxDelayMs: 5000 };

  it("doubles to the cap, taking off up to 25 % at random (or the jitter given)", () => {
    expect([0, 1, 2, 3, 4, 5].map((retry) => backoffDelay(retry, { ...backoff, random: () => 0 }))).toEqual([200, 400, 800, 1600, 3200, 5000]);
    expect([0, 5].map((retry) => backoffDelay(retry, { ...backoff, random: () => 0.999999 }))).toEqual([150, 3750]);
    expect(backoffDelay(0, { ...backoff, jitter: 0, random: () => 0.9 })).toBe(200);
  });

  it("follows a readable Retry-After, capped, else backs off", () => {
    const options = { ...backoff, maxRetryAfterMs: 60_000, random: () => 0 };
    expect(retryDelay(0, "3", options, NOW)).toBe(3000);
    expect(retryDelay(0, "3600", options, NOW)).toBe(60_000);
    expect(retryDelay(2, "1e3", options, NOW)).toBe(800);
    expect(retryDelay(2, null, options, NOW)).toBe(800);
  });
});

describe("sleep", () => {
  it("waits, and rejects with the signal's reason when it aborts", async () => {
    await sleep(1);
    const controller = new AbortController();
    const pending = sleep(10_000, controller.signal);
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
    await expect(sleep(1, controller.signal)).rejects.toThrow("stop");
  });
});
