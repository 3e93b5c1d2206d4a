import { JsonRpcTransportError } from "./errors.js";
import { readBodyText, ResponseTooLargeError } from "../read-limited.js";
import { fetchFollowingRedirects } from "../redirect.js";
import { createBoundedSseParser } from "../sse.js";
import { byteLimit, DEFAULT_MAX_LINE_BYTES } from "./lines.js";
import { classifyMessage, type JsonRpcRequest, type JsonRpcResponse } from "./messages.js";
import { createPeer, type CallOptions, type PeerOptions } from "./peer.js";
import { parseJsonKeepingFloats, stringifyJson } from "../json-numbers.js";

export interface HttpClientOptions extends Omit<PeerOptions, "send"> {
  /** The server's URL, used verbatim for every POST. */
  url: string;
  /** Sends the POSTs (default: `fetchPost(options.fetch)`); `createNodeHttpPost` is faster on Node. */
  post?: HttpPost;
  fetch?: typeof fetch;
  /**
   * The largest message read from the server, in bytes (default 16 MiB, as the stdio transport's
   * `maxLineBytes`): a JSON body, or the data of one SSE event. A larger one fails its call
   * without being read whole, and its connection is dropped.
   */
  maxMessageBytes?: number;
  /** With the default `post`: follow a redirect to another origin (default false, see `fetchPost`). */
  allowCrossOriginRedirects?: boolean;
}

export interface HttpClient {
  request<R = unknown>(method: string, params: unknown, options?: CallOptions): Promise<R>;
  /** Sends a notification; the server must answer 202. */
  notify(method: string, params: unknown, options?: { signal?: AbortSignal }): Promise<void>;
  close(): void;
}

/** The answer to one POST, as the client reads it. */
export interface HttpReply {
  status: number;
  /** The `content-type` header, or `""`. */
  contentType: string;
  /** The whole body; rejects once it passes the POST's `maxMessageBytes`, without reading the rest. */
  text(): Promise<string>;
  /**
   * The body chunk by chunk (an SSE stream); call `discard` when done with it, or the iterator's
   * `return` to drop the connection instead of reading the rest.
   */
  chunks(): AsyncIterator<Uint8Array>;
  /** Drops what is left of the body. */
  discard(): Promise<void>;
}

/**
 * Sends one JSON-RPC message as a POST with the Streamable HTTP headers. A body that is not an SSE
 * stream is read up to `maxMessageBytes` (default 16 MiB): past that, or at once for a
 * Content-Length over it, the connection is dropped and `text()` rejects.
 */
export type HttpPost = (url: string, body: string, signal?: AbortSignal, maxMessageBytes?: number) => Promise<HttpReply>;

export const POST_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" } as const;

/**
 * POSTs through `fetch` (any platform), following redirects by runtime's policy: a redirect to
 * another origin is refused (a RedirectError) unless `allowCrossOriginRedirects`.
 */
export function fetchPost(doFetch: typeof fetch = fetch, options: { allowCrossOriginRedirects?: boolean } = {}): HttpPost {
  const policy = { allowCrossOrigin: options.allowCrossOriginRedirects === true };
  return async (url, body, signal, maxMessageBytes = DEFAULT_MAX_LINE_BYTES) => {
    const response = await fetchFollowingRedirects(doFetch, url, { method: "POST", headers: POST_HEADERS, body, signal }, policy);
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    const discard = async () => void (await (reader ?? response.body)?.cancel().catch(() => undefined));
    return {
      status: response.status,
      contentType: response.headers.get("content-type") ?? "",
      text: () => readBodyText(response, { maxBytes: maxMessageBytes, request: `POST ${url}`, option: "maxMessageBytes" }),
      chunks() {
        reader = response.body!.getReader();
        return {
          next: () => reader!.read() as Promise<IteratorResult<Uint8Array>>,
          return: async () => (await discard(), { done: true, value: undefined }),
        };
      },
      discard,
    };
  };
}

/**
 * The client side of Streamable HTTP: every message is a POST to `url`. A request is answered by a
 * JSON body or by an SSE stream that may carry requests from the server (each handled
 * concurrently and answered by its own POST) before the final response.
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const maxMessageBytes = byteLimit("maxMessageBytes", options.maxMessageBytes);
  const send = options.post ?? fetchPost(options.fetch, options);
  const post = (message: unknown, signal?: AbortSignal) => send(options.url, stringifyJson(message)!, signal, maxMessageBytes);
  const peer = createPeer({
    ...options,
    send: () => {
      throw new JsonRpcTransportError("Streamable HTTP answers each request on its own POST");
    },
  });

  // SSE answers being read, for close() to drop.
  const open = new Set<HttpReply>();
  let closed = false;

  const answerServerRequest = async (request: JsonRpcRequest) => {
    const response = await peer.handleRequest(request);
    try {
      const reply = await post(response);
      await reply.discard();
      if (reply.status !== 202) options.onError?.(new JsonRpcTransportError(`posting the response to ${request.method} got HTTP ${reply.status}, not 202`));
    } catch (error) {
      options.onError?.(new JsonRpcTransportError(`posting the response to ${request.method} failed: ${(error as Error).message}`));
    }
  };

  const exchange = async (request: JsonRpcRequest, signal?: AbortSignal) => {
    const failed = (reading: boolean) => (error: Error) => {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof JsonRpcTransportError) throw error;
      if (error instanceof ResponseTooLargeError) throw new JsonRpcTransportError(`${request.method}: ${error.message}`, { cause: error });
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const detail = cause?.code ?? cause?.message;
      const what = reading ? `reading the answer to ${request.method} from ${options.url}` : `POST ${options.url}`;
      throw new JsonRpcTransportError(`${what} failed: ${error.message}${detail ? ` (${detail})` : ""}`, { cause: error });
    };
    const response = await post(request, signal).catch(failed(false));
    if (closed) return void (await response.discard());
    if (response.status < 400 && response.contentType.includes("text/event-stream")) {
      open.add(response);
      try {
        await readStream(response, request).catch(failed(true));
      } finally {
        open.delete(response);
      }
      return;
    }
    const text = await response.text().catch(failed(true));
    let final: unknown;
    try {
      final = options.keepFloats ? parseJsonKeepingFloats(text) : JSON.parse(text);
    } catch {
      throw new JsonRpcTransportError(`HTTP ${response.status} from ${options.url} is not a JSON-RPC message: ${text.slice(0, 200)}`);
    }
    const classified = classifyMessage(final);
    if (classified.kind === "invalid" && classified.response && classified.id === request.id) {
      throw new JsonRpcTransportError(`invalid response to ${request.method} (HTTP ${response.status} from ${options.url}): ${classified.reason}`);
    }
    if (classified.kind !== "response" || classified.message.id !== request.id) {
      throw new JsonRpcTransportError(`HTTP ${response.status} from ${options.url} is not the response to request ${JSON.stringify(request.id)}: ${text.slice(0, 200)}`);
    }
    peer.resolveResponse(classified.message);
  };

  const readStream = async (response: HttpReply, request: JsonRpcRequest) => {
    const handlers: Promise<void>[] = [];
    let final: JsonRpcResponse | undefined;
    // Why the event answering the request is not a response (no result, a bad error): the call
    // fails with it, as over stdio, instead of reading on for an answer that will not come.
    let invalid: string | undefined;
    const parser = createBoundedSseParser(maxMessageBytes, (event) => {
      if (final || invalid) return;
      let message: unknown;
      try {
        message = options.keepFloats ? parseJsonKeepingFloats(event.data) : JSON.parse(event.data);
      } catch {
        options.onError?.(new JsonRpcTransportError(`skipped an SSE event that is not JSON: ${event.data.slice(0, 200)}`));
        return;
      }
      const classified = classifyMessage(message);
      if (classified.kind === "request") handlers.push(answerServerRequest(classified.message));
      else if (classified.kind === "response" && classified.message.id === request.id) final = classified.message;
      else if (classified.kind === "invalid" && classified.response && classified.id === request.id) invalid = classified.reason;
    });
    const chunks = response.chunks();
    const decoder = new TextDecoder();
    try {
      while (!final && !invalid) {
        const { done, value } = await chunks.next();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
        const oversize = parser.oversize;
        if (oversize) {
          await chunks.return?.();
          throw new Error(`an SSE event exceeds maxMessageBytes (${oversize.whole ? "" : "at least "}${oversize.bytes} bytes > ${maxMessageBytes})`);
        }
      }
    } finally {
      await response.discard();
    }
    await Promise.all(handlers);
    if (invalid) throw new JsonRpcTransportError(`invalid response to ${request.method} (an SSE event from ${options.url}): ${invalid}`);
    if (!final) throw new JsonRpcTransportError(`the SSE stream answering ${request.method} from ${options.url} ended without its final response`);
    peer.resolveResponse(final);
  };

  return {
    request<R>(method: string, params: unknown, call?: CallOptions): Promise<R> {
      if (call?.timeoutMs === undefined || call.timeoutMs === 0) {
        return peer.requestVia<R>((request) => void exchange(request, call?.signal).catch((error: Error) => peer.rejectCall(request.id, error)), method, params, call);
      }
      // A call that times out stops its POST too: no connection left open, and the server sees the
      // client go (its SSE stream closes).
      const stop = new AbortController();
      const forward = () => stop.abort(call.signal!.reason);
      call.signal?.addEventListener("abort", forward, { once: true });
      const answer = peer.requestVia<R>((request) => void exchange(request, stop.signal).catch((error: Error) => peer.rejectCall(request.id, error)), method, params, call);
      answer.then(
        () => call.signal?.removeEventListener("abort", forward),
        (error: unknown) => {
          call.signal?.removeEventListener("abort", forward);
          stop.abort(error);
        },
      );
      return answer;
    },
    async notify(method, params, call) {
      const response = await post({ jsonrpc: "2.0", method, params }, call?.signal);
      await response.discard();
      if (response.status !== 202) throw new JsonRpcTransportError(`notification ${method} got HTTP ${response.status}, not 202`);
    },
    close: () => {
      // The answers still being read are dropped, so no connection is left open and the server sees
      // the client go. (A controller per call would do it too, but costs every call its abort wiring.)
      closed = true;
      for (const response of open) void response.discard();
      open.clear();
      return peer.close();
    },
  };
}
