/**
 * How one run ends its HTTP calls early (§4.6): the caller's `signal` for the whole run and a
 * timeout per call (`timeoutMs`, default 30 s). One controller per run carries both: a timeout ends
 * the run, so the run never needs a second one. It is made on first use, so a run with no timeout
 * and no caller signal makes none, and fetch then gets no signal at all (undici's abort wiring
 * costs microseconds per call).
 *
 * A fired timeout is the run's state, so every later attempt of the run (a retry after a back-off
 * during which the timer fired) reports the timeout rather than a bare abort, and is not retried.
 */
import { startTimer } from "@flowspec/runtime";

export interface RunAbort {
  /** The per-call timeout in ms, or 0 when calls are not timed. */
  readonly timeoutMs: number;
  /** Whether fetch needs a signal (there is a timeout or a caller signal). */
  readonly needsSignal: boolean;
  /** The signal to hand to fetch (the controller is made on the first call). */
  signal(): AbortSignal;
  /** Starts timing one call; pair with `endCall`. */
  startCall(): void;
  endCall(): void;
  /** True once a call ran out of time (which aborted the run). */
  timedOut: boolean;
  /** Stops the timer and stops following the caller's signal; call when the run is over. */
  release(): void;
}

export function createRunAbort(callerSignal: AbortSignal | undefined, timeoutMs: number): RunAbort {
  const timed = timeoutMs > 0 && Number.isFinite(timeoutMs);
  let controller: AbortController | undefined;
  let forward: (() => void) | undefined;
  // One timer per run, not one per call: it is armed for the first timed call and, when it fires,
  // ends the call in flight if that call has had its timeoutMs, or re-arms itself for the rest of
  // that call's time (calls are sequential). Between calls it is left to fire and not re-armed.
  let stopTimer: (() => void) | undefined;
  let callStarted = -1;
  const ensure = (): AbortController => {
    if (!controller) {
      const made = (controller = new AbortController());
      if (callerSignal) {
        if (callerSignal.aborted) made.abort(callerSignal.reason);
        else callerSignal.addEventListener("abort", (forward = () => made.abort(callerSignal.reason)), { once: true });
      }
    }
    return controller;
  };
  const onTimer = () => {
    stopTimer = undefined;
    if (callStarted < 0) return;
    const left = callStarted + timeoutMs - performance.now();
    if (left > 0) {
      stopTimer = startTimer(onTimer, left);
      return;
    }
    runAbort.timedOut = true;
    ensure().abort(new Error(`timeout after ${timeoutMs} ms`));
  };
  // A plain field, not a getter: an object literal with an accessor is built on V8's slow path,
  // which showed in profiles of short runs.
  const runAbort: RunAbort = {
    timeoutMs: timed ? timeoutMs : 0,
    timedOut: false,
    needsSignal: timed || callerSignal !== undefined,
    signal: () => ensure().signal,
    startCall: () => {
      if (!timed) return;
      callStarted = performance.now();
      stopTimer ??= startTimer(onTimer, timeoutMs);
    },
    endCall: () => {
      callStarted = -1;
    },
    release: () => {
      callStarted = -1;
      stopTimer?.();
      stopTimer = undefined;
      if (forward) callerSignal?.removeEventListener("abort", forward);
    },
  };
  return runAbort;
}
