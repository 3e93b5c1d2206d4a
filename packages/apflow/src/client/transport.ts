import { ApflowRpcError, ApflowTransportError, specCodeOf } from "./errors.js";
import { untilAborted } from "@flowspec/runtime";
import { timeoutSignal } from "../timeout-signal.js";
import type { ApflowClientOptions, CallOptions } from "./types.js";

export interface Transport {
  /** One JSON-RPC call; resolves with `result`, throws ApflowRpcError / ApflowTransportError. */
  call(endpoint: "/tasks" | "/system", method: string, params: unknown, options: CallOptions & { noTimeout?: boolean }): Promise<unknown>;
  /** POSTs a call and hands back the raw response (for SSE). */
  open(endpoint: "/tasks", method: string, params: unknown, options: CallOptions): Promise<Response>;
}

export function createTransport(options: ApflowClientOptions): Transport {
  const base = options.baseUrl.replace(/\/+$/, "");
  const doFetch = options.fetch ?? globalThis.fetch;
  const defaultTimeout = options.timeoutMs ?? 30_000;
  let nextId = 1;

  const headersFor = async (accept: string, signal: AbortSignal | undefined): Promise<Headers> => {
    const headers = new Headers(options.headers ?? {});
    headers.set("content-type", "application/json");
    headers.set("accept", accept);
    // A token() that hangs must not outlive the call's timeout or the caller's abort.
    const token = typeof options.token === "function" ? await untilAborted(options.token(), signal) : options.token;
    if (token) headers.set("authorization", `Bearer ${token}`);
    return headers;
  };

  const post = async (endpoint: string, method: string, params: unknown, accept: string, signal: AbortSignal | undefined, timeoutMs: number) => {
    const id = nextId++;
    const body = JSON.stringify({ jsonrpc: "2.0", method, params, id });
    const timer = timeoutMs > 0 ? timeoutSignal(timeoutMs) : undefined;
    const timeout = timer?.signal;
    const stopTimer = timer?.stop ?? noop;
    const signals = [signal, timeout].filter((s): s is AbortSignal => s !== undefined);
    const combined = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
    try {
      const response = await doFetch(`${base}${endpoint}`, { method: "POST", headers: await headersFor(accept, combined), body, signal: combined });
      return { response, timeout, stopTimer, id };
    } catch (error) {
      stopTimer();
      throw transportFailure(method, error, timeout, signal, timeoutMs);
    }
  };

  return {
    async call(endpoint, method, params, callOptions) {
      if (callOptions.timeoutMs !== undefined) checkTimeoutMs(callOptions.timeoutMs);
      const timeoutMs = callOptions.noTimeout ? (callOptions.timeoutMs ?? 0) : (callOptions.timeoutMs ?? defaultTimeout);
      const { response, timeout, stopTimer } = await post(endpoint, method, params, "application/json", callOptions.signal, timeoutMs);
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        throw transportFailure(method, error, timeout, callOptions.signal, timeoutMs, response.status);
      } finally {
        stopTimer();
      }
      return readEnvelope(method, text, response.status);
    },
    async open(endpoint, method, params, callOptions) {
      const { response } = await post(endpoint, method, params, "text/event-stream, application/json", callOptions.signal, 0);
      return response;
    },
  };
}

const noop = () => {};

/** A client's or a call's `timeoutMs`: a number ≥ 0, where 0 and Infinity mean none. */
export function checkTimeoutMs(value: unknown): void {
  if (typeof value !== "number" || !(value >= 0)) throw new RangeError(`timeoutMs must be a number of milliseconds ≥ 0 (0 or Infinity for none), got ${shown(value)}`);
}

/** A bad option's value as written in source: NaN and -Infinity as such, strings quoted. */
export function shown(value: unknown): string {
  return typeof value === "number" ? String(value) : String(JSON.stringify(value));
}

/** Reads a JSON-RPC response body: the result, or a thrown error saying what went wrong. */
export function readEnvelope(method: string, text: string, httpStatus: number): unknown {
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    throw new ApflowTransportError(`${method}: the server answered HTTP ${httpStatus} with a body that is not JSON: ${JSON.stringify(text.slice(0, 120))}`, httpStatus, text.slice(0, 1000));
  }
  if (typeof envelope !== "object" || envelope === null || Array.isArray(envelope)) {
    throw new ApflowTransportError(`${method}: the server answered HTTP ${httpStatus} with JSON that is not a JSON-RPC response`, httpStatus, text.slice(0, 1000));
  }
  const { error, result } = envelope as { error?: unknown; result?: unknown };
  if (error !== undefined && error !== null) {
    const { code, message, data } = (typeof error === "object" ? error : {}) as { code?: unknown; message?: unknown; data?: unknown };
    const numeric = typeof code === "number" ? code : -32603;
    throw new ApflowRpcError(method, numeric, typeof message === "string" ? message : "error", data, httpStatus, specCodeOf(numeric, data, httpStatus));
  }
  if (!("result" in (envelope as object))) {
    throw new ApflowTransportError(`${method}: the JSON-RPC response has neither result nor error (HTTP ${httpStatus})`, httpStatus, text.slice(0, 1000));
  }
  if (httpStatus < 200 || httpStatus > 299) {
    throw new ApflowTransportError(`${method}: the server answered HTTP ${httpStatus} with a result`, httpStatus, text.slice(0, 1000));
  }
  return result;
}

function transportFailure(method: string, error: unknown, timeout: AbortSignal | undefined, signal: AbortSignal | undefined, timeoutMs: number, httpStatus?: number): Error {
  if (timeout?.aborted) return new ApflowTransportError(`${method}: no answer within ${timeoutMs} ms`, httpStatus, undefined, { cause: error });
  if (signal?.aborted) return new ApflowTransportError(`${method}: aborted${signal.reason !== undefined ? ` (${String(signal.reason)})` : ""}`, httpStatus, undefined, { cause: error });
  const cause = (error as { cause?: { message?: string } }).cause?.message;
  return new ApflowTransportError(`${method}: request failed: ${(error as Error).message}${cause ? ` (${cause})` : ""}`, httpStatus, undefined, { cause: error });
}
