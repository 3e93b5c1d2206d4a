/**
 * One JSON request to the Agent Service (protocol notes §4.4): bearer auth, the `{code, message,
 * data}` envelope unwrapped, typed errors, a per-try timeout, the caller's AbortSignal, and retries
 * with backoff for calls that are safe to repeat. Uses only fetch, so it runs wherever fetch does.
 */
import type { ValidationIssue, ValidationResult } from "@flowspec/runtime";
import { REQUEST_ID_HEADER } from "../routes.js";
import { ApiConnectionError, ApiError, apiErrorFor, ApiTimeoutError, ResponseValidationError } from "./errors.js";
import { fetchFollowingRedirects, readBodyText, RedirectError, ResponseTooLargeError, startTimer, untilAborted } from "@flowspec/runtime";
import { checkMs } from "./options.js";
import { backoffDelay, parseRetryAfter, type ResolvedRetry } from "./retry.js";

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface HttpConfig {
  orgId: string;
  token: string | (() => string | Promise<string>);
  fetch: FetchLike;
  timeoutMs: number;
  retry: ResolvedRetry;
  headers: Record<string, string>;
  /** The largest response body read, in bytes. */
  maxResponseBytes: number;
  /** Follow redirects to another origin for POSTs and streams (runtime's redirect policy). */
  allowCrossOriginRedirects: boolean;
}

export type Query = Record<string, string | number | undefined>;

export interface RequestSpec<T> {
  method: "GET" | "POST";
  url: string;
  query?: Query;
  body?: unknown;
  /** Whether a failed try may be repeated (idempotent calls, and create with an idempotency key). */
  retryable: boolean;
  typeName: string;
  validate: (data: unknown) => ValidationResult<T>;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
}

export function buildUrl(base: string, path: string, query: Query = {}): string {
  const url = new URL(base.replace(/\/+$/, "") + path);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
  return url.toString();
}

export async function authHeaders(config: HttpConfig): Promise<Record<string, string>> {
  const token = typeof config.token === "function" ? await config.token() : config.token;
  return { ...config.headers, authorization: `Bearer ${token}` };
}

/** Whether an error may be retried: no answer, 408, 429, 5xx, or 409 with `Retry-After`. */
export function isRetryableError(error: unknown): boolean {
  if (error instanceof ApiConnectionError) return true;
  if (!(error instanceof ApiError)) return false;
  const { status } = error;
  return status === 408 || status === 429 || status >= 500 || (status === 409 && error.retryAfterMs !== undefined);
}

/** The delay before retry `retry`: `Retry-After` when sent (capped), else backoff with jitter. */
export function retryDelay(error: unknown, retry: number, options: ResolvedRetry): number {
  const after = error instanceof ApiError ? error.retryAfterMs : undefined;
  return after !== undefined ? Math.min(after, options.maxRetryAfterMs) : backoffDelay(retry, options);
}

export async function request<T>(config: HttpConfig, spec: RequestSpec<T>): Promise<T> {
  checkMs("timeoutMs", spec.timeoutMs);
  const url = buildUrl(spec.url, "", spec.query);
  const maxRetries = spec.retryable ? config.retry.maxRetries : 0;
  for (let retry = 0; ; retry++) {
    try {
      return await once(config, spec, url);
    } catch (error) {
      if (spec.signal?.aborted) throw spec.signal.reason;
      if (retry >= maxRetries || !isRetryableError(error)) throw error;
      await config.retry.sleep(retryDelay(error, retry, config.retry), spec.signal);
    }
  }
}

async function once<T>(config: HttpConfig, spec: RequestSpec<T>, url: string): Promise<T> {
  const timeoutMs = spec.timeoutMs ?? config.timeoutMs;
  const controller = new AbortController();
  const onAbort = () => controller.abort(spec.signal!.reason);
  if (spec.signal?.aborted) throw spec.signal.reason;
  spec.signal?.addEventListener("abort", onAbort, { once: true });
  let timedOut = false;
  // 0 means no timeout, as in the other flowspec clients (not "time out at once").
  const stopTimer = startTimer(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs === 0 ? Infinity : timeoutMs);
  const noAnswer = (error: unknown): never => {
    if (spec.signal?.aborted) throw spec.signal.reason;
    if (timedOut) throw new ApiTimeoutError(timeoutMs);
    throw new ApiConnectionError(`${spec.method} ${url}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  };
  try {
    // A token() that hangs must not outlive the timeout or the caller's abort; one that throws is the caller's error.
    const auth = await untilAborted(authHeaders(config), controller.signal).catch((error: unknown) => (controller.signal.aborted ? noAnswer(error) : Promise.reject(error)));
    const headers: Record<string, string> = { ...auth, accept: "application/json" };
    if (spec.body !== undefined) headers["content-type"] = "application/json";
    const init: RequestInit = { method: spec.method, headers, signal: controller.signal };
    if (spec.body !== undefined) init.body = JSON.stringify(spec.body);
    const response = await fetchFollowingRedirects(config.fetch, url, init, { allowCrossOrigin: config.allowCrossOriginRedirects }).catch((error: unknown) =>
      error instanceof RedirectError ? Promise.reject(error) : noAnswer(error),
    );
    const text = await readBody(config, response, `${spec.method} ${url}`).catch((error: unknown) => (error instanceof ResponseTooLargeError ? Promise.reject(error) : noAnswer(error)));
    return unwrap(response, text, spec);
  } finally {
    stopTimer();
    spec.signal?.removeEventListener("abort", onAbort);
  }
}

/** A response's body as text, never more than `maxResponseBytes` of it (else a ResponseTooLargeError). */
export function readBody(config: HttpConfig, response: Response, request: string): Promise<string> {
  return readBodyText(response, { maxBytes: config.maxResponseBytes, request });
}

/** Turns an answer into its `data`, or the typed error it stands for. */
export function unwrap<T>(response: Response, text: string, spec: Pick<RequestSpec<T>, "typeName" | "validate">): T {
  const requestId = response.headers.get(REQUEST_ID_HEADER) ?? undefined;
  let body: unknown = text;
  let isJson = false;
  try {
    body = JSON.parse(text);
    isJson = true;
  } catch {
    // not JSON: kept as text
  }
  const envelope = isJson && typeof body === "object" && body !== null && !Array.isArray(body) ? (body as { code?: unknown; message?: unknown; data?: unknown }) : undefined;
  const code = typeof envelope?.code === "number" ? envelope.code : undefined;
  const message = typeof envelope?.message === "string" ? envelope.message : response.statusText || `HTTP ${response.status}`;
  if (!response.ok) {
    throw apiErrorFor(response.status, code, message, requestId, body, parseRetryAfter(response.headers.get("retry-after")));
  }
  const issues: ValidationIssue[] = [];
  if (!envelope) issues.push({ path: "", message: isJson ? "must be an object {code, message, data}" : "is not JSON", keyword: "envelope", params: {} });
  else {
    if (code === undefined || !Number.isInteger(code)) issues.push({ path: "/code", message: "must be an integer", keyword: "envelope", params: {} });
    if (typeof envelope.message !== "string") issues.push({ path: "/message", message: "must be a string", keyword: "envelope", params: {} });
    if (!("data" in envelope) && code === 0) issues.push({ path: "/data", message: "is required", keyword: "envelope", params: {} });
  }
  if (issues.length > 0) throw new ResponseValidationError("envelope", issues, requestId, body);
  if (code !== 0) throw apiErrorFor(response.status, code, message, requestId, body);
  const result = spec.validate(envelope!.data);
  if (!result.ok) {
    throw new ResponseValidationError(spec.typeName, result.errors.map((e) => ({ ...e, path: `/data${e.path}` })), requestId, body);
  }
  return result.value;
}
