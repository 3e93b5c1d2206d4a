/**
 * RunsClient: the thin HTTP client for Agent Service runs (protocol notes §4.2–§5.3). Every answer
 * is validated with the `response` variant, so unknown values of provisional enums pass; every
 * request body is validated before sending.
 */
import type { ValidationResult } from "@flowspec/runtime";
import type {
  CreateRunCommand,
  RespondToInteractionCommand,
  Run,
  SequencedOutputEnvelope,
  TaskResourceType,
  TaskStatus,
} from "../generated/index.js";
import { DEFAULTS, isTerminalRun, LIST_LIMITS, QUERY, ROUTES, RUN_LIST_FILTERS } from "../routes.js";
import {
  validateCreateRunCommand,
  validateCreateRunCommandResponse,
  validateRespondToInteractionCommandResponse,
  validateRunResponse,
  validateSequencedOutputEnvelopeResponse,
  type CreateRunCommandOf,
  type RunOf,
} from "../validate.js";
import { ValidationError, WaitTimeoutError } from "./errors.js";
import { request, type FetchLike, type HttpConfig, type Query } from "./http.js";
import { byteLimit, startTimer } from "@flowspec/runtime";
import { checkInteger, checkMs } from "./options.js";
import { backoffDelay, resolveRetry, type RetryOptions } from "./retry.js";
import { openRunStream, type RunStream, type StreamOptions } from "./stream.js";

export interface RunsClientOptions {
  /** Base URL of the control plane (and of the others unless set). */
  baseUrl: string;
  /** Base URL of the read plane (get, list, events); default `baseUrl`. */
  readBaseUrl?: string;
  /** Base URL of the run stream; default `readBaseUrl`, then `baseUrl`. */
  streamBaseUrl?: string;
  /** The organization every route is scoped to. */
  orgId: string;
  /** Bearer token, or a function returning one (called per request). */
  token: string | (() => string | Promise<string>);
  /** Per-request timeout (default 60 s); streams use `idleTimeoutMs` instead. */
  timeoutMs?: number;
  /** Retries of idempotent calls: count, backoff, and the sleep/random used (injectable). */
  retry?: RetryOptions;
  /** A fetch implementation (default: the global fetch). */
  fetch?: FetchLike;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** The largest response body read, in bytes (default 16 MiB); a larger one fails with ResponseTooLargeError. */
  maxResponseBytes?: number;
  /**
   * Follow a redirect to another origin for a POST or the run stream (default false: a RedirectError).
   * GETs follow one either way; every header but the defaults (`authorization`, `headers`) is dropped on the way.
   */
  allowCrossOriginRedirects?: boolean;
  /** Validate create bodies with the `strict` variant (default `response`, whose enums are open). */
  strictRequests?: boolean;
}

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export type RunListFilters = {
  status?: TaskStatus;
  resourceType?: TaskResourceType;
  resourceId?: string;
  threadId?: string;
  contextId?: string;
};

export interface RunPage {
  total: number;
  offset: number;
  limit: number;
  list: Run[];
}

export interface EventPage {
  total: number;
  offset: number;
  limit: number;
  list: SequencedOutputEnvelope[];
}

function pageValidator<T>(validateItem: (v: unknown) => ValidationResult<T>, typeName: string) {
  return (value: unknown): ValidationResult<{ total: number; offset: number; limit: number; list: T[] }> => {
    const page = value as { total?: unknown; offset?: unknown; limit?: unknown; list?: unknown } | null;
    const errors = [];
    if (typeof page !== "object" || page === null) return { ok: false, errors: [{ path: "", message: "must be a page {total, offset, limit, list}", keyword: "type", params: {} }] };
    for (const key of ["total", "offset", "limit"] as const) {
      if (!Number.isInteger(page[key]) || (page[key] as number) < 0) errors.push({ path: `/${key}`, message: "must be an integer ≥ 0", keyword: "type", params: {} });
    }
    if (!Array.isArray(page.list)) errors.push({ path: "/list", message: "must be an array", keyword: "type", params: {} });
    else
      page.list.forEach((item, i) => {
        const result = validateItem(item);
        if (!result.ok) for (const e of result.errors) errors.push({ ...e, path: `/list/${i}${e.path}`, message: `${e.message} (${typeName})` });
      });
    return errors.length > 0 ? { ok: false, errors } : { ok: true, value: page as never };
  };
}
// Pure: a bundle that imports the package but not RunsClient drops both and their validators.
const validateRunPage = /* @__PURE__ */ pageValidator(validateRunResponse, "Run");
const validateEventPage = /* @__PURE__ */ pageValidator(validateSequencedOutputEnvelopeResponse, "SequencedOutputEnvelope");

export class RunsClient {
  readonly #config: HttpConfig;
  readonly #controlUrl: string;
  readonly #readUrl: string;
  readonly #streamUrl: string;
  readonly #strictRequests: boolean;

  constructor(options: RunsClientOptions) {
    const fetchImpl = options.fetch ?? (globalThis.fetch?.bind(globalThis) as FetchLike | undefined);
    if (!fetchImpl) throw new Error("RunsClient needs fetch: pass options.fetch where there is no global fetch");
    for (const key of ["baseUrl", "orgId"] as const) {
      if (typeof options[key] !== "string" || options[key] === "") throw new TypeError(`RunsClient: options.${key} is required`);
    }
    this.#config = {
      orgId: options.orgId,
      token: options.token,
      fetch: fetchImpl,
      timeoutMs: checkMs("timeoutMs", options.timeoutMs) ?? DEFAULTS.timeoutMs,
      retry: resolveRetry(options.retry),
      headers: options.headers ?? {},
      maxResponseBytes: byteLimit("maxResponseBytes", options.maxResponseBytes),
      allowCrossOriginRedirects: options.allowCrossOriginRedirects ?? false,
    };
    // Routes are appended to these, so a trailing slash would make `//v1/…`, which no route matches.
    const base = (url: string) => url.replace(/\/+$/, "");
    this.#controlUrl = base(options.baseUrl);
    this.#readUrl = base(options.readBaseUrl ?? options.baseUrl);
    this.#streamUrl = base(options.streamBaseUrl ?? this.#readUrl);
    this.#strictRequests = options.strictRequests ?? false;
  }

  get orgId(): string {
    return this.#config.orgId;
  }

  /**
   * Creates a run. The body is validated first (ValidationError lists every problem). With an
   * `idempotencyKey` the call is retried like an idempotent one, and repeating it returns the same run.
   */
  // One overload only: a body typed as plain CreateRunCommand matches it (R is then every type), and
  // a second `(body: CreateRunCommand)` overload let a literal whose input mode differs from its
  // resourceType typecheck.
  async create<R extends TaskResourceType>(body: CreateRunCommandOf<R>, options?: CallOptions): Promise<RunOf<R>>;
  async create(body: CreateRunCommand, options: CallOptions = {}): Promise<Run> {
    const check = (this.#strictRequests ? validateCreateRunCommand : validateCreateRunCommandResponse)(body);
    if (!check.ok) throw new ValidationError("CreateRunCommand", check.errors);
    return request(this.#config, {
      method: "POST",
      url: this.#controlUrl + ROUTES.runs(this.orgId),
      body,
      retryable: body.idempotencyKey !== undefined,
      typeName: "Run",
      validate: validateRunResponse,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
  }

  /** Reads one run. */
  get(runId: string, options: CallOptions = {}): Promise<Run> {
    return request(this.#config, {
      method: "GET",
      url: this.#readUrl + ROUTES.run(this.orgId, runId),
      retryable: true,
      typeName: "Run",
      validate: validateRunResponse,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
  }

  /** One page of runs, newest first. */
  listPage(filters: RunListFilters & { offset?: number; limit?: number } = {}, options: CallOptions = {}): Promise<RunPage> {
    const query: Query = { [QUERY.offset]: filters.offset, [QUERY.limit]: filters.limit };
    for (const name of RUN_LIST_FILTERS) query[name] = filters[name];
    return request(this.#config, {
      method: "GET",
      url: this.#readUrl + ROUTES.runs(this.orgId),
      query,
      retryable: true,
      typeName: "RunPage",
      validate: validateRunPage,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
  }

  /**
   * Every run matching the filters, page by page. Stops on an empty page or once
   * `offset + list.length ≥ total`; a run seen on an earlier page (pages shift while runs are
   * created) is not yielded twice.
   */
  async *list(filters: RunListFilters & { pageSize?: number } = {}, options: CallOptions = {}): AsyncGenerator<Run> {
    const { pageSize = LIST_LIMITS.defaultLimit, ...rest } = filters;
    // Before the first page: a limit of 0 would be an empty page, which ends the listing silently.
    checkInteger("pageSize", pageSize, 1);
    const seen = new Set<string>();
    for (let offset = 0; ; ) {
      const page = await this.listPage({ ...rest, offset, limit: pageSize }, options);
      for (const run of page.list) {
        if (seen.has(run.runId)) continue;
        seen.add(run.runId);
        yield run;
      }
      // Advanced from the offset asked for, not the one echoed: a server that echoes a wrong
      // offset (say 0 every time) would otherwise be asked for the same page forever.
      offset += page.list.length;
      if (page.list.length === 0 || offset >= page.total) return;
    }
  }

  /** Cancels a run (never needed to stop a stream). Cancelling a cancelled run returns it unchanged. */
  cancel(runId: string, body: { expectedVersion?: number } = {}, options: CallOptions = {}): Promise<Run> {
    return request(this.#config, {
      method: "POST",
      url: this.#controlUrl + ROUTES.cancel(this.orgId, runId),
      body,
      retryable: true,
      typeName: "Run",
      validate: validateRunResponse,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
  }

  /** Answers an open interaction; the run leaves `blocked`. Not retried (a repeat would get 409). */
  async respondToInteraction(runId: string, interactionId: string, body: RespondToInteractionCommand, options: CallOptions = {}): Promise<Run> {
    const check = validateRespondToInteractionCommandResponse(body);
    if (!check.ok) throw new ValidationError("RespondToInteractionCommand", check.errors);
    return request(this.#config, {
      method: "POST",
      url: this.#controlUrl + ROUTES.respond(this.orgId, runId, interactionId),
      body,
      retryable: false,
      typeName: "Run",
      validate: validateRunResponse,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
  }

  /** One page of a run's events after `afterSequence` (default 0), by ascending sequence. */
  async listEvents(runId: string, page: { afterSequence?: number; limit?: number } = {}, options: CallOptions = {}): Promise<EventPage> {
    checkInteger("afterSequence", page.afterSequence, 0);
    return request(this.#config, {
      method: "GET",
      url: this.#readUrl + ROUTES.events(this.orgId, runId),
      query: { [QUERY.offset]: page.afterSequence ?? 0, [QUERY.limit]: page.limit },
      retryable: true,
      typeName: "EventPage",
      validate: validateEventPage,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
  }

  /**
   * The run's events as an async iterable, resuming on its own after dropped connections: each
   * event once, in order, up to the terminal frame (then `stream.terminal` is set). `break` or an
   * aborted signal closes the connection; neither cancels the run.
   */
  stream(runId: string, options: StreamOptions = {}): RunStream {
    return openRunStream(
      {
        config: this.#config,
        streamBaseUrl: this.#streamUrl,
        get: (id, signal) => this.get(id, signal ? { signal } : {}),
        listEvents: async (id, afterSequence, signal) =>
          (await this.listEvents(id, { afterSequence, limit: DEFAULTS.eventsPageLimit }, signal ? { signal } : {})).list,
      },
      runId,
      options,
    );
  }

  /**
   * Resolves with the run once it is terminal (a blocked run keeps it waiting). Throws
   * WaitTimeoutError after `timeoutMs` without cancelling the run.
   */
  async waitForCompletion(runId: string, options: { timeoutMs?: number; signal?: AbortSignal; stream?: Omit<StreamOptions, "signal" | "afterSequence"> } = {}): Promise<Run> {
    checkMs("timeoutMs", options.timeoutMs);
    const controller = new AbortController();
    const onAbort = () => controller.abort(options.signal!.reason);
    if (options.signal?.aborted) throw options.signal.reason;
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const timeout = new Error("wait timeout");
    const stopTimer = options.timeoutMs === undefined || options.timeoutMs === 0 ? undefined : startTimer(() => controller.abort(timeout), options.timeoutMs);
    try {
      let run = await this.get(runId, { signal: controller.signal });
      // The stream can end while the run goes on (an end frame with a non-terminal status, e.g. a
      // server's limit on stream length), and the read plane can lag behind the stream's end: until
      // `get` shows the run terminal, stream again from where the last stream stopped, backing off.
      // Only rounds that brought no new event back off; a stream that made progress (a server
      // capping stream length) is followed at once, and the back-off starts over.
      let streamed = 0;
      for (let idleRounds = -1; !isTerminalRun(run); ) {
        if (idleRounds >= 0) await this.#config.retry.sleep(backoffDelay(idleRounds, this.#config.retry), controller.signal);
        const from = Math.max(run.eventSequence, streamed);
        const events = this.stream(runId, { ...options.stream, afterSequence: from, signal: controller.signal });
        for await (const _ of events) {
          // drain to the terminal frame
        }
        streamed = events.lastSequence;
        idleRounds = streamed > from ? -1 : idleRounds + 1;
        run = await this.get(runId, { signal: controller.signal });
      }
      return run;
    } catch (error) {
      if (controller.signal.aborted && controller.signal.reason === timeout) throw new WaitTimeoutError(runId, options.timeoutMs!);
      throw error;
    } finally {
      stopTimer?.();
      options.signal?.removeEventListener("abort", onAbort);
    }
  }
}
