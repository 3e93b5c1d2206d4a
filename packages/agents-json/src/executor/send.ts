import { HttpError, ResponseParseError, ResponseTooLargeError, TransportError, type RunErrorDetails } from "../errors.js";
import { readBodyBytes, ResponseTooLargeError as BodyTooLargeError, retryDelay, sleep, type BodyLimit } from "@flowspec/runtime";
import { bareMediaType } from "../sources/media.js";
import type { OutgoingRequest, RunOptions } from "./options.js";
import type { Redactor } from "./redact.js";
import type { RunAbort } from "./run-abort.js";
import type { PendingStep } from "./trace.js";

const decoder = new TextDecoder();
const IDEMPOTENT = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"]);
const DEFAULT_RETRY_STATUSES = [429, 502, 503, 504];
/** §4.6: 30 s per request unless `timeoutMs` says otherwise. */
export const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

export interface ReceivedResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

/**
 * Sends one request with a per-call timeout and the run's signal, retrying idempotent methods on
 * the configured statuses and on network failures (§4.6), then reads and parses the body.
 */
export async function sendRequest(
  request: OutgoingRequest,
  options: RunOptions,
  redactor: Redactor,
  details: RunErrorDetails,
  run: RunAbort,
  /** The action's trace step; its `request` (set by the caller) names the call in errors, and is replaced when a redirect is followed. */
  step: PendingStep,
): Promise<ReceivedResponse> {
  const doFetch = options.fetch ?? fetch;
  const retry = options.retry;
  const mayRetry = retry !== undefined && (IDEMPOTENT.has(request.method) || retry.retryNonIdempotent === true);
  const limit = mayRetry ? retry.limit : 0;
  const timeoutMs = run.timeoutMs;
  const sent = step.request;
  const what = () => `action "${request.actionId}" (operation "${request.operationId}", ${requestLine(step, redactor)})`;
  for (let attempt = 0; ; attempt++) {
    // Every attempt starts again from the request as built (a redirect of the last one is not kept).
    step.request = sent;
    // The run's signal carries the caller's signal and the per-call timeout (see run-abort.ts).
    run.startCall();
    const init: RequestInit = { method: request.method, headers: request.headers, redirect: "manual" };
    if (request.body !== undefined) init.body = request.body;
    if (run.needsSignal) init.signal = run.signal();
    let response: Response;
    let bodyBytes: Uint8Array;
    try {
      try {
        response = await doFetch(request.url.href, init);
        if (response.status >= 300 && response.status < 400) response = await followRedirects(response, request, init, doFetch, redactor, step, what, details);
      } catch (error) {
        if (error instanceof TransportError) throw error;
        if (options.signal?.aborted) throw new TransportError(`${what()}: the run was aborted`, { ...details, cause: error });
        const reason = run.timedOut ? `no response within ${timeoutMs} ms` : describeNetworkError(error);
        if (attempt < limit && !run.timedOut) {
          await delay(backoff(retry!, attempt, undefined), options.signal);
          continue;
        }
        throw new TransportError(`${what()}: ${redactor.text(reason)}`, { ...details, cause: error });
      }
      if (attempt < limit && (retry!.statuses ?? DEFAULT_RETRY_STATUSES).includes(response.status)) {
        await response.body?.cancel();
        await delay(backoff(retry!, attempt, response.headers.get("retry-after")), options.signal);
        continue;
      }
      try {
        // The request line (masked method and URL) is written only if an error needs it: most bodies
        // are within their limit, and masking the URL for each of them showed in profiles.
        const bodyLimit: BodyLimit = { maxBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, get request() { return what(); } };
        bodyBytes = await readBodyBytes(response, bodyLimit);
      } catch (error) {
        // runtime's error, in this package's hierarchy (a FlowRunError carrying the trace).
        if (error instanceof BodyTooLargeError) throw new ResponseTooLargeError(error.message, { ...details, cause: error });
        throw new TransportError(`${what()}: reading the response failed: ${run.timedOut ? `no response within ${timeoutMs} ms` : (error as Error).message}`, { ...details, cause: error });
      }
    } finally {
      run.endCall();
    }
    const parsed = parseBody(response, bodyBytes, what, details, redactor);
    const ok = response.status >= 200 && response.status < 300;
    const accepted = ok && (options.successCriteria ? options.successCriteria(request.actionId, { status: response.status, headers: response.headers, body: parsed }) : true);
    if (!accepted) {
      // Masked before it becomes JSON text: a secret with a quote or backslash is escaped there.
      const masked = redactor.value(parsed);
      const shown = typeof masked === "string" ? masked : JSON.stringify(masked);
      throw new HttpError(
        `${what()} failed with HTTP ${response.status}${ok ? " (rejected by successCriteria)" : ""}: ${(shown ?? "").slice(0, 500)}`,
        response.status,
        masked,
        details,
      );
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }
}

const MAX_REDIRECTS = 10;
/** Headers that describe the body, dropped with it when a redirect turns the request into a GET (as fetch does). */
const BODY_HEADERS = ["content-type", "content-encoding", "content-language", "content-location"];

/**
 * Follows redirects by hand, with fetch's method rules (303, and 301/302 after a POST, become a GET
 * without body; 307/308 keep method and body). fetch itself would forward an apiKey header to
 * another origin (undici drops only authorization, proxy-authorization and cookie), so once a hop
 * leaves the request's origin every header the trace masks is dropped for the rest of the chain:
 * authorization, cookie, apiKey headers and secret parameterDefaults. apiKey query parameters are
 * not carried anyway: the Location replaces the URL. Each hop replaces `step.request` and leaves a
 * note, so the trace and errors name the URL that was really called.
 *
 * Every body the executor builds (string, bytes, Blob, URLSearchParams, FormData) can be sent again
 * for a 307/308; a stream (which only a hook could set) cannot, and is refused.
 */
async function followRedirects(
  response: Response,
  request: OutgoingRequest,
  init: RequestInit,
  doFetch: typeof fetch,
  redactor: Redactor,
  step: PendingStep,
  what: () => string,
  details: RunErrorDetails,
): Promise<Response> {
  let { url, method, headers, body } = request;
  let crossed = false;
  for (let hops = 0; ; hops++) {
    const status = response.status;
    const location = status === 301 || status === 302 || status === 303 || status === 307 || status === 308 ? response.headers.get("location") : null;
    // Like fetch, a 3xx that is not a redirect (304, 300, …) or has no Location is the response.
    if (location === null) return response;
    await response.body?.cancel();
    if (hops === MAX_REDIRECTS) throw new TransportError(`${what()}: more than ${MAX_REDIRECTS} redirects`, details);
    const next = parseUrl(location, url);
    if (next === undefined || (next.protocol !== "http:" && next.protocol !== "https:")) {
      throw new TransportError(`${what()}: redirected by HTTP ${status} to ${redactor.text(location)}, which is not an http(s) URL`, details);
    }
    if ((status === 303 && method !== "GET" && method !== "HEAD") || ((status === 301 || status === 302) && method === "POST")) {
      method = "GET";
      body = undefined;
      if (headers === request.headers) headers = new Headers(headers);
      for (const name of BODY_HEADERS) headers.delete(name);
    } else if (body instanceof ReadableStream) {
      throw new TransportError(`${what()}: cannot follow the HTTP ${status} redirect: a stream body cannot be sent again`, details);
    }
    const dropped: string[] = [];
    if (!crossed && next.origin !== request.url.origin) {
      crossed = true;
      for (const [name] of headers) if (redactor.isSecretHeader(name)) dropped.push(name);
      if (headers === request.headers) headers = new Headers(headers);
      for (const name of dropped) headers.delete(name);
    }
    const shown = redactor.url(next);
    step.notes.push(`redirected by HTTP ${status} from ${requestLine(step, redactor)} to ${shown}${dropped.length > 0 ? `; another origin, so ${dropped.join(", ")} not sent` : ""}`);
    step.request = { method, url: next, headers };
    const hop: RequestInit = { method, headers, redirect: "manual" };
    if (body !== undefined) hop.body = body;
    if (init.signal) hop.signal = init.signal;
    url = next;
    response = await doFetch(url.href, hop);
  }
}

/** The step's request as errors and redirect notes name it: method and masked URL (the last hop's, after a redirect). */
function requestLine(step: PendingStep, redactor: Redactor): string {
  return step.request ? `${step.request.method} ${redactor.url(step.request.url)}` : step.method;
}

function parseUrl(text: string, base: URL): URL | undefined {
  try {
    return new URL(text, base);
  } catch {
    return undefined;
  }
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ? `${cause.code} ${cause.message ?? ""}`.trim() : (error as Error).message;
}

function parseBody(response: Response, bytes: Uint8Array, what: () => string, details: RunErrorDetails, redactor: Redactor): unknown {
  if (response.status === 204 || bytes.byteLength === 0) return null;
  const type = bareMediaType(response.headers.get("content-type") ?? "");
  const isJson = type === "application/json" || type.endsWith("+json");
  if (isJson) {
    const text = decoder.decode(bytes);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // Masked before cutting, so a secret across the cut is not left half shown.
      const start = redactor.text(text).slice(0, 200);
      throw new ResponseParseError(`${what()}: HTTP ${response.status} said ${type} but the body is not JSON: ${JSON.stringify(start)}`, response.status, start, details);
    }
  }
  if (type === "" || type.startsWith("text/") || type.endsWith("+xml") || type === "application/xml" || type === "application/x-www-form-urlencoded") {
    return textDecoder(response.headers.get("content-type") ?? "").decode(bytes);
  }
  return bytes;
}

/** The decoder for a text body's `charset` (RFC 9110 §8.3.2); UTF-8 when there is none or it is unknown. */
function textDecoder(contentType: string): typeof decoder {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  if (charset === undefined || /^utf-?8$/i.test(charset)) return decoder;
  try {
    return new TextDecoder(charset);
  } catch {
    return decoder;
  }
}

/**
 * The wait before retry `attempt`: `Retry-After` when the server sent one that reads (capped at
 * 60 s), else 200 ms (`baseDelayMs`) doubling to 5 s, minus up to 25 % jitter. Runtime's rules, as
 * every flowspec client's.
 */
function backoff(retry: NonNullable<RunOptions["retry"]>, attempt: number, retryAfter: string | null | undefined): number {
  return retryDelay(attempt, retryAfter, { initialDelayMs: retry.baseDelayMs ?? 200, maxDelayMs: 5_000, maxRetryAfterMs: 60_000 });
}

/** Waits out a retry back-off; the caller's signal ends it early, and keeps no listener after it. */
function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return sleep(ms, signal).catch(() => Promise.reject(new TransportError("the run was aborted")));
}
