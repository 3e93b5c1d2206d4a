import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { urlToHttpOptions } from "node:url";
import { POST_HEADERS, type HttpPost, type HttpReply } from "../jsonrpc/index.js";

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
  let last: { url: string; secure: boolean; options: RequestOptions } | undefined;
  const post: HttpPost = (url, body, signal) =>
    new Promise((resolve, reject) => {
      // Parsed once per URL: a client POSTs to one URL again and again.
      if (last?.url !== url) {
        const target = new URL(url);
        const secure = target.protocol === "https:";
        last = { url, secure, options: { ...urlToHttpOptions(target), method: "POST", agent: secure ? agents.https : agents.http } };
      }
      const options = { ...last.options, headers: { ...POST_HEADERS, "content-length": Buffer.byteLength(body) }, signal };
      const request = (last.secure ? httpsRequest : httpRequest)(options, (response) => resolve(reply(response)));
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

function reply(response: IncomingMessage): HttpReply {
  return {
    status: response.statusCode ?? 0,
    contentType: response.headers["content-type"] ?? "",
    text: () =>
      new Promise((resolve, reject) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        response.once("error", reject);
        response.once("close", () => {
          if (!response.complete) reject(new Error("the connection closed before the whole response arrived"));
        });
      }),
    chunks: () => response[Symbol.asyncIterator](),
    // Read to the end rather than destroy: the connection then goes back to the pool.
    discard: async () => void response.resume(),
  };
}
