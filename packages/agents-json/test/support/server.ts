import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** What the loopback server received, for assertions. */
export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Sent as is (not JSON-encoded). */
  raw?: string;
}

export type Route = (request: Received) => Reply | undefined;

/** A node:http server on 127.0.0.1:0 that records every request and answers from routes (404 otherwise). */
export async function startServer(routes: Route[]): Promise<{ url: string; received: Received[]; close(): Promise<void>; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const request: Received = { method: req.method ?? "", path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(request);
      let reply: Reply | undefined;
      for (const route of routes) if ((reply = route(request))) break;
      reply ??= { status: 404, body: { error: `no route for ${request.method} ${request.path}` } };
      const isRaw = reply.raw !== undefined;
      const text = isRaw ? reply.raw! : reply.body === undefined ? "" : JSON.stringify(reply.body);
      res.writeHead(reply.status ?? 200, { ...(isRaw || text === "" ? {} : { "content-type": "application/json" }), ...reply.headers });
      res.end(text);
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    server,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** A loopback port nothing listens on (opened, then closed). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}
