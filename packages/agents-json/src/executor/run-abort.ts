/**
 * How one run ends its HTTP calls early (§4.6): the caller's `signal` for the whole run and a
 * timeout per call (`timeoutMs`, default 30 s). One controller per run carries both: a timeout ends
 * the run, so the run never needs a second one. It is made on first use, so a run with no timeout
 * and no caller signal makes none, and fetch then gets no signal at all (undici's abort wiring
 * costs microseconds per call).
 *
 * A fired timeout is the run's state, so every later attempt of the run (a retry after a back-off
 * during which the timer fired) reports the timeout rather than a bare abort, and is not retried.
 *
 * With a fetch that follows one (Node's), the signal is a light one (see `lightController` and
 * `lightSignalsFor`): a real AbortSignal costs Node's fetch about 10 µs more per request.
 */
import { startTimer } from "@flowspec/runtime";

interface Controller {
  readonly signal: AbortSignal;
  abort(reason: unknown): void;
}

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

export function createRunAbort(callerSignal: AbortSignal | undefined, timeoutMs: number, lightSignal: boolean): RunAbort {
  const timed = timeoutMs > 0 && Number.isFinite(timeoutMs);
  let controller: Controller | undefined;
  let forward: (() => void) | undefined;
  // One timer per run, not one per call: it is armed for the first timed call and, when it fires,
  // ends the call in flight if that call has had its timeoutMs, or re-arms itself for the rest of
  // that call's time (calls are sequential). Between calls it is left to fire and not re-armed.
  let stopTimer: (() => void) | undefined;
  let callStarted = -1;
  const ensure = (): Controller => {
    if (!controller) {
      const made = (controller = lightSignal ? lightController() : new AbortController());
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

/**
 * An abort controller whose signal is a plain object with the part of AbortSignal that Node's fetch
 * (undici) reads: `aborted`, `reason` and the abort listeners (and `onabort` and `throwIfAborted`,
 * for a wrapper of the global fetch), plus the EventEmitter methods that node:events asks before
 * undici adds its listener. undici takes such signals by design: its RequestInit converter is not
 * strict, for third-party AbortControllers. A real AbortSignal is an EventTarget: undici's listener
 * on it, added per request and removed by a FinalizationRegistry after GC, costs about 10 µs per
 * request, a few percent of a loopback call.
 */
export function lightController(): Controller {
  type Listener = (this: unknown, event: unknown) => void;
  const listeners: Listener[] = [];
  const signal = {
    aborted: false,
    reason: undefined as unknown,
    addEventListener: (type: string, listener: Listener) => {
      if (type === "abort") listeners.push(listener);
    },
    removeEventListener: (type: string, listener: Listener) => {
      const at = listeners.indexOf(listener);
      if (type === "abort" && at !== -1) listeners.splice(at, 1);
    },
    onabort: null as Listener | null,
    throwIfAborted: () => {
      if (signal.aborted) throw signal.reason;
    },
    getMaxListeners: () => undefined,
    setMaxListeners: () => undefined,
    listeners: () => listeners,
  };
  return {
    signal: signal as unknown as AbortSignal,
    abort(reason) {
      if (signal.aborted) return;
      signal.aborted = true;
      signal.reason = reason;
      const event = { type: "abort", target: signal };
      signal.onabort?.call(signal, event);
      for (const listener of listeners.splice(0)) listener.call(signal, event);
    },
  };
}

const followsLightSignals = new WeakMap<typeof fetch, boolean>();
/**
 * Whether `doFetch` follows a light signal. Asked once per fetch function, with a `data:` URL, so
 * nothing is sent whatever it does, and a signal aborted as soon as the call has begun: Node's fetch
 * rejects with the signal's own reason. A fetch that wants a real AbortSignal (node-fetch installed
 * as the global fetch, a browser's `Request`) fails some other way, and a wrapper that never hears
 * of the abort (`AbortSignal.any` accepts the object but does not follow it) answers: those get
 * real signals. A fetch installed later is a new function, and is asked again.
 */
export function lightSignalsFor(doFetch: typeof fetch): boolean | Promise<boolean> {
  const known = followsLightSignals.get(doFetch);
  if (known !== undefined) return known;
  const probe = lightController();
  const reason = new Error("abort-signal probe");
  let answer: Promise<Response>;
  try {
    answer = doFetch("data:,", { signal: probe.signal });
  } catch (error) {
    answer = Promise.reject(error);
  }
  probe.abort(reason);
  return answer
    .then(
      (response) => {
        response.body?.cancel().catch(() => undefined);
        return false;
      },
      (error: unknown) => error === reason,
    )
    .then((follows) => {
      followsLightSignals.set(doFetch, follows);
      return follows;
    });
}
