import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { ResponseTooLargeError } from "../read-limited.js";
import { DEFAULT_MAX_LINE_BYTES, POST_HEADERS, type HttpPost, type HttpReply } from "../jsonrpc/index.js";

export interface NodeHttpPost extends HttpPost {
  /** Closes the kept-alive connections. */
  close(): void;
}

/**
 * POSTs through `node:http` / `node:https` with kept-alive connections: several times the
 * throughput of `fetch` on Node for the small messages of a JSON-RPC exchange.
 */
export function createNodeHttpPost(): NodeHttpPost {
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  const post: HttpPost = (url, body, signal, maxMessageBytes = DEFAULT_MAX_LINE_BYTES) =>
    new Promise((resolve, reject) => {
      const secure = url.startsWith("https:");
      const options: RequestOptions = { method: "POST", agent: secure ? agents.https : agents.http, headers: { ...POST_HEADERS, "content-length": Buffer.byteLength(body) } };
      if (signal) options.signal = signal;
      const request = (secure ? httpsRequest : httpRequest)(url, options, (response) => resolve(reply(response, maxMessageBytes, url)));
      request.once("error", reject);
      request.end(body);
    });
  return Object.assign(post, {
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  });
}

/**
 * The reply to hand back: a JSON (or any non-SSE) body is read whole first (up to `limit` bytes),
 * so the caller gets it with the reply in one step; an SSE body is left to stream.
 */
function reply(response: IncomingMessage, limit: number, url: string): Promise<HttpReply> {
  const contentType = response.headers["content-type"] ?? "";
  const base = {
    status: response.statusCode ?? 0,
    contentType,
    chunks: () => response[Symbol.asyncIterator](),
    discard: async () => drainOrDrop(response),
  };
  if (contentType.includes("text/event-stream")) return Promise.resolve({ ...base, text: () => readText(response, limit, url) });
  return readText(response, limit, url).then(
    (text) => ({ ...base, text: async () => text }),
    (error: Error) => ({ ...base, text: () => Promise.reject(error) }),
  );
}

/** How much of a body `discard` reads, and for how long, to keep its connection. */
const DISCARD_MAX_BYTES = 64 * 1024;
const DISCARD_MAX_MS = 1000;

/**
 * Reads what is left of a body in the background so the connection goes back to the pool, but
 * only a little of it for a short while: a stream the server never ends (an SSE stream kept open
 * after the final response) would otherwise hold its socket, and keep reading, forever.
 */
function drainOrDrop(response: IncomingMessage): void {
  if (response.readableEnded || response.destroyed) return;
  let bytes = 0;
  const drop = () => response.destroy();
  const timer = setTimeout(drop, DISCARD_MAX_MS);
  const stop = () => clearTimeout(timer);
  response.once("end", stop);
  response.once("close", stop);
  response.on("error", () => undefined);
  // read() in 'readable' mode, not resume(): resume() does nothing once chunks()'s async iterator
  // has put the stream in that mode, and the rest would never be read at all.
  const read = () => {
    for (let chunk: Buffer | null = response.read(); chunk !== null; chunk = response.read()) {
      bytes += chunk.length;
      if (bytes > DISCARD_MAX_BYTES) return drop();
    }
  };
  response.on("readable", read);
  read();
}

function readText(response: IncomingMessage, limit: number, url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // Reading the rest to keep the connection is what the limit is there to avoid: it goes.
    const tooLarge = (bytes: number, declared: boolean) => {
      response.destroy();
      reject(new ResponseTooLargeError(`POST ${url}`, limit, bytes, declared, "maxMessageBytes"));
    };
    response.on("error", reject);
    const declared = Number(response.headers["content-length"]);
    if (declared > limit) return tooLarge(declared, true);
    const chunks: Buffer[] = [];
    let size = 0;
    response.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge(size, false);
      else chunks.push(chunk);
    });
    response.once("end", () => resolve(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8")));
  });
}
