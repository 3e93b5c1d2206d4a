import { createParser } from "eventsource-parser";
import { JsonRpcTransportError } from "./errors.js";
import { classifyMessage, type JsonRpcRequest, type JsonRpcResponse } from "./messages.js";
import { createPeer, type CallOptions, type PeerOptions } from "./peer.js";

export interface HttpClientOptions extends Omit<PeerOptions, "send"> {
  /** The server's URL, used verbatim for every POST. */
  url: string;
  /** Sends the POSTs (default: `fetchPost(options.fetch)`); `createNodeHttpPost` is faster on Node. */
  post?: HttpPost;
  fetch?: typeof fetch;
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
  text(): Promise<string>;
  /** The body chunk by chunk (an SSE stream); call `discard` when done with it. */
  chunks(): AsyncIterator<Uint8Array>;
  /** Drops what is left of the body. */
  discard(): Promise<void>;
}

/** Sends one JSON-RPC message as a POST with the Streamable HTTP headers. */
export type HttpPost = (url: string, body: string, signal?: AbortSignal) => Promise<HttpReply>;

export const POST_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" } as const;

/** POSTs through `fetch` (any platform). */
export function fetchPost(doFetch: typeof fetch = fetch): HttpPost {
  return async (url, body, signal) => {
    const response = await doFetch(url, { method: "POST", headers: POST_HEADERS, body, signal });
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    return {
      status: response.status,
      contentType: response.headers.get("content-type") ?? "",
      text: () => response.text(),
      chunks() {
        reader = response.body!.getReader();
        return { next: () => reader!.read() as Promise<IteratorResult<Uint8Array>> };
      },
      discard: async () => void (await (reader ?? response.body)?.cancel().catch(() => undefined)),
    };
  };
}

/**
 * The client side of Streamable HTTP: every message is a POST to `url`. A request is answered by a
 * JSON body or by an SSE stream that may carry requests from the server (each handled
 * concurrently and answered by its own POST) before the final response.
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const send = options.post ?? fetchPost(options.fetch);
  const post = (message: unknown, signal?: AbortSignal) => send(options.url, JSON.stringify(message), signal);
  const peer = createPeer({
    ...options,
    send: () => {
      throw new JsonRpcTransportError("Streamable HTTP answers each request on its own POST");
    },
  });

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
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const detail = cause?.code ?? cause?.message;
      const what = reading ? `reading the answer to ${request.method} from ${options.url}` : `POST ${options.url}`;
      throw new JsonRpcTransportError(`${what} failed: ${error.message}${detail ? ` (${detail})` : ""}`, { cause: error });
    };
    const response = await post(request, signal).catch(failed(false));
    if (response.status < 400 && response.contentType.includes("text/event-stream")) {
      await readStream(response, request).catch(failed(true));
      return;
    }
    const text = await response.text().catch(failed(true));
    let final: unknown;
    try {
      final = JSON.parse(text);
    } catch {
      throw new JsonRpcTransportError(`HTTP ${response.status} from ${options.url} is not a JSON-RPC message: ${text.slice(0, 200)}`);
    }
    const classified = classifyMessage(final);
    if (classified.kind !== "response" || classified.message.id !== request.id) {
      throw new JsonRpcTransportError(`HTTP ${response.status} from ${options.url} is not the response to request ${JSON.stringify(request.id)}: ${text.slice(0, 200)}`);
    }
    peer.resolveResponse(classified.message);
  };

  const readStream = async (response: HttpReply, request: JsonRpcRequest) => {
    const handlers: Promise<void>[] = [];
    let final: JsonRpcResponse | undefined;
    const parser = createParser({
      onEvent(event) {
        if (final) return;
        let message: unknown;
        try {
          message = JSON.parse(event.data);
        } catch {
          options.onError?.(new JsonRpcTransportError(`skipped an SSE event that is not JSON: ${event.data.slice(0, 200)}`));
          return;
        }
        const classified = classifyMessage(message);
        if (classified.kind === "request") handlers.push(answerServerRequest(classified.message));
        else if (classified.kind === "response" && classified.message.id === request.id) final = classified.message;
      },
    });
    const chunks = response.chunks();
    const decoder = new TextDecoder();
    try {
      while (!final) {
        const { done, value } = await chunks.next();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } finally {
      await response.discard();
    }
    await Promise.all(handlers);
    if (!final) throw new JsonRpcTransportError(`the SSE stream answering ${request.method} from ${options.url} ended without its final response`);
    peer.resolveResponse(final);
  };

  return {
    request<R>(method: string, params: unknown, call?: CallOptions): Promise<R> {
      if (call?.timeoutMs === undefined) {
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
    close: () => peer.close(),
  };
}

