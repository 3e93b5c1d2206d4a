import { isThenable } from "../thenable.js";
import { startTimer } from "../timer.js";
import type { ValidationIssue } from "../validation.js";
import { ErrorCode, JsonRpcError, JsonRpcTransportError } from "./errors.js";
import { classifyMessage, isId, type JsonRpcMessage, type JsonRpcRequest, type JsonRpcResponse, type RequestId } from "./messages.js";
import { isErrorInstance } from "../error-brand.js";
import { parseJsonKeepingFloats } from "../json-numbers.js";

/** What a request handler gets besides the params: how to call back to the side that asked. */
export interface RequestContext {
  id: RequestId;
  method: string;
  /** Aborted when the connection closes. */
  signal: AbortSignal;
  /** Sends a request to the other side over the channel this request came in on. */
  request<R = unknown>(method: string, params: unknown, options?: CallOptions): Promise<R>;
}

export type RequestHandler = (params: unknown, context: RequestContext) => unknown;

export interface CallOptions {
  signal?: AbortSignal;
  /** Fails the call after this many ms without an answer. Off by default; 0 or Infinity is none. */
  timeoutMs?: number;
}

export interface PeerOptions {
  /** Writes one message to the other side. */
  send(message: JsonRpcMessage): void | Promise<void>;
  /** Handlers of the requests the other side may send, by method; any other method gets -32601. */
  handlers?: Record<string, RequestHandler>;
  onNotification?(method: string, params: unknown): void;
  /** Checks the params of an incoming request or notification; issues answer -32602. */
  validateParams?(method: string, params: unknown): readonly ValidationIssue[] | undefined;
  /** Checks the result of an outgoing request; issues reject the call. */
  validateResult?(method: string, result: unknown): readonly ValidationIssue[] | undefined;
  /**
   * What a call resolves with, from its valid result (default: the result). Picking a member here
   * costs a call where `.then` on each call's promise costs a promise and a microtask; what it
   * throws rejects the call.
   */
  resolveWith?(method: string, result: unknown): unknown;
  /** Things that went wrong without a caller to tell: a bad incoming message, a late response. */
  onError?(error: Error): void;
  /** Request ids for outgoing calls (default: random UUID strings). */
  nextId?(): RequestId;
  /**
   * Read an integral number written as a float (`171.0`) as a `JsonFloat`, so that it is written back
   * as `171.0` (serde_json's integer/float distinction). Messages are written with `stringifyJson`
   * either way. Off by default: incoming values hold plain numbers.
   */
  keepFloats?: boolean;
}

/** The other side's answer was an error or did not match the method's result schema. */
export class JsonRpcResultError extends Error {
  static readonly "~brand": string = "@flowspec/runtime:JsonRpcResultError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "JsonRpcResultError";
  constructor(
    readonly method: string,
    readonly issues: readonly ValidationIssue[],
  ) {
    super(`invalid result for ${method}: ${formatIssues(issues)}`);
  }
}

/** The start of a message, for an error that quotes it. */
const excerpt = (value: unknown): string => {
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, 200);
  } catch {
    return String(value).slice(0, 200);
  }
};

const cannotSend = (method: string, error: unknown) => new JsonRpcTransportError(`cannot send ${method}: ${(error as Error)?.message ?? String(error)}`);

const success = (id: RequestId, result: unknown): JsonRpcResponse => ({ jsonrpc: "2.0", id, result: result === undefined ? null : result });

const failure = (id: RequestId, error: unknown): JsonRpcResponse => {
  const rpcError = error instanceof JsonRpcError ? error : new JsonRpcError(ErrorCode.InternalError, `Internal error: ${(error as Error)?.message ?? String(error)}`);
  return { jsonrpc: "2.0", id, error: rpcError.toObject() };
};

const formatIssues = (issues: readonly ValidationIssue[]) => issues.map((i) => `${i.path || "(root)"}: ${i.message}`).join("; ");

export interface Peer {
  /** Calls a method on the other side and resolves with its result. */
  request<R = unknown>(method: string, params: unknown, options?: CallOptions): Promise<R>;
  /** Like `request`, but the request is written with `send` instead of the peer's own channel. */
  requestVia<R = unknown>(send: (message: JsonRpcRequest) => void | Promise<void>, method: string, params: unknown, options?: CallOptions): Promise<R>;
  notify(method: string, params: unknown): Promise<void>;
  /** Handles one incoming message (already parsed): requests are answered through `send`. */
  receive(message: unknown): void;
  /** Parses one incoming text message; invalid JSON is answered with -32700. */
  receiveText(text: string): void;
  /**
   * Runs the handler of an incoming request and resolves with the response to send, without
   * sending it: for transports that answer on another channel (an HTTP response body).
   */
  handleRequest(message: JsonRpcRequest, callBack?: (message: JsonRpcRequest) => void | Promise<void>): Promise<JsonRpcResponse>;
  /** Resolves a pending outgoing call from a response; false when no call has that id. */
  resolveResponse(message: JsonRpcResponse): boolean;
  /** Fails a pending outgoing call (its transport broke); false when no call has that id. */
  rejectCall(id: RequestId, error: Error): boolean;
  /** Fails every pending call and aborts running handlers. */
  close(reason?: Error): void;
  readonly pendingCount: number;
}

/** An outgoing call waiting for its answer: plain data, settled by `settle` (no closure per call). */
interface Pending {
  id: RequestId;
  method: string;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** Removes the call's abort listener and stops its timer, for a call that has either. */
  cleanup: (() => void) | undefined;
}

/** Resolves (`ok`) or rejects a pending call with `value`, once: a call no longer pending is left alone. */
function settle(pending: Map<RequestId, Pending>, call: Pending, ok: boolean, value: unknown): void {
  if (!pending.delete(call.id)) return;
  call.cleanup?.();
  if (ok) call.resolve(value);
  else call.reject(value);
}

const noop = () => undefined;
/** The call whose promise `capture` is making: set just before `new Promise(capture)`, which runs it at once. */
let capturing: Pending | undefined;
/** A Promise executor shared by every call: it hands the resolving functions to `capturing`. */
function capture(resolve: (value: never) => void, reject: (reason: unknown) => void): void {
  capturing!.resolve = resolve as (value: unknown) => void;
  capturing!.reject = reject;
  capturing = undefined;
}

/** Fails `call` when `signal` aborts or after `timeoutMs` (0 or undefined: no timer). */
function arm(pending: Map<RequestId, Pending>, call: Pending, signal: AbortSignal | undefined, timeoutMs: number | undefined): void {
  const onAbort = signal && (() => settle(pending, call, false, signal.reason));
  if (onAbort) signal!.addEventListener("abort", onAbort, { once: true });
  const stopTimer =
    timeoutMs !== undefined && timeoutMs !== 0 ? startTimer(() => settle(pending, call, false, new JsonRpcTransportError(`${call.method} timed out after ${timeoutMs} ms`)), timeoutMs) : undefined;
  call.cleanup = () => {
    stopTimer?.();
    if (onAbort) signal!.removeEventListener("abort", onAbort);
  };
}

/** Fails `call` when the write of its request rejects. */
function failOnReject(pending: Map<RequestId, Pending>, call: Pending, sent: Promise<void>): void {
  sent.catch((error: unknown) => settle(pending, call, false, cannotSend(call.method, error)));
}

/**
 * A transport-agnostic JSON-RPC 2.0 peer: both sides can call and be called. Incoming requests are
 * handled concurrently (the reader never waits for a handler, so a handler may await a call back
 * to the other side), responses are matched to pending calls by id, and a bad message is answered
 * with the standard error code without disturbing anything else.
 */
export function createPeer(options: PeerOptions): Peer {
  const pending = new Map<RequestId, Pending>();
  const closed = new AbortController();
  const nextId = options.nextId ?? (() => crypto.randomUUID());
  const report = (error: Error) => options.onError?.(error);
  /**
   * Sends a message; what cannot be sent is reported, or, for a message JSON cannot write (a BigInt,
   * a cycle, a `toJSON` that throws anything), handed to `unwritable`. A transport error is not about
   * the message: the channel is gone, so it is only reported.
   */
  const send = <M extends JsonRpcMessage>(message: M, unwritable?: (error: Error, message: M) => void | Promise<void>): void | Promise<void> => {
    try {
      const sent = options.send(message);
      if (sent) return sent.catch(report);
    } catch (error) {
      if (unwritable && !(error instanceof JsonRpcTransportError)) return unwritable(error instanceof Error ? error : new Error(String(error)), message);
      report(error instanceof Error ? error : new Error(String(error)));
    }
  };

  /** A response JSON cannot write becomes -32603, so the caller still gets an answer. */
  const unwritableResponse = (error: Error, response: JsonRpcResponse) =>
    send({ jsonrpc: "2.0", id: response.id, error: { code: ErrorCode.InternalError, message: `Internal error: the response cannot be written as JSON: ${error.message}` } });
  const answer = (response: JsonRpcResponse): void | Promise<void> => send(response, unwritableResponse);

  const requestVia = <R>(write: (message: JsonRpcRequest) => void | Promise<void>, method: string, params: unknown, callOptions?: CallOptions): Promise<R> => {
    // Says why it closed (a server that exited, and how), not only that it did.
    if (closed.signal.aborted) return Promise.reject(new JsonRpcTransportError(`cannot call ${method}: ${(closed.signal.reason as Error).message}`));
    const signal = callOptions?.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const call: Pending = { id: nextId(), method, resolve: noop, reject: noop, cleanup: undefined };
    // The promise's resolving functions go straight into `call` (see `capture`): no executor
    // closure, and no context holding this function's variables, is made per call.
    capturing = call;
    const promise = new Promise<R>(capture);
    pending.set(call.id, call);
    // Only what this call needs is made: no abort listener without a signal, no timer without a
    // timeout (a call's own allocations are most of what the peer adds to a message).
    const timeoutMs = callOptions?.timeoutMs;
    // 0 is no timeout, as in the other flowspec clients (not "time out at once").
    try {
      if (signal || (timeoutMs !== undefined && timeoutMs !== 0)) arm(pending, call, signal, timeoutMs);
    } catch (error) {
      // As when this ran inside the promise's executor: the call rejects with what was thrown.
      settle(pending, call, false, error);
      return promise;
    }
    try {
      const sent = write({ jsonrpc: "2.0", id: call.id, method, params });
      if (sent) failOnReject(pending, call, sent);
    } catch (error) {
      settle(pending, call, false, cannotSend(method, error));
    }
    return promise;
  };
  /** A call on the peer's own channel: one function for every call and request context, not one each. */
  const sendOwn = (message: JsonRpcRequest) => options.send(message);
  const requestOwn = <R = unknown>(method: string, params: unknown, call?: CallOptions): Promise<R> => requestVia<R>(sendOwn, method, params, call);

  /**
   * The response to an incoming request: at once when its handler answers synchronously. A
   * synchronous answer makes no closure (per message, they were a good part of the peer's cost).
   */
  const respond = (message: JsonRpcRequest, callBack?: (message: JsonRpcRequest) => void | Promise<void>): JsonRpcResponse | Promise<JsonRpcResponse> => {
    const { id, method, params } = message;
    const handler = options.handlers && Object.hasOwn(options.handlers, method) ? options.handlers[method] : undefined;
    if (!handler) return failure(id, new JsonRpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`));
    const issues = options.validateParams?.(method, params);
    if (issues && issues.length > 0) {
      return failure(id, new JsonRpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${formatIssues(issues)}`, issues));
    }
    const context: RequestContext = {
      id,
      method,
      signal: closed.signal,
      request: callBack ? (m, p, o) => requestVia(callBack, m, p, o) : requestOwn,
    };
    try {
      const result = handler(params, context);
      if (!isThenable(result)) return success(id, result);
      return Promise.resolve(result).then(
        (value) => success(id, value),
        (error: unknown) => failure(id, error),
      );
    } catch (error) {
      return failure(id, error);
    }
  };

  const resolveWith = (call: Pending, result: unknown) => {
    let value: unknown;
    try {
      value = options.resolveWith!(call.method, result);
    } catch (error) {
      return settle(pending, call, false, error);
    }
    settle(pending, call, true, value);
  };

  const resolveResponse = (message: JsonRpcResponse): boolean => {
    const call = message.id === null ? undefined : pending.get(message.id);
    if (!call) return false;
    if ("error" in message) {
      settle(pending, call, false, new JsonRpcError(message.error.code, message.error.message, message.error.data));
      return true;
    }
    const issues = options.validateResult?.(call.method, message.result);
    if (issues && issues.length > 0) settle(pending, call, false, new JsonRpcResultError(call.method, issues));
    else if (!options.resolveWith) settle(pending, call, true, message.result);
    else resolveWith(call, message.result);
    return true;
  };

  const answerRequest = (message: JsonRpcRequest) => {
    const response = respond(message);
    if (response instanceof Promise) void response.then(answer);
    else void answer(response);
  };

  const answerCall = (message: JsonRpcResponse) => {
    if (!resolveResponse(message)) report(new Error(`dropped a response with unknown id ${JSON.stringify(message.id)}: ${excerpt(message)}`));
  };

  const receive = (value: unknown) => {
    // The two shapes nearly every message has, a request and a result, are told apart here without
    // the result object classifyMessage makes (the same tests, in its order); the rest goes to it.
    if (typeof value === "object" && value !== null && (value as { jsonrpc?: unknown }).jsonrpc === "2.0") {
      const m = value as Record<string, unknown>;
      if (typeof m.method === "string") {
        if (isId(m.id)) return answerRequest(m as unknown as JsonRpcRequest);
      } else if (!("method" in m) && isId(m.id) && m.result !== undefined && m.result !== null && m.error === undefined) {
        return answerCall(m as unknown as JsonRpcResponse);
      }
    }
    const classified = classifyMessage(value);
    switch (classified.kind) {
      case "invalid": {
        // A malformed answer to one of our calls fails that call (else it would wait forever);
        // a response is never answered.
        const call = classified.response && classified.id !== null ? pending.get(classified.id) : undefined;
        if (call) return settle(pending, call, false, new JsonRpcTransportError(`invalid response to ${call.method}: ${classified.reason}`));
        // Answered as JSON-RPC says, and reported: a response too malformed to match its call (an
        // id of the wrong type, a batch) leaves that call waiting, and this is all that tells why.
        report(new JsonRpcTransportError(`received an invalid message (${classified.reason}): ${excerpt(value)}`));
        void send({ jsonrpc: "2.0", id: classified.id, error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${classified.reason}` } });
        return;
      }
      case "request":
        return answerRequest(classified.message);
      case "notification": {
        const issues = options.validateParams?.(classified.message.method, classified.message.params);
        if (issues && issues.length > 0) return report(new Error(`ignored notification ${classified.message.method}: invalid params: ${formatIssues(issues)}`));
        try {
          options.onNotification?.(classified.message.method, classified.message.params);
        } catch (error) {
          report(error as Error);
        }
        return;
      }
      case "response":
        return answerCall(classified.message);
    }
  };

  return {
    request: requestOwn,
    requestVia,
    notify: async (method, params) => send({ jsonrpc: "2.0", method, params }),
    receive,
    receiveText(text) {
      let value: unknown;
      try {
        value = options.keepFloats ? parseJsonKeepingFloats(text) : JSON.parse(text);
      } catch (error) {
        // Reported too: a log line a server wrote to stdout, or a response cut short.
        report(new JsonRpcTransportError(`received a line that is not JSON (${(error as Error).message}): ${text.slice(0, 200)}`));
        void send({ jsonrpc: "2.0", id: null, error: { code: ErrorCode.ParseError, message: `Parse error: ${(error as Error).message}` } });
        return;
      }
      receive(value);
    },
    handleRequest: async (message, callBack) => respond(message, callBack),
    resolveResponse,
    rejectCall(id, error) {
      const call = pending.get(id);
      if (call) settle(pending, call, false, error);
      return call !== undefined;
    },
    close(reason = new JsonRpcTransportError("the connection closed")) {
      if (closed.signal.aborted) return;
      closed.abort(reason);
      for (const call of [...pending.values()]) settle(pending, call, false, reason);
    },
    get pendingCount() {
      return pending.size;
    },
  };
}

