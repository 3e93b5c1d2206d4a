/** Backoff and `Retry-After` (protocol notes §4.4): openai-node's defaults, injectable for tests; the rules are runtime's. */
import { backoffDelay as runtimeBackoff, sleep } from "@flowspec/runtime";
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
  return runtimeBackoff(retry, { ...options, jitter: DEFAULTS.jitter });
}

export { parseRetryAfter, sleep } from "@flowspec/runtime";
