/** Backoff and `Retry-After` (protocol notes §4.4): openai-node's defaults, injectable for tests. */
import { startTimer } from "@flowspec/runtime";
import { DEFAULTS } from "../routes.js";
import { checkCount, checkMs } from "./options.js";

export interface RetryOptions {
  /** Retries after the first try (default 2). */
  maxRetries?: number;
  /** First backoff delay (default 500 ms); doubles each retry. */
  initialDelayMs?: number;
  /** Backoff cap (default 8 s). */
  maxDelayMs?: number;
  /** `Retry-After` is honoured up to this (default 60 s). */
  maxRetryAfterMs?: number;
  /** Random source in [0, 1) for jitter (default Math.random). */
  random?: () => number;
  /** How to wait; must reject with `signal.reason` when the signal aborts (default: setTimeout). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export type ResolvedRetry = Required<RetryOptions>;

export function resolveRetry(options: RetryOptions = {}): ResolvedRetry {
  return {
    maxRetries: checkCount("retry.maxRetries", options.maxRetries) ?? DEFAULTS.maxRetries,
    initialDelayMs: checkMs("retry.initialDelayMs", options.initialDelayMs) ?? DEFAULTS.initialRetryDelayMs,
    maxDelayMs: checkMs("retry.maxDelayMs", options.maxDelayMs) ?? DEFAULTS.maxRetryDelayMs,
    maxRetryAfterMs: checkMs("retry.maxRetryAfterMs", options.maxRetryAfterMs) ?? DEFAULTS.maxRetryAfterMs,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? sleep,
  };
}

/** The delay before retry number `retry` (0-based): doubling from the initial delay, capped, minus up to 25 % jitter. */
export function backoffDelay(retry: number, options: ResolvedRetry): number {
  const base = Math.min(options.initialDelayMs * 2 ** retry, options.maxDelayMs);
  return Math.round(base * (1 - DEFAULTS.jitter * options.random()));
}

/** `Retry-After` in ms (seconds or an HTTP date), or undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Every HTTP-date form opens with a day name; Date.parse alone takes "-1" or "2." for a day in 2001.
  if (!/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)/i.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Waits `ms`, rejecting with the signal's reason if it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      stop();
      reject(signal!.reason);
    };
    const stop = startTimer(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
