import { DEFAULT_MAX_RESPONSE_BYTES, readBodyText, ResponseTooLargeError } from "@flowspec/runtime";
import { redact, secretsOf } from "../redact.js";
import { timeoutSignal } from "../timeout-signal.js";
import type { ExecutorObject } from "../scheduler/registry.js";

type FormValue = string | number | boolean;

/** How `rest_executor` authenticates (v1's `auth` input). */
export type RestAuth =
  | { type: "bearer"; token: string }
  | { type: "basic"; username: string; password: string }
  | { type: "apikey"; key: string; value: string; location?: "header" | "query" };

/** The inputs of `rest_executor` (v1's inputs, plus `body`). */
export interface RestInputs {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  /** Query parameters, appended to the URL. */
  params?: Record<string, FormValue>;
  /** Sent as a JSON body (with `Content-Type: application/json` unless a header says otherwise). */
  json?: unknown;
  /** Sent as a form body, `application/x-www-form-urlencoded` (an array repeats its field), when `json` is absent. */
  data?: Record<string, FormValue | FormValue[]>;
  /** Sent as the body as it is (a string) or as JSON (anything else) when neither `json` nor `data` is given. Not in v1. */
  body?: unknown;
  auth?: RestAuth;
  /** Seconds (default 30). */
  timeout?: number;
  /** The largest response body read, in bytes (default 16 MiB); a larger one fails the task with ResponseTooLargeError. */
  max_response_bytes?: number;
}

/** What `rest_executor` returns, as v1 does: `json` when the body parses as JSON, else `text`. */
export interface RestResult {
  /** Whether the status was 2xx: any other status still completes the task. */
  success: boolean;
  status_code: number;
  /** The final URL (after redirects). */
  url: string;
  headers: Record<string, string>;
  json?: unknown;
  text?: string;
  method: string;
}

const scalar = { type: ["string", "number", "boolean"] };
const inputSchema = {
  type: "object",
  required: ["url"],
  properties: {
    url: { type: "string", minLength: 1 },
    method: { type: "string", minLength: 1 },
    headers: { type: "object", additionalProperties: { type: "string" } },
    params: { type: "object", additionalProperties: scalar },
    data: { type: "object", additionalProperties: { anyOf: [scalar, { type: "array", items: scalar }] } },
    auth: {
      type: "object",
      required: ["type"],
      properties: { type: { enum: ["bearer", "basic", "apikey"] } },
      allOf: [
        { if: { properties: { type: { const: "bearer" } } }, then: { required: ["token"], properties: { token: { type: "string", minLength: 1 } } } },
        { if: { properties: { type: { const: "basic" } } }, then: { required: ["username", "password"], properties: { username: { type: "string" }, password: { type: "string" } } } },
        {
          if: { properties: { type: { const: "apikey" } } },
          then: { required: ["key", "value"], properties: { key: { type: "string", minLength: 1 }, value: { type: "string", minLength: 1 }, location: { enum: ["header", "query"] } } },
        },
      ],
    },
    timeout: { type: "number", exclusiveMinimum: 0 },
    max_response_bytes: { type: "integer", minimum: 1 },
  },
};

/**
 * `rest_executor`: one HTTP request with `fetch`, as v1 makes it (notes §5, revised 2026-11-27).
 * Result `{success, status_code, url, headers, json | text, method}`; a non-2xx status completes
 * with `success: false`. A network error or the timeout fails the task with a message naming the
 * method and URL. Credentials (from `auth`, secret headers and query values, a userinfo password)
 * are masked in every message and in the result.
 */
export const restExecutor: ExecutorObject = {
  description: "An HTTP request via fetch: inputs {url, method, headers, params, json, data, auth, timeout, max_response_bytes}; result {success, status_code, url, headers, json | text, method}",
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
    const auth = inputs.auth;
    if (auth?.type === "apikey" && auth.location === "query") url.searchParams.set(auth.key, auth.value);
    // Every message and result this executor reports goes through here: credentials the task sent are masked.
    const secrets = () => [...authSecretsOf(auth), ...secretsOf(inputs.headers, url)];
    const failure = (detail: string) => new Error(redact(`${method} ${url.href} ${detail}`, secrets()));
    let headers: Headers;
    try {
      headers = new Headers(inputs.headers ?? {});
      if (auth?.type === "bearer" && !headers.has("authorization")) headers.set("authorization", `Bearer ${auth.token}`);
      if (auth?.type === "basic") headers.set("authorization", `Basic ${basic(auth)}`);
      if (auth?.type === "apikey" && auth.location !== "query") headers.set(auth.key, auth.value);
    } catch (error) {
      throw failure(`has invalid headers: ${(error as Error).message}`);
    }
    // `json` goes as JSON, else `data` as a form; else a string `body` as it is and any other `body` as JSON.
    let body: string | undefined;
    const contentType = (type: string) => void (headers.has("content-type") || headers.set("content-type", type));
    if (inputs.json === undefined && inputs.data !== undefined) {
      const form = new URLSearchParams();
      for (const [key, value] of Object.entries(inputs.data)) for (const item of Array.isArray(value) ? value : [value]) form.append(key, String(item));
      body = form.toString();
      contentType("application/x-www-form-urlencoded");
    } else {
      const payload = inputs.json !== undefined ? inputs.json : inputs.body;
      if (inputs.json === undefined && typeof payload === "string") body = payload;
      else if (payload !== undefined) {
        body = JSON.stringify(payload);
        contentType("application/json");
      }
    }
    const seconds = inputs.timeout ?? 30;
    const { signal: timeout, stop: stopTimer } = timeoutSignal(seconds * 1000);
    const signal = AbortSignal.any([ctx.signal, timeout]);
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, { method, headers, body, signal });
      const request = redact(`${method} ${url.href}`, secrets());
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
    const success = response.status >= 200 && response.status <= 299;
    // As v1: an error status keeps its body as text; otherwise JSON when it parses (null does not count), else text.
    let json: unknown = null;
    if (success) {
      try {
        json = JSON.parse(text);
      } catch {
        json = null;
      }
    }
    const result: RestResult = { success, status_code: response.status, url: response.url || url.href, headers: Object.fromEntries(response.headers), method };
    if (json !== null) result.json = json;
    else result.text = text;
    return masked(result, secrets());
  },
};

/** `user:password` in base64 (UTF-8 first), without Node's Buffer. */
const basic = (auth: { username: string; password: string }) => btoa(Array.from(new TextEncoder().encode(`${auth.username}:${auth.password}`), (byte) => String.fromCharCode(byte)).join(""));

/** The values `auth` sends, as sent and encoded: credentials whatever their names and lengths. */
function authSecretsOf(auth: RestAuth | undefined): string[] {
  const values = auth?.type === "bearer" ? [auth.token] : auth?.type === "basic" ? [auth.password, basic(auth)] : auth?.type === "apikey" ? [auth.value] : [];
  return values.filter((value) => value !== "").flatMap((value) => [value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2)]);
}

/** The result with every credential masked, in strings at any depth and in keys (a server may echo what it was sent). */
function masked(result: RestResult, secrets: readonly string[]): RestResult {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return secrets.some((secret) => v.includes(secret)) ? redact(v, secrets) : v;
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([key, item]) => [walk(key), walk(item)]));
    return v;
  };
  // The URL also loses secret query values and a userinfo password, whatever they are.
  return { ...(secrets.length > 0 ? (walk(result) as RestResult) : result), url: redact(result.url, secrets) };
}
