import { ApflowRpcError, ApflowTransportError, specCodeOf } from "./errors.js";
import { byteLimit, fetchFollowingRedirects, readBodyText, RedirectError, ResponseTooLargeError, untilAborted } from "@flowspec/runtime";
import { redact, secretsOf } from "../redact.js";
import { timeoutSignal } from "../timeout-signal.js";
import type { ApflowClientOptions, CallOptions } from "./types.js";

export interface Transport {
  /** One JSON-RPC call; resolves with `result`, throws ApflowRpcError / ApflowTransportError. */
  call(endpoint: "/tasks" | "/system", method: string, params: unknown, options: CallOptions & { noTimeout?: boolean }): Promise<unknown>;
  /** POSTs a call and hands back the raw response (for SSE), still under the call's `timeoutMs` until `stopTimer()`. */
  open(endpoint: "/tasks", method: string, params: unknown, options: CallOptions): Promise<Exchange>;
}

/** A call whose response headers have arrived, its body not yet read. Nothing here runs per SSE event. */
export interface Exchange {
  response: Response;
  /** Stops the call's timeout (a stream calls it once it has opened: its first event, or its whole non-stream body). Idempotent. */
  stopTimer(): void;
  /** Whether the call's timeout fired before `stopTimer()`; the body read then fails with the abort. */
  timedOut(): boolean;
  /** A failed read of the body as a transport error naming the method, `POST url` and the timeout or abort, credentials masked. */
  failure(error: unknown): Error;
  /** The credentials the request carried, to mask in an error; call only while building one. */
  secrets(): readonly string[];
  /** The whole body, up to `maxResponseBytes` (else a ResponseTooLargeError); a failed read is `failure(error)`. Stops the timer. */
  readText(): Promise<string>;
}

export function createTransport(options: ApflowClientOptions): Transport {
  const base = options.baseUrl.replace(/\/+$/, "");
  const doFetch = options.fetch ?? globalThis.fetch;
  const defaultTimeout = options.timeoutMs ?? 30_000;
  const maxResponseBytes = byteLimit("maxResponseBytes", options.maxResponseBytes);
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

  const post = async (endpoint: string, method: string, params: unknown, accept: string, signal: AbortSignal | undefined, timeoutMs: number): Promise<Exchange> => {
    const id = nextId++;
    const body = JSON.stringify({ jsonrpc: "2.0", method, params, id });
    const timer = timeoutMs > 0 ? timeoutSignal(timeoutMs) : undefined;
    const timeout = timer?.signal;
    const stopTimer = timer?.stop ?? noop;
    const signals = [signal, timeout].filter((s): s is AbortSignal => s !== undefined);
    const combined = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
    const url = `${base}${endpoint}`;
    let headers: Headers | undefined;
    try {
      headers = await headersFor(accept, combined);
      const response = await fetchFollowingRedirects(doFetch, url, { method: "POST", headers, body, signal: combined }, { allowCrossOrigin: options.allowCrossOriginRedirects === true });
      const secrets = () => secretsOf(headers);
      const failure = (error: unknown) => transportFailure(method, url, secrets(), error, timeout, signal, timeoutMs, response.status);
      return {
        response,
        stopTimer,
        timedOut: () => timeout?.aborted === true,
        failure,
        secrets,
        readText: () =>
          readBodyText(response, { maxBytes: maxResponseBytes, request: redact(`${method}: POST ${url}`, secrets()) })
            .catch((error: unknown) => Promise.reject(error instanceof ResponseTooLargeError ? error : failure(error)))
            .finally(stopTimer),
      };
    } catch (error) {
      stopTimer();
      if (error instanceof RedirectError) throw error;
      throw transportFailure(method, url, secretsOf(headers ?? options.headers), error, timeout, signal, timeoutMs);
    }
  };

  return {
    async call(endpoint, method, params, callOptions) {
      if (callOptions.timeoutMs !== undefined) checkTimeoutMs(callOptions.timeoutMs);
      const timeoutMs = callOptions.noTimeout ? (callOptions.timeoutMs ?? 0) : (callOptions.timeoutMs ?? defaultTimeout);
      const exchange = await post(endpoint, method, params, "application/json", callOptions.signal, timeoutMs);
      return readEnvelope(method, await exchange.readText(), exchange.response.status, exchange.secrets);
    },
    async open(endpoint, method, params, callOptions) {
      if (callOptions.timeoutMs !== undefined) checkTimeoutMs(callOptions.timeoutMs);
      // A stream's timeout bounds its opening only: the response headers, then the first event (the
      // JSON-RPC envelope) or a non-stream body. The events after it can be minutes apart while a
      // tree runs, so they have none (the caller's signal still ends the stream). As for blocking
      // tasks.execute, only the call's own timeoutMs applies, never the client's default.
      return post(endpoint, method, params, "text/event-stream, application/json", callOptions.signal, callOptions.timeoutMs ?? 0);
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

/**
 * Reads a JSON-RPC response body: the result, or a thrown error saying what went wrong. `secrets`
 * (called only when an error is built) gives the credentials the request carried; they are masked
 * in whatever part of the body an error repeats.
 */
export function readEnvelope(method: string, text: string, httpStatus: number, secrets: () => readonly string[] = noSecrets): unknown {
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    const shown = redact(text, secrets());
    throw new ApflowTransportError(`${method}: the server answered HTTP ${httpStatus} with a body that is not JSON: ${JSON.stringify(shown.slice(0, 120))}`, httpStatus, shown.slice(0, 1000));
  }
  if (typeof envelope !== "object" || envelope === null || Array.isArray(envelope)) {
    throw new ApflowTransportError(`${method}: the server answered HTTP ${httpStatus} with JSON that is not a JSON-RPC response`, httpStatus, redact(text, secrets()).slice(0, 1000));
  }
  const { error, result } = envelope as { error?: unknown; result?: unknown };
  if (error !== undefined && error !== null) {
    const { code, message, data } = (typeof error === "object" ? error : {}) as { code?: unknown; message?: unknown; data?: unknown };
    const numeric = typeof code === "number" ? code : -32603;
    const known = secrets();
    const rpcMessage = typeof message === "string" ? redact(message, known) : "error";
    throw new ApflowRpcError(method, numeric, rpcMessage, redactData(data, known), httpStatus, specCodeOf(numeric, data, httpStatus));
  }
  if (!("result" in (envelope as object))) {
    throw new ApflowTransportError(`${method}: the JSON-RPC response has neither result nor error (HTTP ${httpStatus})`, httpStatus, redact(text, secrets()).slice(0, 1000));
  }
  if (httpStatus < 200 || httpStatus > 299) {
    throw new ApflowTransportError(`${method}: the server answered HTTP ${httpStatus} with a result`, httpStatus, redact(text, secrets()).slice(0, 1000));
  }
  return result;
}

const noSecrets = (): readonly string[] => [];

/** An error's `data` with credentials masked: a string directly, anything else through its JSON text. */
function redactData(data: unknown, secrets: readonly string[]): unknown {
  if (typeof data === "string") return redact(data, secrets);
  if (typeof data !== "object" || data === null) return data;
  const json = JSON.stringify(data);
  const masked = redact(json, secrets);
  if (masked === json) return data;
  try {
    return JSON.parse(masked) as unknown;
  } catch {
    return masked;
  }
}

/** A failed exchange, named by JSON-RPC method, HTTP method and URL, with the request's credentials masked. */
function transportFailure(method: string, url: string, secrets: readonly string[], error: unknown, timeout: AbortSignal | undefined, signal: AbortSignal | undefined, timeoutMs: number, httpStatus?: number): Error {
  const what = `${method}: POST ${url}`;
  const fail = (message: string) => new ApflowTransportError(redact(message, secrets), httpStatus, undefined, { cause: error });
  if (timeout?.aborted) return fail(`${what}: no answer within ${timeoutMs} ms`);
  if (signal?.aborted) return fail(`${what}: aborted${signal.reason !== undefined ? ` (${String(signal.reason)})` : ""}`);
  const cause = (error as { cause?: { message?: string } }).cause?.message;
  return fail(`${what} failed: ${(error as Error).message}${cause ? ` (${cause})` : ""}`);
}
