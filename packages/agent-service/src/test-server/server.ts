/**
 * A local Agent Service for tests and examples (node:http, 127.0.0.1 only), following the
 * protocol notes §4–§5: the `{code, message, data}` envelope, org-scoped routes, bearer auth,
 * offset pagination, idempotent create, cancel, interactions, the event list and the SSE/NDJSON
 * run stream, plus fault injection.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { CreateRunCommand, Run, RespondToInteractionCommand } from "../generated/index.js";
import { DEFAULTS, isTerminalRun, LIST_LIMITS, QUERY, REQUEST_ID_HEADER, ROUTE_PATTERNS, RUN_LIST_FILTERS, CANCELED_STATUSES, type StreamTransport } from "../routes.js";
import { validateCreateRunCommandResponse, validateRespondToInteractionCommandResponse } from "../validate.js";
import { createFaultQueue, type Fault, type ServerRoute } from "./faults.js";
import { echoScript, startScript, type RunScript } from "./script.js";
import { createStore, type StoredRun } from "./store.js";
import { writeStream } from "./stream.js";
import { createWebhookSender, type WebhookLog } from "./webhooks.js";

export interface TestServerOptions {
  /** The one organization the server knows (default `org-test`). */
  orgId?: string;
  /** The bearer token it accepts (default `test-token`). */
  token?: string;
  /** What each new run does (default: `echoScript`). */
  script?: RunScript;
  /** Delay between script steps in ms; 0 yields to the event loop (default 0). */
  tickMs?: number;
  /** Keepalive interval on idle streams (default 15 s). */
  keepaliveMs?: number;
  /** `Retry-After` (seconds) sent with the 409 for an idempotent create still in flight (default "1"). */
  inFlightRetryAfter?: string;
  /** Largest page of the event list (default 1000). */
  maxEventsLimit?: number;
  /**
   * Deliver each run's events to its `webhook` URL, signed with this secret (Standard Webhooks).
   * Only loopback URLs are called; others are logged as refused.
   */
  webhookSecret?: string;
}

export interface TestServer {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  readonly orgId: string;
  readonly token: string;
  /** Queues a fault for the next matching request(s). */
  fault(fault: Fault): void;
  /** Removes every queued fault. */
  clearFaults(): void;
  /** The server's current copy of a run (undefined if unknown). */
  run(runId: string): Run | undefined;
  /** How many requests each route has answered (faults included). */
  readonly requests: Record<ServerRoute, number>;
  /** Request headers of the last request to each route. */
  readonly lastHeaders: Partial<Record<ServerRoute, IncomingMessage["headers"]>>;
  /** Webhook deliveries attempted so far (with `webhookSecret`). */
  readonly webhookLog: readonly WebhookLog[];
  /** Resolves once every webhook delivery queued so far for the run has been attempted. */
  webhooksSettled(runId: string): Promise<void>;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly data?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Starts the server on 127.0.0.1, on a free port. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const orgId = options.orgId ?? "org-test";
  const token = options.token ?? "test-token";
  const script = options.script ?? echoScript;
  const tickMs = options.tickMs ?? 0;
  const keepaliveMs = options.keepaliveMs ?? DEFAULTS.keepaliveIntervalMs;
  const maxEventsLimit = options.maxEventsLimit ?? 1000;
  const webhooks = options.webhookSecret === undefined ? undefined : createWebhookSender(options.webhookSecret);
  const store = createStore(orgId, webhooks?.send);
  const faults = createFaultQueue();
  const requests: Record<ServerRoute, number> = { create: 0, get: 0, list: 0, cancel: 0, respond: 0, events: 0, stream: 0 };
  const lastHeaders: TestServer["lastHeaders"] = {};
  let requestCounter = 0;

  const server = createServer((req, res) => {
    const requestId = `req-${++requestCounter}`;
    res.setHeader(REQUEST_ID_HEADER, requestId);
    handle(req, res).catch((error: unknown) => {
      const httpError = error instanceof HttpError ? error : new HttpError(500, `internal error: ${error instanceof Error ? error.message : String(error)}`);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendError(res, httpError);
    });
  });

  function send(res: ServerResponse, data: unknown): void {
    const body = JSON.stringify({ code: 0, message: "ok", data });
    res.writeHead(200, { "content-type": "application/json; charset=utf-8" }).end(body);
  }

  function sendError(res: ServerResponse, error: HttpError): void {
    const body = JSON.stringify({ code: error.status, message: error.message, ...(error.data !== undefined && { data: error.data }) });
    res.writeHead(error.status, { "content-type": "application/json; charset=utf-8", ...error.headers }).end(body);
  }

  function routeOf(method: string, path: string): { route: ServerRoute; params: string[] } | undefined {
    const match = (pattern: RegExp) => pattern.exec(path)?.slice(1).map(decodeURIComponent);
    let params: string[] | undefined;
    if ((params = match(ROUTE_PATTERNS.runs))) return { route: method === "POST" ? "create" : "list", params };
    if ((params = match(ROUTE_PATTERNS.run))) return { route: "get", params };
    if ((params = match(ROUTE_PATTERNS.cancel))) return { route: "cancel", params };
    if ((params = match(ROUTE_PATTERNS.respond))) return { route: "respond", params };
    if ((params = match(ROUTE_PATTERNS.events))) return { route: "events", params };
    if ((params = match(ROUTE_PATTERNS.stream))) return { route: "stream", params };
    return undefined;
  }

  const METHODS: Record<ServerRoute, string> = { create: "POST", list: "GET", get: "GET", cancel: "POST", respond: "POST", events: "GET", stream: "GET" };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const method = req.method ?? "GET";
    const found = routeOf(method, url.pathname);
    if (!found) throw new HttpError(404, `no route for ${method} ${url.pathname}`);
    const { route, params } = found;
    if (METHODS[route] !== method) throw new HttpError(405, `${method} is not allowed on ${url.pathname}`);
    requests[route]++;
    lastHeaders[route] = req.headers;

    const fault = faults.take(route);
    // A create's delay is spent inside create(), while its idempotency key (if any) is in flight.
    if (fault?.delayMs && route !== "create") await sleep(fault.delayMs);
    if (fault?.resetConnection) {
      req.socket.destroy();
      return;
    }
    if (fault?.status !== undefined) {
      const headers: Record<string, string> = fault.retryAfter === undefined ? {} : { "retry-after": fault.retryAfter };
      if (fault.rawBody !== undefined) {
        res.writeHead(fault.status, { "content-type": "text/html", ...headers }).end(fault.rawBody);
        return;
      }
      throw new HttpError(fault.status, `injected fault ${fault.status}`, undefined, headers);
    }

    if (req.headers.authorization !== `Bearer ${token}`) throw new HttpError(401, "missing or invalid bearer token");
    if (params[0] !== orgId) throw new HttpError(403, `this token has no access to organization ${params[0]}`);
    const runId = params[1];

    switch (route) {
      case "create":
        return send(res, await create(await readJson(req), fault));
      case "list":
        return send(res, list(url.searchParams));
      case "get":
        return send(res, find(runId!).run);
      case "cancel":
        return send(res, cancel(find(runId!), await readJson(req)));
      case "respond":
        return send(res, respond(find(runId!), params[2]!, await readJson(req)));
      case "events":
        return send(res, listEvents(find(runId!), url.searchParams));
      case "stream":
        return stream(req, res, find(runId!), url.searchParams, fault);
    }
  }

  function find(runId: string): StoredRun {
    const stored = store.runs.get(runId);
    if (!stored) throw new HttpError(404, `run ${runId} not found`);
    return stored;
  }

  async function create(body: unknown, fault: Fault | undefined): Promise<Run> {
    const result = validateCreateRunCommandResponse(body);
    if (!result.ok) throw new HttpError(400, "invalid CreateRunCommand", { errors: result.errors });
    const command: CreateRunCommand = result.value;
    const key = command.idempotencyKey;
    if (key !== undefined) {
      const canonical = canonicalJson(command);
      const seen = store.idempotency.get(key);
      if (seen) {
        if (seen.body !== canonical) throw new HttpError(422, `idempotencyKey ${key} was used with a different body`);
        if (seen.runId === undefined) {
          throw new HttpError(409, `a create with idempotencyKey ${key} is still in flight`, undefined, { "retry-after": options.inFlightRetryAfter ?? "1" });
        }
        return find(seen.runId).run;
      }
      const entry: { body: string; runId?: string } = { body: canonical };
      store.idempotency.set(key, entry);
      // The create "takes time" while a fault delays it, so a second request sees it in flight.
      if (fault?.delayMs) await sleep(fault.delayMs);
      const stored = store.create(command);
      entry.runId = stored.run.runId;
      startScript(store, stored, script, tickMs);
      return stored.run;
    }
    if (fault?.delayMs) await sleep(fault.delayMs);
    const stored = store.create(command);
    startScript(store, stored, script, tickMs);
    return stored.run;
  }

  function list(query: URLSearchParams) {
    const offset = intParam(query, QUERY.offset, 0, 0);
    const limit = Math.min(intParam(query, QUERY.limit, LIST_LIMITS.defaultLimit, 1), LIST_LIMITS.maxLimit);
    let runs = [...store.runs.values()].sort((a, b) => b.order - a.order).map((s) => s.run);
    for (const filter of RUN_LIST_FILTERS) {
      const value = query.get(filter);
      if (value !== null) runs = runs.filter((run) => run[filter] === value);
    }
    return { total: runs.length, offset, limit, list: runs.slice(offset, offset + limit) };
  }

  function cancel(stored: StoredRun, body: unknown): Run {
    const { run } = stored;
    // The cancel command is closed like every command (§4.1): nothing, {} or {expectedVersion}.
    const fields = body === undefined ? {} : body;
    if (typeof fields !== "object" || fields === null || Array.isArray(fields) || Object.keys(fields).some((key) => key !== "expectedVersion")) {
      throw new HttpError(400, "invalid cancel command: the body must be {} or {expectedVersion}");
    }
    const expected = (fields as { expectedVersion?: unknown }).expectedVersion;
    if (expected !== undefined && !(Number.isInteger(expected) && (expected as number) >= 0)) {
      throw new HttpError(400, `invalid cancel command: expectedVersion must be an integer ≥ 0, got ${JSON.stringify(expected)}`);
    }
    if (expected !== undefined && expected !== run.version) throw new HttpError(409, `version mismatch: expected ${String(expected)}, run is at ${run.version}`);
    if (run.status !== undefined && CANCELED_STATUSES.includes(run.status)) return run;
    if (isTerminalRun(run)) throw new HttpError(409, `run ${run.runId} is ${run.status} and cannot be cancelled`);
    stored.abort.abort(new Error("cancelled"));
    store.setStatus(stored, "canceled", { statusMessage: "cancelled by request" });
    return run;
  }

  function respond(stored: StoredRun, interactionId: string, body: unknown): Run {
    const interaction = stored.interactions.get(interactionId);
    if (!interaction) throw new HttpError(404, `interaction ${interactionId} not found on run ${stored.run.runId}`);
    const result = validateRespondToInteractionCommandResponse(body);
    if (!result.ok) throw new HttpError(400, "invalid RespondToInteractionCommand", { errors: result.errors });
    if (!interaction.open) throw new HttpError(409, `interaction ${interactionId} is not open`);
    const response: RespondToInteractionCommand = result.value;
    interaction.open = false;
    interaction.response = response;
    stored.run.openInteractionCount = Math.max(0, (stored.run.openInteractionCount ?? 1) - 1);
    store.emit(stored, { type: "interaction.responded", interactionId, payload: response });
    store.setStatus(stored, "running");
    interaction.answer?.(response);
    return stored.run;
  }

  function listEvents(stored: StoredRun, query: URLSearchParams) {
    const offset = intParam(query, QUERY.offset, 0, 0);
    const limit = Math.min(intParam(query, QUERY.limit, DEFAULTS.eventsPageLimit, 1), maxEventsLimit);
    return { total: stored.events.length, offset, limit, list: stored.events.slice(offset, offset + limit) };
  }

  function stream(req: IncomingMessage, res: ServerResponse, stored: StoredRun, query: URLSearchParams, fault: Fault | undefined): void {
    const transport = transportOf(req, query);
    const fromQuery = intParam(query, QUERY.cursor, 0, 0);
    const lastEventId = req.headers["last-event-id"];
    const fromHeader = typeof lastEventId === "string" && /^\d+$/.test(lastEventId.trim()) ? Number(lastEventId.trim()) : 0;
    const threadId = query.get(QUERY.threadId) ?? undefined;
    writeStream(req, res, { stored, transport, cursor: Math.max(fromQuery, fromHeader), threadId, keepaliveMs, fault });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    orgId,
    token,
    fault: (f) => faults.add(f),
    clearFaults: () => faults.clear(),
    run: (id) => store.runs.get(id)?.run,
    requests,
    lastHeaders,
    webhookLog: webhooks?.log ?? [],
    webhooksSettled: async (id) => {
      const stored = store.runs.get(id);
      if (stored && webhooks) await webhooks.settled(stored);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const stored of store.runs.values()) stored.abort.abort(new Error("server closed"));
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function transportOf(req: IncomingMessage, query: URLSearchParams): StreamTransport {
  const forced = query.get(QUERY.transport);
  if (forced !== null) {
    if (forced === "sse" || forced === "ndjson") return forced;
    throw new HttpError(400, `transport ${JSON.stringify(forced)} is not supported (sse or ndjson)`);
  }
  const accept = req.headers.accept ?? "";
  return accept.includes("application/x-ndjson") && !accept.includes("text/event-stream") ? "ndjson" : "sse";
}

function intParam(query: URLSearchParams, name: string, fallback: number, min: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new HttpError(400, `query parameter ${name} must be an integer ≥ ${min}, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `request body is not JSON: ${(error as Error).message}`);
  }
}

/** JSON with object keys sorted, so equal bodies compare equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
