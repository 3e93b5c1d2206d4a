/**
 * How one run ends its HTTP calls early (§4.6): the caller's `signal` for the whole run and a
 * timeout per call. One controller per run carries both: a timeout ends the run, so the run never
 * needs a second one. It is made on first use, so a run with no timeout and no caller signal makes
 * none, and fetch then gets no signal at all (undici's abort wiring costs microseconds per call).
 *
 * The timer callback is made once per run too, and whether a timer fired is the run's state: a
 * fired timer aborts the run's controller, so every later attempt of the run (a retry after a
 * back-off during which the timer fired) also reports the timeout rather than a bare abort.
 */
export interface RunAbort {
  /** The per-call timeout in ms, or 0 when calls are not timed. */
  readonly timeoutMs: number;
  /** Whether fetch needs a signal (there is a timeout or a caller signal). */
  readonly needsSignal: boolean;
  /** The signal to hand to fetch (the controller is made on the first call). */
  signal(): AbortSignal;
  /** Starts the timer of one call; pass the handle to `stopTimer` when the call is done. */
  startTimer(): ReturnType<typeof setTimeout> | undefined;
  stopTimer(timer: ReturnType<typeof setTimeout> | undefined): void;
  /** True once a call's timer has fired (which aborted the run). */
  readonly timedOut: boolean;
  /** Stops following the caller's signal; call when the run is over. */
  release(): void;
}

export function createRunAbort(callerSignal: AbortSignal | undefined, timeoutMs: number): RunAbort {
  const timed = timeoutMs > 0 && Number.isFinite(timeoutMs);
  let controller: AbortController | undefined;
  let forward: (() => void) | undefined;
  let timedOut = false;
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
  const onTimeout = () => {
    timedOut = true;
    ensure().abort(new Error(`timeout after ${timeoutMs} ms`));
  };
  return {
    timeoutMs: timed ? timeoutMs : 0,
    needsSignal: timed || callerSignal !== undefined,
    signal: () => ensure().signal,
    startTimer: () => (timed ? setTimeout(onTimeout, timeoutMs) : undefined),
    stopTimer: (timer) => {
      if (timer !== undefined) clearTimeout(timer);
    },
    get timedOut() {
      return timedOut;
    },
    release: () => {
      if (forward) callerSignal?.removeEventListener("abort", forward);
    },
  };
}
