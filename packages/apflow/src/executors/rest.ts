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
  /** Sent as the body as it is (a string) or as JSON (anything else) when `json` is absent. */
  body?: unknown;
  /** Seconds (default 30). */
  timeout?: number;
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
  },
};

/**
 * `rest_executor`: one HTTP request with `fetch`. Result `{status_code, headers, body}` (`body`
 * parsed when the response is JSON, else text). A non-2xx status, a network error or the timeout
 * fails the task with a message naming the method, URL and status.
 */
export const restExecutor: ExecutorObject = {
  description: "An HTTP request via fetch: inputs {url, method, headers, params, json, body, timeout}; result {status_code, headers, body}",
  inputSchema,
  async execute(rawInputs, ctx) {
    const inputs = rawInputs as unknown as RestInputs;
    const method = (inputs.method ?? "GET").toUpperCase();
    const url = new URL(inputs.url);
    for (const [key, value] of Object.entries(inputs.params ?? {})) url.searchParams.append(key, String(value));
    const headers = new Headers(inputs.headers ?? {});
    let body: string | undefined;
    if (inputs.json !== undefined) {
      body = JSON.stringify(inputs.json);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
    } else if (inputs.body !== undefined) {
      body = typeof inputs.body === "string" ? inputs.body : JSON.stringify(inputs.body);
    }
    const seconds = inputs.timeout ?? 30;
    const { signal: timeout, stop: stopTimer } = timeoutSignal(seconds * 1000);
    const signal = AbortSignal.any([ctx.signal, timeout]);
    const what = `${method} ${url.href}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, { method, headers, body, signal });
      text = await response.text();
    } catch (error) {
      if (timeout.aborted) throw new Error(`${what} timed out after ${seconds} s`);
      if (ctx.signal.aborted) throw new Error(`${what} was cancelled`);
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      throw new Error(`${what} failed: ${(error as Error).message}${cause ? ` (${cause})` : ""}`);
    } finally {
      stopTimer();
    }
    if (response.status < 200 || response.status > 299) {
      throw new Error(`${what} answered HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ""}`);
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
