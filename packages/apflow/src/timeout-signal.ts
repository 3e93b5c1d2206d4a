import { startTimer } from "@flowspec/runtime";

/**
 * `AbortSignal.timeout` without its limits: it throws for a fractional or infinite delay and fires
 * at once past 2^31 − 1 ms. Aborts with the same `TimeoutError`; `stop` cancels the timer once the
 * work is done, so nothing is left pending.
 */
export function timeoutSignal(ms: number): { signal: AbortSignal; stop: () => void } {
  const controller = new AbortController();
  const stop = startTimer(() => controller.abort(new DOMException("The operation timed out.", "TimeoutError")), ms);
  return { signal: controller.signal, stop };
}
