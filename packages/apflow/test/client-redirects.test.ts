import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createApflowClient, RedirectError } from "@flowspec/apflow/client";

// The apflow client under runtime's redirect policy: its calls are POSTs, never re-sent to another
// origin unless the caller allows it, and then without its token or custom headers.
const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function origin(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: { method: string; headers: IncomingMessage["headers"] }[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      seen.push({ method: req.method!, headers: req.headers });
      handler(req, res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe("the apflow client's redirects", () => {
  it("refuses a 307 to another origin, sending it nothing, unless allowed", async () => {
    const to = await origin((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","id":1,"result":{"status":"healthy"}}'));
    const from = await origin((req, res) => res.writeHead(307, { location: `${to.url}${req.url}` }).end());
    const options = { baseUrl: from.url, token: "s3cret", headers: { "x-llm-api-key": "k3y" } };
    await expect(createApflowClient(options).health()).rejects.toBeInstanceOf(RedirectError);
    expect(to.seen).toEqual([]);
    expect(await createApflowClient({ ...options, allowCrossOriginRedirects: true }).health()).toEqual({ status: "healthy" });
    expect(to.seen.map((s) => [s.method, s.headers.authorization, s.headers["x-llm-api-key"]])).toEqual([["POST", undefined, undefined]]);
  });
});
