import { DEFAULT_MAX_RESPONSE_BYTES, readBodyText, ResponseTooLargeError } from "@flowspec/runtime";
import { clip, redact, secretsOf } from "../redact.js";
import { timeoutSignal } from "../timeout-signal.js";
import type { ExecutorObject } from "../scheduler/registry.js";

/** The inputs of `rest_executor` (v1's documented inputs). */
export interface RestInputs {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  /** Query parameters, appended to the URL. */
  params?: Record<string, string | number | boolean>;
  /** Sent as a JSON body (with `Content-Type: application/json` unless a header says otherwise). */
  json?: unknown;
  /** Sent as the body as it is (a string) or as JSON (anything else, with `Content-Type: application/json` unless a header says otherwise) when `json` is absent. */
  body?: unknown;
  /** Seconds (default 30). */
  timeout?: number;
  /** The largest response body read, in bytes (default 16 MiB); a larger one fails the task with ResponseTooLargeError. */
  max_response_bytes?: number;
}

const inputSchema = {
  type: "object",
  required: ["url"],
  properties: {
    url: { type: "string", minLength: 1 },
    method: { type: "string", minLength: 1 },
    headers: { type: "object", additionalProperties: { type: "string" } },
    params: { type: "object", additionalProperties: { type: ["string", "number", "boolean"] } },
    timeout: { type: "number", exclusiveMinimum: 0 },
    max_response_bytes: { type: "integer", minimum: 1 },
  },
};

/**
 * `rest_executor`: one HTTP request with `fetch`. Result `{status_code, headers, body}` (`body`
 * parsed when the response is JSON, else text). A non-2xx status, a network error or the timeout
 * fails the task with a message naming the method, URL and status. Credentials the task sends
 * (secret headers and query values, a userinfo password) are masked in every message.
 */
export const restExecutor: ExecutorObject = {
  description: "An HTTP request via fetch: inputs {url, method, headers, params, json, body, timeout, max_response_bytes}; result {status_code, headers, body}",
  inputSchema,
  async execute(rawInputs, ctx) {
    const inputs = rawInputs as unknown as RestInputs;
    const method = (inputs.method ?? "GET").toUpperCase();
    let url: URL;
    try {
      url = new URL(inputs.url);
    } catch {
      throw new Error(`inputs.url is not a valid absolute URL: ${JSON.stringify(redact(inputs.url, secretsOf(inputs.headers)))}`);
    }
    for (const [key, value] of Object.entries(inputs.params ?? {})) url.searchParams.append(key, String(value));
    // Every message this executor reports goes through here: credentials the task sent are masked.
    const failure = (detail: string) => new Error(redact(`${method} ${url.href} ${detail}`, secretsOf(inputs.headers, url)));
    let headers: Headers;
    try {
      headers = new Headers(inputs.headers ?? {});
    } catch (error) {
      throw failure(`has invalid headers: ${(error as Error).message}`);
    }
    // `json`, or a `body` that is not a string, goes as JSON; a string `body` goes as it is.
    const payload = inputs.json !== undefined ? inputs.json : inputs.body;
    let body: string | undefined;
    if (inputs.json === undefined && typeof payload === "string") body = payload;
    else if (payload !== undefined) {
      body = JSON.stringify(payload);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
    }
    const seconds = inputs.timeout ?? 30;
    const { signal: timeout, stop: stopTimer } = timeoutSignal(seconds * 1000);
    const signal = AbortSignal.any([ctx.signal, timeout]);
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, { method, headers, body, signal });
      const request = redact(`${method} ${url.href}`, secretsOf(inputs.headers, url));
      text = await readBodyText(response, { maxBytes: inputs.max_response_bytes ?? DEFAULT_MAX_RESPONSE_BYTES, request, option: "max_response_bytes" });
    } catch (error) {
      if (error instanceof ResponseTooLargeError) throw error;
      if (timeout.aborted) throw failure(`timed out after ${seconds} s`);
      if (ctx.signal.aborted) throw failure("was cancelled");
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      throw failure(`failed: ${(error as Error).message}${cause ? ` (${cause})` : ""}`);
    } finally {
      stopTimer();
    }
    if (response.status < 200 || response.status > 299) {
      // Masked before it is cut, so that no part of a secret survives at the cut.
      const shown = text ? clip(redact(text, secretsOf(inputs.headers, url)), 200) : "";
      throw failure(`answered HTTP ${response.status}${shown ? `: ${shown}` : ""}`);
    }
    let parsed: unknown = text;
    if (/\bjson\b/i.test(response.headers.get("content-type") ?? "")) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status_code: response.status, headers: Object.fromEntries(response.headers), body: parsed };
  },
};
