import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { RedirectError, RunsClient } from "@flowspec/agent-service";

// RunsClient under runtime's redirect policy: `from` redirects everything to `to`, which records
// what reached it. Custom headers must never reach another origin; a POST or the run stream is not
// followed there at all unless the caller allows it.
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

const run = { runId: "r-1", status: "completed", resourceType: "tool", resourceId: "t", createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z", eventSequence: 0, version: 1 };

async function redirected(status: number) {
  const to = await origin((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ code: 0, message: "ok", data: run })));
  const from = await origin((req, res) => res.writeHead(status, { location: `${to.url}${req.url}` }).end());
  const client = (allowCrossOriginRedirects = false) =>
    new RunsClient({ baseUrl: from.url, orgId: "o", token: "s3cret", headers: { "x-api-key": "k3y" }, retry: { maxRetries: 0 }, allowCrossOriginRedirects });
  return { from, to, client };
}

describe("RunsClient's redirects", () => {
  it("follows a GET to another origin without the token or custom headers", async () => {
    const { to, client } = await redirected(302);
    await client().get("r-1").catch(() => undefined);
    expect(to.seen).toHaveLength(1);
    expect(to.seen[0]!.headers.authorization).toBeUndefined();
    expect(to.seen[0]!.headers["x-api-key"]).toBeUndefined();
  });

  it("refuses a 307 of a POST to another origin, sending it nothing, unless allowed", async () => {
    const { to, client } = await redirected(307);
    await expect(client().cancel("r-1")).rejects.toBeInstanceOf(RedirectError);
    expect(to.seen).toEqual([]);
    await client(true).cancel("r-1").catch(() => undefined);
    expect(to.seen.map((s) => [s.method, s.headers.authorization, s.headers["x-api-key"]])).toEqual([["POST", undefined, undefined]]);
  });

  it("does not take the run stream from another origin", async () => {
    const { to, client } = await redirected(302);
    const error = await (async () => {
      for await (const _ of client().stream("r-1")) void _;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect(to.seen).toEqual([]);
  });
});
