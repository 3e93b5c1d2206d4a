import type { Mode } from "../diagnostics.js";
import type { LoadedSources } from "../sources/load-sources.js";
import type { SourceResolver, SourceResolverOptions } from "../sources/resolver.js";

/** A request body as fetch accepts it. */
export type RequestBody = string | URLSearchParams | FormData | Blob | Uint8Array | ArrayBuffer;

/** A credential for one security scheme (§6). */
export type Credential =
  | { token: string }
  | { username: string; password: string }
  | { value: string }
  | { accessToken: string };

/** Per source, per security scheme name: a credential or a function that provides one (token refresh is yours). */
export type Credentials = Record<string, Record<string, Credential | (() => Promise<Credential> | Credential)>>;

/** Upstream's single auth config, accepted per source and applied to the first scheme it fits (§6). */
export type UpstreamAuth =
  | { type: "bearer"; token: string }
  | { type: "oauth2"; accessToken: string }
  | { type: "apiKey"; value: string }
  | { type: "basic"; username: string; password: string }
  | { type: "oauth1" }
  | { type: "none" };

/** The request as the hooks see it, before it is sent. */
export interface OutgoingRequest {
  actionId: string;
  operationId: string;
  method: string;
  url: URL;
  headers: Headers;
  body?: RequestBody;
}

export interface RetryOptions {
  /** Extra attempts after the first. */
  limit: number;
  /** Statuses that are retried (default 429, 502, 503, 504). */
  statuses?: readonly number[];
  /** Also retry POST and PATCH. */
  retryNonIdempotent?: boolean;
  /** First back-off delay when there is no Retry-After (default 200 ms, doubling, at most 5 s). */
  baseDelayMs?: number;
}

export interface RunOptions {
  /** Strict runs refuse undeclared parameters and names (§4.1, §4.5); default: the loaded document's mode. */
  mode?: Mode;
  /** Sources loaded already (see `loadSources`), reused across runs. */
  sources?: LoadedSources;
  /** How to read sources when `sources` is not given (default: local files only). */
  resolver?: SourceResolver | SourceResolverOptions;
  credentials?: Credentials;
  /** Upstream-style auth per source id. */
  auth?: Record<string, UpstreamAuth>;
  /** Values given to every action of a source unless a link sets them; treated as secrets (§6). */
  parameterDefaults?: Record<string, Record<string, unknown>>;
  /** Base URL per source id, overriding the OpenAPI servers (§4.5). */
  servers?: Record<string, string>;
  fetch?: typeof fetch;
  /** Per request (default 30 000 ms); 0 or Infinity turns the per-request timeout off. */
  timeoutMs?: number;
  /** Aborts the whole run. */
  signal?: AbortSignal;
  retry?: RetryOptions;
  /** Largest response body accepted (default 10 MiB). */
  maxResponseBytes?: number;
  /** Check each response body against its OpenAPI response schema and report mismatches as warnings (default off). */
  validateResponses?: boolean;
  /** Narrows success beyond 2xx (Arazzo successCriteria). */
  successCriteria?: (actionId: string, response: { status: number; headers: Headers; body: unknown }) => boolean;
  hooks?: {
    /** Called with each request before it is sent; may change headers or the URL. */
    onRequest?: (request: OutgoingRequest) => void | Promise<void>;
    /** Signs requests for schemes this executor cannot apply (digest, oauth1, …). */
    sign?: (request: OutgoingRequest, scheme: { sourceId: string; name: string; definition: Record<string, unknown> }) => void | Promise<void>;
  };
}
