/**
 * The resumable run stream (protocol notes §5.3): each event exactly once and in order, across any
 * number of dropped connections. It reconnects from the last delivered sequence, skips keepalives,
 * fills a gap before the terminal frame from the event list, and never cancels the run.
 */
import type { Run, RunStreamTerminal, SequencedOutputEnvelope } from "../generated/index.js";
import { DEFAULTS, isTerminalRun, QUERY, ROUTES, STREAM_CONTENT_TYPES, type StreamTransport } from "../routes.js";
import { ApiError, StreamFrameError, StreamProtocolError, type FramePosition } from "./errors.js";
import { authHeaders, buildUrl, isRetryableError, readBody, retryDelay, unwrap, type HttpConfig } from "./http.js";
import { checkCount, checkInteger, checkMs } from "./options.js";
import { createFrameDecoder, type Frame } from "./frames.js";
import { byteLimit, fetchFollowingRedirects, RedirectError, ResponseTooLargeError, startTimer, untilAborted } from "@flowspec/runtime";
import { backoffDelay } from "./retry.js";

export interface UnknownFrame {
  raw: string;
  /** The SSE event name, when there was one. */
  event: string | undefined;
  position: FramePosition;
}

export interface StreamOptions {
  /** Deliver events after this sequence (default 0: from the start). */
  afterSequence?: number;
  /** Only events of this thread; gap checks are off for a filtered stream. */
  threadId?: string;
  /** `sse` (default) or `ndjson`; the parser is picked from the answer's Content-Type. */
  transport?: StreamTransport;
  /** Aborting closes the connection at once (the run is not cancelled). */
  signal?: AbortSignal;
  /** Reconnect when nothing (not even a keepalive) arrives for this long (default 45 s; 0 or Infinity for none). */
  idleTimeoutMs?: number;
  /**
   * The largest frame read, in bytes (default 16 MiB): an SSE block with its blank line, or an NDJSON
   * line. A larger one ends the stream with StreamEventTooLargeError as soon as that much has arrived.
   */
  maxEventBytes?: number;
  /** Consecutive failed connections before giving up with StreamProtocolError (default 10). */
  maxReconnects?: number;
  /** Called for a frame of no known kind, which is skipped (default: a console warning). */
  onUnknownFrame?: (frame: UnknownFrame) => void;
  /** Called before each reconnect, with why the connection ended. */
  onReconnect?: (info: { attempt: number; lastSequence: number; reason: string }) => void;
}

/** An async iterable of the run's events; `terminal` is set once iteration has reached the end. */
export interface RunStream extends AsyncIterable<SequencedOutputEnvelope> {
  readonly terminal: RunStreamTerminal | undefined;
  /** The sequence of the last event delivered (or skipped by a thread filter). */
  readonly lastSequence: number;
  /** How many times the stream reconnected. */
  readonly reconnects: number;
}

export interface StreamDeps {
  config: HttpConfig;
  streamBaseUrl: string;
  get(runId: string, signal: AbortSignal | undefined): Promise<Run>;
  listEvents(runId: string, afterSequence: number, signal: AbortSignal | undefined): Promise<SequencedOutputEnvelope[]>;
}

interface State {
  terminal: RunStreamTerminal | undefined;
  /** The last sequence received (the reconnect cursor). */
  last: number;
  /** The last sequence handed to the caller. */
  delivered: number;
  reconnects: number;
}

/** A connection that ended without the terminal frame; the stream reconnects. */
class Dropped {
  constructor(
    readonly reason: string,
    readonly error?: unknown,
  ) {}
}

const warnUnknown = (frame: UnknownFrame) =>
  console.warn(
    `@flowspec/agent-service: skipped a stream frame of unknown kind${frame.event ? ` (event ${frame.event})` : ""} at line ${frame.position.line}, byte ${frame.position.byteOffset}`,
  );

export function openRunStream(deps: StreamDeps, runId: string, options: StreamOptions = {}): RunStream {
  checkMs("idleTimeoutMs", options.idleTimeoutMs);
  checkCount("maxReconnects", options.maxReconnects);
  checkInteger("afterSequence", options.afterSequence, 0);
  byteLimit("maxEventBytes", options.maxEventBytes);
  const start = options.afterSequence ?? 0;
  const state: State = { terminal: undefined, last: start, delivered: start, reconnects: 0 };
  let iterated = false;
  return {
    get terminal() {
      return state.terminal;
    },
    get lastSequence() {
      return state.delivered;
    },
    get reconnects() {
      return state.reconnects;
    },
    [Symbol.asyncIterator]() {
      if (iterated) throw new Error("a RunStream can be iterated only once; call stream() again to resume from lastSequence");
      iterated = true;
      return flatten(iterate(deps, runId, options, state), state, options.signal);
    },
  };
}

/**
 * Hands out the envelopes of each batch one by one. Envelopes are received a chunk at a time, and
 * resolving an already-buffered one is much cheaper than resuming a generator per event. Once the
 * signal aborts, nothing more is handed out, not even what is already buffered.
 */
function flatten(batches: AsyncGenerator<SequencedOutputEnvelope[]>, state: State, signal: AbortSignal | undefined): AsyncIterableIterator<SequencedOutputEnvelope> {
  let buffer: SequencedOutputEnvelope[] = [];
  let index = 0;
  const pull = async (): Promise<IteratorResult<SequencedOutputEnvelope>> => {
    if (signal?.aborted) {
      // The generator may be paused where resuming it would finish normally (after the terminal frame).
      buffer = [];
      await batches.return(undefined);
      throw signal.reason;
    }
    for (;;) {
      const next = await batches.next();
      if (next.done) {
        state.delivered = state.last;
        return { done: true, value: undefined };
      }
      buffer = next.value;
      index = 0;
      if (buffer.length > 0) {
        const envelope = buffer[index++]!;
        state.delivered = envelope.sequence;
        return { done: false, value: envelope };
      }
    }
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next() {
      if (index < buffer.length && !signal?.aborted) {
        const envelope = buffer[index++]!;
        state.delivered = envelope.sequence;
        return Promise.resolve({ done: false, value: envelope });
      }
      return pull();
    },
    async return() {
      buffer = [];
      await batches.return(undefined);
      return { done: true, value: undefined };
    },
  };
}

/** The stream's envelopes, a batch per chunk read; reconnects from `state.last` after a drop. */
async function* iterate(deps: StreamDeps, runId: string, options: StreamOptions, state: State): AsyncGenerator<SequencedOutputEnvelope[]> {
  const { config } = deps;
  const signal = options.signal;
  const filtered = options.threadId !== undefined;
  // 0 means no idle timeout, as timeoutMs 0 means no timeout (not "idle at once").
  const idleTimeoutMs = options.idleTimeoutMs === 0 ? Infinity : (options.idleTimeoutMs ?? DEFAULTS.streamIdleTimeoutMs);
  const maxReconnects = options.maxReconnects ?? DEFAULTS.maxReconnects;
  const onUnknownFrame = options.onUnknownFrame ?? warnUnknown;
  const transport = options.transport ?? "sse";
  const tally: Tally = { failures: 0, sseRetryMs: undefined, gapAt: undefined };

  for (;;) {
    if (signal?.aborted) throw signal.reason;
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal!.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    let lastActivity = Date.now();
    let idled = false;
    let consumerHasIt = false; // while the caller holds a batch, silence is not the server's

    let stopIdle = () => {};
    const watchIdle = (ms: number) => {
      stopIdle = startTimer(() => {
        const quiet = Date.now() - lastActivity;
        if (consumerHasIt) watchIdle(idleTimeoutMs);
        else if (quiet >= idleTimeoutMs) {
          idled = true;
          controller.abort();
        } else watchIdle(idleTimeoutMs - quiet);
      }, ms);
    };
    watchIdle(idleTimeoutMs);
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    let outcome: Dropped | undefined;
    try {
      // Connect.
      // A token() that hangs must not outlive the idle timeout or the caller's abort.
      const auth = await untilAborted(authHeaders(config), controller.signal).catch((error: unknown) => {
        if (signal?.aborted) throw signal.reason;
        if (idled) throw new Dropped("idle timeout while getting the token", error);
        throw error;
      });
      const headers: Record<string, string> = { ...auth, accept: STREAM_CONTENT_TYPES[transport] };
      if (transport === "sse" && state.last > 0) headers["last-event-id"] = String(state.last);
      const url = buildUrl(deps.streamBaseUrl, ROUTES.stream(config.orgId, runId), {
        [QUERY.cursor]: state.last,
        [QUERY.threadId]: options.threadId,
        [QUERY.transport]: options.transport,
      });
      let response: Response;
      try {
        const redirects = { stream: true, allowCrossOrigin: config.allowCrossOriginRedirects };
        response = await fetchFollowingRedirects(config.fetch, url, { method: "GET", headers, signal: controller.signal }, redirects);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (error instanceof RedirectError) throw error;
        throw new Dropped(idled ? "idle timeout while connecting" : "connection failed", error);
      }
      // An error body too large to read is an error of its own; one cut off by the connection is read as empty.
      const bodyText = () => readBody(config, response, `GET ${url}`).catch((error: unknown) => (error instanceof ResponseTooLargeError ? Promise.reject(error) : ""));
      if (!response.ok) {
        const text = await bodyText();
        try {
          unwrap(response, text, { typeName: "stream", validate: () => ({ ok: true, value: undefined }) });
        } catch (error) {
          if (isRetryableError(error)) throw new Dropped(`HTTP ${response.status}`, error);
          throw error;
        }
      }
      const contentType = response.headers.get("content-type") ?? "";
      const bodyTransport: StreamTransport | undefined = contentType.includes(STREAM_CONTENT_TYPES.sse)
        ? "sse"
        : contentType.includes(STREAM_CONTENT_TYPES.ndjson)
          ? "ndjson"
          : undefined;
      if (!bodyTransport && contentType.includes("application/json")) {
        // A `{code, message}` envelope instead of a stream: a non-zero code is the server's error (§4.4).
        unwrap(response, await bodyText(), { typeName: "stream", validate: () => ({ ok: true, value: undefined }) });
      }
      if (!bodyTransport || !response.body) {
        throw new StreamProtocolError(`the stream answered with Content-Type ${JSON.stringify(contentType)}, not SSE or NDJSON`);
      }
      const decoder = createFrameDecoder(bodyTransport, options.maxEventBytes);
      const bodyReader = (reader = response.body.getReader());

      // Read frames.
      for (;;) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await readOrAbort(bodyReader, controller.signal);
        } catch (error) {
          if (signal?.aborted) throw signal.reason;
          throw new Dropped(idled ? `idle for ${idleTimeoutMs} ms` : "connection lost", error);
        }
        if (chunk.done) throw new Dropped("the body ended without the terminal frame");
        lastActivity = Date.now();
        const { batch, stop, terminal } = takeFrames(decoder.push(chunk.value), runId, filtered, state, tally, onUnknownFrame);
        // What arrived before a bad frame, a gap or the end is delivered first.
        if (batch.length > 0) {
          consumerHasIt = true;
          yield batch;
          consumerHasIt = false;
          lastActivity = Date.now();
        }
        if (stop !== undefined) throw stop;
        if (terminal) {
          controller.abort(); // nothing more to read from this connection
          if (terminal.lastSequence > state.last) yield* fillFromEventList(deps, runId, options.threadId, state, terminal.lastSequence, signal);
          state.terminal = terminal;
          return;
        }
      }
    } catch (error) {
      if (!(error instanceof Dropped)) throw error;
      outcome = error;
    } finally {
      stopIdle();
      signal?.removeEventListener("abort", onAbort);
      controller.abort();
      reader?.cancel().catch(() => undefined);
    }

    // The connection dropped: finish if the run has ended and nothing is missing, else reconnect.
    const failures = ++tally.failures;
    if (failures > maxReconnects) {
      throw new StreamProtocolError(`gave up on the stream of run ${runId} after ${maxReconnects} reconnects: ${outcome.reason}`, {
        reconnects: state.reconnects,
        cause: outcome.error,
      });
    }
    const run = await deps.get(runId, signal).catch((error: unknown) => {
      if (signal?.aborted) throw signal.reason;
      if (isRetryableError(error)) return undefined;
      throw error;
    });
    if (run && isTerminalRun(run) && run.eventSequence <= state.last) {
      state.terminal = { type: "end", runId, status: run.status, lastSequence: run.eventSequence, reason: "stream dropped after the run ended" };
      return;
    }
    state.reconnects++;
    options.onReconnect?.({ attempt: failures, lastSequence: state.last, reason: outcome.reason });
    const delay =
      outcome.error instanceof ApiError && outcome.error.retryAfterMs !== undefined
        ? retryDelay(outcome.error, failures - 1, config.retry)
        : tally.sseRetryMs !== undefined
          ? Math.min(tally.sseRetryMs, config.retry.maxRetryAfterMs)
          : backoffDelay(failures - 1, config.retry);
    await config.retry.sleep(delay, signal);
  }
}

/**
 * The next chunk, or the signal's reason once it aborts: some fetch bodies never settle a read
 * started after their request was aborted, so a read is never waited on alone. Each read has its
 * own listener, removed when the read settles. (Racing every read against one promise for the
 * whole connection kept each chunk reachable from that promise until the connection ended: memory
 * grew with everything the stream had delivered.)
 */
function readOrAbort(reader: ReadableStreamDefaultReader<Uint8Array>, signal: AbortSignal): ReturnType<typeof reader.read> {
  return untilAborted(reader.read(), signal);
}

/** What the stream keeps across connections besides `State`. */
interface Tally {
  /** Consecutive failed connections; an arriving envelope resets it. */
  failures: number;
  /** The server's SSE `retry:` advice. */
  sseRetryMs: number | undefined;
  /** `last` when a gap was seen; a second gap there is fatal. */
  gapAt: number | undefined;
}

interface Taken {
  /** The envelopes to deliver, in order. */
  batch: SequencedOutputEnvelope[];
  /** Why reading stops after the batch (an error, or a Dropped connection), if it does. */
  stop: unknown;
  terminal: RunStreamTerminal | undefined;
}

/**
 * Sorts the frames of one chunk: envelopes past `state.last` go into the batch (advancing it),
 * keepalives are skipped, and a bad frame, a gap or the terminal frame ends the batch. Kept out of
 * the connection loop so that this hot part is small and optimized on its own.
 */
function takeFrames(frames: Frame[], runId: string, filtered: boolean, state: State, tally: Tally, onUnknownFrame: (frame: UnknownFrame) => void): Taken {
  const batch: SequencedOutputEnvelope[] = [];
  for (const frame of frames) {
    if (frame.kind === "envelope") {
      const envelope = frame.envelope;
      if (envelope.runId !== runId) {
        return { batch, stop: new StreamFrameError(frame.position, `envelope of run ${envelope.runId} on the stream of run ${runId}`, JSON.stringify(envelope)), terminal: undefined };
      }
      if (envelope.sequence <= state.last) continue;
      if (!filtered && envelope.sequence > state.last + 1) {
        if (tally.gapAt === state.last) {
          const stop = new StreamProtocolError(`gap in the stream of run ${runId}: expected sequence ${state.last + 1}, received ${envelope.sequence} (after reconnecting)`, {
            expectedSequence: state.last + 1,
            receivedSequence: envelope.sequence,
          });
          return { batch, stop, terminal: undefined };
        }
        tally.gapAt = state.last;
        return { batch, stop: new Dropped(`gap: expected sequence ${state.last + 1}, received ${envelope.sequence}`), terminal: undefined };
      }
      state.last = envelope.sequence;
      tally.failures = 0;
      tally.gapAt = undefined;
      batch.push(envelope);
    } else if (frame.kind === "keepalive") {
      continue;
    } else if (frame.kind === "retry") {
      tally.sseRetryMs = frame.ms;
    } else if (frame.kind === "unknown") {
      onUnknownFrame({ raw: frame.raw, event: frame.event, position: frame.position });
    } else if (frame.kind === "error") {
      return { batch, stop: frame.error, terminal: undefined };
    } else if (frame.terminal.runId !== runId) {
      const stop = new StreamFrameError(frame.position, `terminal frame of run ${frame.terminal.runId} on the stream of run ${runId}`, JSON.stringify(frame.terminal));
      return { batch, stop, terminal: undefined };
    } else {
      return { batch, stop: undefined, terminal: frame.terminal };
    }
  }
  return { batch, stop: undefined, terminal: undefined };
}

/** Yields the events between the last delivered one and the terminal frame's `lastSequence`, from the event list. */
async function* fillFromEventList(
  deps: StreamDeps,
  runId: string,
  threadId: string | undefined,
  state: State,
  lastSequence: number,
  signal: AbortSignal | undefined,
): AsyncGenerator<SequencedOutputEnvelope[]> {
  while (state.last < lastSequence) {
    const page = await deps.listEvents(runId, state.last, signal);
    const before = state.last;
    const batch: SequencedOutputEnvelope[] = [];
    for (const envelope of page) {
      if (envelope.sequence <= state.last) continue;
      if (envelope.sequence !== state.last + 1) {
        throw new StreamProtocolError(`gap in the event list of run ${runId}: expected sequence ${state.last + 1}, received ${envelope.sequence}`, {
          expectedSequence: state.last + 1,
          receivedSequence: envelope.sequence,
        });
      }
      state.last = envelope.sequence;
      if (threadId === undefined || envelope.threadId === threadId) batch.push(envelope);
      if (state.last >= lastSequence) break;
    }
    if (batch.length > 0) yield batch;
    if (state.last === before) {
      throw new StreamProtocolError(`the terminal frame of run ${runId} says ${lastSequence} events, but the event list ends at ${state.last}`, {
        expectedSequence: state.last + 1,
      });
    }
  }
}
