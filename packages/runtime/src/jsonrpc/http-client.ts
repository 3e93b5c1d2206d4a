import { createParser } from "eventsource-parser";
import { JsonRpcTransportError } from "./errors.js";
import { classifyMessage, type JsonRpcRequest, type JsonRpcResponse } from "./messages.js";
import { createPeer, type CallOptions, type PeerOptions } from "./peer.js";

export interface HttpClientOptions extends Omit<PeerOptions, "send"> {
  /** The server's URL, used verbatim for every POST. */
  url: string;
  fetch?: typeof fetch;
}

export interface HttpClient {
  request<R = unknown>(method: string, params: unknown, options?: CallOptions): Promise<R>;
  /** Sends a notification; the server must answer 202. */
  notify(method: string, params: unknown, options?: { signal?: AbortSignal }): Promise<void>;
  close(): void;
}

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/**
 * The client side of Streamable HTTP: every message is a POST to `url`. A request is answered by a
 * JSON body or by an SSE stream that may carry requests from the server (each handled
 * concurrently and answered by its own POST) before the final response.
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const doFetch = options.fetch ?? fetch;
  const post = (body: unknown, signal?: AbortSignal) => doFetch(options.url, { method: "POST", headers: HEADERS, body: JSON.stringify(body), signal });
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
      await reply.body?.cancel();
      if (reply.status !== 202) options.onError?.(new JsonRpcTransportError(`posting the response to ${request.method} got HTTP ${reply.status}, not 202`));
    } catch (error) {
      options.onError?.(new JsonRpcTransportError(`posting the response to ${request.method} failed: ${(error as Error).message}`));
    }
  };

  const exchange = async (request: JsonRpcRequest, signal?: AbortSignal) => {
    const response = await post(request, signal).catch((error: Error) => {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const detail = cause?.code ?? cause?.message;
      throw signal?.aborted ? signal.reason : new JsonRpcTransportError(`POST ${options.url} failed: ${error.message}${detail ? ` (${detail})` : ""}`, { cause: error });
    });
    const contentType = response.headers.get("content-type") ?? "";
    if (response.status < 400 && contentType.includes("text/event-stream")) {
      await readStream(response, request);
      return;
    }
    const text = await response.text();
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

  const readStream = async (response: Response, request: JsonRpcRequest) => {
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
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    try {
      while (!final) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
    await Promise.all(handlers);
    if (!final) throw new JsonRpcTransportError("SSE stream ended without receiving final response");
    peer.resolveResponse(final);
  };

  return {
    request: (method, params, call) =>
      peer.requestVia((request) => void exchange(request, call?.signal).catch((error: Error) => peer.rejectCall(request.id, error)), method, params, call),
    async notify(method, params, call) {
      const response = await post({ jsonrpc: "2.0", method, params }, call?.signal);
      await response.body?.cancel();
      if (response.status !== 202) throw new JsonRpcTransportError(`notification ${method} got HTTP ${response.status}, not 202`);
    },
    close: () => peer.close(),
  };
}

