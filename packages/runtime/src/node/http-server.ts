import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { classifyMessage, createPeer, DEFAULT_MAX_LINE_BYTES, ErrorCode, JsonRpcTransportError, type JsonRpcMessage, type JsonRpcRequest, type JsonRpcResponse, type Peer, type PeerOptions, type RequestId } from "../jsonrpc/index.js";
import { parseJsonKeepingFloats, stringifyJson } from "../json-numbers.js";

export interface StreamableHttpOptions extends Omit<PeerOptions, "send"> {
  /** Whether a request is answered with an SSE stream (its handler may call back) rather than JSON. */
  streams?(method: string, params: unknown): boolean;
  /** Extra fields of the `GET /health` body. */
  health?(): Record<string, unknown>;
  /** The largest request body accepted (default 16 MiB); a larger one is answered 413 as soon as it is known, and its connection closed. */
  maxBodyBytes?: number;
}

/**
 * The server side of Streamable HTTP (StepFlow 0.2.x, protocol notes §3.2): POSTed requests are
 * answered with JSON, or with an SSE stream carrying the handler's calls back to the client and
 * then the final response; POSTed responses and notifications get 202. One peer serves every
 * POST, so a response to a call back may arrive on any connection.
 */
export function createStreamableHttpListener(options: StreamableHttpOptions): { listener: RequestListener; peer: Peer } {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_LINE_BYTES;
  const peer = createPeer({
    ...options,
    send: () => {
      throw new Error("Streamable HTTP answers each request on its own POST");
    },
  });

  const listener: RequestListener = (req, res) => {
    handle(req, res).catch((error: Error) => {
      options.onError?.(error);
      if (!res.headersSent) json(res, 500, { jsonrpc: "2.0", id: null, error: { code: ErrorCode.InternalError, message: `Internal error: ${error.message}` } });
      else res.end();
    });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === "GET" && (req.url ?? "/").split("?")[0] === "/health") {
      return json(res, 200, { status: "healthy", timestamp: new Date().toISOString(), ...options.health?.() });
    }
    if (req.method !== "POST") return json(res, 405, { error: "only POST (and GET /health) are served" }, { allow: "POST" });
    // Media types are case-insensitive (RFC 9110 §8.3.1).
    if (!(req.headers["content-type"] ?? "").toLowerCase().includes("application/json")) {
      return json(res, 415, { error: "Content-Type must be application/json" });
    }
    const accept = (req.headers.accept ?? "").toLowerCase();
    if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
      return json(res, 406, { error: "Accept header must include application/json and text/event-stream" });
    }
    const body = await readBody(req, maxBodyBytes);
    if (typeof body !== "string") {
      // Answered before the rest arrives. Node discards what comes after (nothing is buffered), and the
      // connection is dropped a moment later if the body goes on: closing at once, with the client
      // still sending, would reset the connection and could lose the answer on its way.
      const size = `${body.declared ? "Content-Length " : "at least "}${body.bytes} bytes > ${maxBodyBytes}`;
      const message = `Invalid Request: the body exceeds maxBodyBytes (${size})`;
      json(res, 413, { jsonrpc: "2.0", id: null, error: { code: ErrorCode.InvalidRequest, message } });
      const drop = setTimeout(() => req.destroy(), LINGER_MS);
      req.once("close", () => clearTimeout(drop));
      req.once("end", () => clearTimeout(drop));
      return;
    }
    let value: unknown;
    try {
      value = options.keepFloats ? parseJsonKeepingFloats(body) : JSON.parse(body);
    } catch (error) {
      return json(res, 400, { error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: not JSON: ${(error as Error).message}` } });
    }
    const classified = classifyMessage(value);
    switch (classified.kind) {
      case "invalid":
        // A malformed response to a pending call back fails that call rather than leaving it waiting.
        if (classified.response && classified.id !== null) {
          peer.rejectCall(classified.id, new JsonRpcTransportError(`invalid response to a call back: ${classified.reason}`));
        }
        return json(res, 400, { error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${classified.reason}` } });
      case "response":
        if (!peer.resolveResponse(classified.message)) options.onError?.(new Error(`a POSTed response has unknown id ${JSON.stringify(classified.message.id)}`));
        return empty(res, 202);
      case "notification":
        peer.receive(classified.message);
        return empty(res, 202);
      case "request": {
        const { method, params } = classified.message;
        if (!options.streams?.(method, params)) {
          const [text, ok] = responseText(await peer.handleRequest(classified.message));
          return jsonText(res, ok ? 200 : 500, text);
        }
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
        const event = (message: JsonRpcMessage | string) => void res.write(`data: ${typeof message === "string" ? message : stringifyJson(message)}\n\n`);
        // Call backs go out only while this stream is open. If the client goes away before the
        // final response, the ones it has not answered fail instead of waiting forever (after the
        // final response the client still POSTs its answers to those it has read).
        const callBacks: RequestId[] = [];
        let open = true;
        res.once("close", () => {
          if (!open) return;
          open = false;
          for (const id of callBacks) peer.rejectCall(id, new JsonRpcTransportError(`the SSE stream answering ${method} closed before the call back was answered`));
        });
        const callBack = (request: JsonRpcRequest) => {
          if (!open) throw new JsonRpcTransportError(`the SSE stream answering ${method} has closed`);
          callBacks.push(request.id);
          event(request);
        };
        const response = await peer.handleRequest(classified.message, callBack);
        open = false;
        event(responseText(response)[0]);
        res.end();
        return;
      }
    }
  };
  return { listener, peer };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  jsonText(res, status, JSON.stringify(body), headers);
}

function jsonText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * A response as JSON text, and whether it could be written as it is: a result JSON cannot write (a
 * BigInt, a cycle, a `toJSON` that throws) becomes -32603 under the request's id, so the caller still
 * gets an answer it can match (as over stdio).
 */
function responseText(response: JsonRpcResponse): [string, boolean] {
  try {
    return [stringifyJson(response)!, true];
  } catch (error) {
    const message = `Internal error: the response cannot be written as JSON: ${error instanceof Error ? error.message : String(error)}`;
    return [JSON.stringify({ jsonrpc: "2.0", id: response.id, error: { code: ErrorCode.InternalError, message } }), false];
  }
}

function empty(res: ServerResponse, status: number): void {
  res.writeHead(status, { "content-length": 0 });
  res.end();
}

/** How long an oversized request may go on being sent (and discarded) after its 413, before its connection is dropped. */
const LINGER_MS = 1000;

/**
 * The request body as text, or how far it went past `limit` (its Content-Length, or the bytes read
 * when it passed): reading stops there, at once, without waiting for the rest.
 */
function readBody(req: IncomingMessage, limit: number): Promise<string | { bytes: number; declared: boolean }> {
  const declared = Number(req.headers["content-length"]);
  if (declared > limit) return Promise.resolve({ bytes: declared, declared: true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off("data", onData);
      req.pause();
      resolve({ bytes: size, declared: false });
    };
    req.on("data", onData);
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    // Node says only "aborted": say where.
    req.on("error", (error) => reject(new Error(`the client closed the connection before its request body was read (after ${size} bytes): ${error.message}`)));
  });
}

export interface RunningHttpServer {
  server: Server;
  /** `http://host:port`, with the port actually bound (for port 0). */
  url: string;
  close(): Promise<void>;
}

/** Starts an HTTP server for a listener (port 0 picks a free port) on 127.0.0.1 by default. */
export function listenHttp(listener: RequestListener, { port = 0, host = "127.0.0.1" }: { port?: number; host?: string } = {}): Promise<RunningHttpServer> {
  const server = createServer(listener);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    // A runtime opens a connection per concurrent call: a backlog deeper than Node's 511 keeps a
    // burst of a thousand calls from overflowing the accept queue.
    server.listen({ port, host, backlog: 4096 }, () => {
      const { port: bound } = server.address() as AddressInfo;
      resolve({
        server,
        url: `http://${host.includes(":") ? `[${host}]` : host}:${bound}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
