/**
 * Every provisional HTTP and stream rule of the Agent Service client and test server, in one place
 * (protocol notes §3.3, §4.2, §5.2). When the upstream control-plane, read-plane or run-stream
 * files become available, correct them here: nothing else spells a path, a channel name or a
 * terminal status.
 */
import type { Run, TaskStatus } from "./generated/index.js";

const enc = encodeURIComponent;
const org = (orgId: string) => `/v1/organizations/${enc(orgId)}`;

/** Paths of the run operations (§4.2), relative to the base URL of their plane. */
export const ROUTES = {
  /** POST (control): create. GET (read): list. */
  runs: (orgId: string) => `${org(orgId)}/runs`,
  /** GET (read). */
  run: (orgId: string, runId: string) => `${org(orgId)}/runs/${enc(runId)}`,
  /** POST (control). */
  cancel: (orgId: string, runId: string) => `${org(orgId)}/runs/${enc(runId)}/cancel`,
  /** POST (control). */
  respond: (orgId: string, runId: string, interactionId: string) =>
    `${org(orgId)}/runs/${enc(runId)}/interactions/${enc(interactionId)}/respond`,
  /** GET (read). */
  events: (orgId: string, runId: string) => `${org(orgId)}/runs/${enc(runId)}/events`,
  /** GET (stream). */
  stream: (orgId: string, runId: string) => `${org(orgId)}/runs/${enc(runId)}/stream`,
} as const;

/** The same routes as patterns, for a server to match: each capture is one path segment. */
export const ROUTE_PATTERNS = {
  runs: /^\/v1\/organizations\/([^/]+)\/runs$/,
  run: /^\/v1\/organizations\/([^/]+)\/runs\/([^/]+)$/,
  cancel: /^\/v1\/organizations\/([^/]+)\/runs\/([^/]+)\/cancel$/,
  respond: /^\/v1\/organizations\/([^/]+)\/runs\/([^/]+)\/interactions\/([^/]+)\/respond$/,
  events: /^\/v1\/organizations\/([^/]+)\/runs\/([^/]+)\/events$/,
  stream: /^\/v1\/organizations\/([^/]+)\/runs\/([^/]+)\/stream$/,
} as const;

/** Query parameter names: offset pagination (confirmed) and the run filters and stream cursor (provisional). */
export const QUERY = {
  offset: "offset",
  limit: "limit",
  cursor: "cursor",
  threadId: "threadId",
  transport: "transport",
} as const;

/** Filters of the run list, sent as plain query parameters. */
export const RUN_LIST_FILTERS = ["status", "resourceType", "resourceId", "threadId", "contextId"] as const;

/** List paging (OpenAI's defaults): runs newest first, 20 a page, at most 100. */
export const LIST_LIMITS = { defaultLimit: 20, maxLimit: 100 } as const;

/** The header that carries the request id in responses (OpenAI's convention). */
export const REQUEST_ID_HEADER = "x-request-id";

/** Stream transports the client speaks (`jsonrpc` is in the enum but not supported). */
export type StreamTransport = "sse" | "ndjson";
export const STREAM_CONTENT_TYPES: Record<StreamTransport, string> = {
  sse: "text/event-stream",
  ndjson: "application/x-ndjson",
};

/** SSE event names: the AsyncAPI channel names (confirmed names, provisional use as SSE events). */
export const STREAM_CHANNELS = {
  event: "run.stream.event",
  keepalive: "run.stream.keepalive",
  end: "run.stream.end",
} as const;

/** Statuses after which a run never changes (§3.3). */
export const TERMINAL_STATUSES: readonly TaskStatus[] = ["completed", "failed", "canceled", "timed_out", "rejected"];

/** Statuses in which cancel returns the run unchanged (§4.4). */
export const CANCELED_STATUSES: readonly TaskStatus[] = ["cancelling", "canceled"];

/** A run is terminal when its status is terminal or it has `finishedAt` (§3.3). */
export function isTerminalRun(run: Pick<Run, "status" | "finishedAt">): boolean {
  return run.finishedAt !== undefined || (run.status !== undefined && TERMINAL_STATUSES.includes(run.status));
}

/** Retry and stream defaults (§4.4, §5.3): openai-node's backoff, LangGraph-like idle reconnect. */
export const DEFAULTS = {
  timeoutMs: 60_000,
  maxRetries: 2,
  initialRetryDelayMs: 500,
  maxRetryDelayMs: 8_000,
  /** Up to this fraction of a backoff delay is taken off at random. */
  jitter: 0.25,
  /** `Retry-After` is honoured up to this. */
  maxRetryAfterMs: 60_000,
  streamIdleTimeoutMs: 45_000,
  maxReconnects: 10,
  keepaliveIntervalMs: 15_000,
  eventsPageLimit: 100,
} as const;
