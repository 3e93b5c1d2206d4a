/**
 * The one redirect policy of every flowspec HTTP client. fetch's own would re-send a POST's body to
 * another host on a 307, hand a stream to whatever origin a redirect names, and forward every header
 * but a few to it (undici drops only authorization, proxy-authorization and cookie, not API-key or
 * other custom headers). Here redirects are followed by hand:
 * - at most `maxRedirects` hops (default 10);
 * - 303, and 301/302 after a POST, become a GET without body (as fetch does); 307/308 keep both;
 * - once a hop leaves the origin, every header but the defaults (`accept`, `content-type`, …) is
 *   dropped for the rest of the chain: credentials, API keys, cookies and custom headers alike;
 * - a redirect to another origin of a request that is not a GET or HEAD, or of a stream, is refused
 *   with a RedirectError unless the caller opted in (`allowCrossOrigin`).
 */
import { isErrorInstance } from "./error-brand.js";

export interface RedirectPolicy {
  /** Follow a redirect to another origin for a POST (any method but GET and HEAD) or a stream. Default false. */
  allowCrossOrigin?: boolean;
  /** The response is read as a stream (SSE, NDJSON): its cross-origin redirects are refused like a POST's. */
  stream?: boolean;
  /** How many redirects are followed (default 10). */
  maxRedirects?: number;
}

/** A redirect was not followed: to another origin without the caller's consent, too many, or to no http(s) URL. */
export class RedirectError extends Error {
  static readonly "~brand": string = "@flowspec/runtime:RedirectError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "RedirectError";
  constructor(
    /** The request that was redirected: `POST https://…`. */
    readonly request: string,
    readonly status: number,
    /** Where it was sent, as the Location header said. */
    readonly location: string,
    reason: string,
  ) {
    super(`${request}: not following the HTTP ${status} redirect to ${location}: ${reason}`);
  }
}

export const DEFAULT_MAX_REDIRECTS = 10;

/** The headers a request keeps when it goes to another origin: none says who the caller is. */
const KEPT_ACROSS_ORIGINS = new Set(["accept", "accept-encoding", "accept-language", "content-language", "content-type", "last-event-id", "user-agent"]);
/** The headers that describe a body, dropped with it when a redirect turns the request into a GET. */
const BODY_HEADERS = ["content-type", "content-encoding", "content-language", "content-location", "content-length"];
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * `doFetch(url, init)` under the policy above. Resolves with the first response that is not a
 * redirect (a 3xx without Location is one, as fetch has it); rejects with a RedirectError for one it
 * will not follow. The signal, and every other member of `init`, go with each hop.
 */
export async function fetchFollowingRedirects(
  doFetch: (url: string, init: RequestInit) => Promise<Response>,
  url: string,
  init: RequestInit,
  policy: RedirectPolicy = {},
): Promise<Response> {
  const maxRedirects = policy.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const firstMethod = (init.method ?? "GET").toUpperCase();
  const guarded = policy.stream === true || (firstMethod !== "GET" && firstMethod !== "HEAD");
  let method = firstMethod;
  let headers = init.headers;
  let body = init.body;
  let current = url;
  for (let hops = 0; ; hops++) {
    const response = await doFetch(current, { ...init, method, headers, body, redirect: "manual" });
    const request = `${method} ${current}`;
    if (response.type === "opaqueredirect") {
      throw new RedirectError(request, response.status, "(hidden)", "this platform's fetch does not show where a redirect goes");
    }
    const location = REDIRECTS.has(response.status) ? response.headers.get("location") : null;
    if (location === null) return response;
    await response.body?.cancel().catch(() => undefined);
    const refuse = (reason: string): never => {
      throw new RedirectError(request, response.status, location, reason);
    };
    if (hops === maxRedirects) refuse(`more than ${maxRedirects} redirects`);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      return refuse("not a URL");
    }
    if (next.protocol !== "http:" && next.protocol !== "https:") refuse("not an http(s) URL");
    const fromOrigin = new URL(current).origin;
    if (next.origin !== fromOrigin) {
      if (guarded && !policy.allowCrossOrigin) {
        refuse(`another origin (${next.origin}), for ${policy.stream ? "a stream" : `a ${firstMethod}`}; allow cross-origin redirects to follow it`);
      }
      headers = filterHeaders(headers, (name) => KEPT_ACROSS_ORIGINS.has(name));
    }
    if ((response.status === 303 && method !== "GET" && method !== "HEAD") || ((response.status === 301 || response.status === 302) && method === "POST")) {
      method = "GET";
      body = undefined;
      headers = filterHeaders(headers, (name) => !BODY_HEADERS.includes(name));
    } else if (body instanceof ReadableStream) {
      refuse("a stream body cannot be sent again");
    }
    current = next.href;
  }
}

function filterHeaders(headers: RequestInit["headers"], keep: (name: string) => boolean): Headers {
  const out = new Headers();
  for (const [name, value] of new Headers(headers)) if (keep(name)) out.append(name, value);
  return out;
}
