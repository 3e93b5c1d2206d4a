import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { fetchFollowingRedirects, RedirectError } from "@flowspec/runtime";
import { createHttpClient, JsonRpcTransportError } from "@flowspec/runtime/jsonrpc";

// Two loopback origins: `from` redirects, `to` records what reached it.
const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

async function origin(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      seen.push({ method: req.method!, path: req.url!, headers: req.headers, body });
      handler(req, res, body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const SECRET_HEADERS = { authorization: "Bearer s3cret", "x-api-key": "k3y", cookie: "sid=1", "x-custom": "mine" };
const answerJson = (res: ServerResponse, value: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(value));

async function pair(status: number) {
  const to = await origin((req, res, body) => answerJson(res, { jsonrpc: "2.0", id: body ? JSON.parse(body).id : 1, result: "from the other origin" }));
  const from = await origin((req, res) => {
    if (req.url === "/same") return void res.writeHead(status, { location: "/final" }).end();
    if (req.url === "/final") return answerJson(res, { ok: true, headers: req.headers });
    if (req.url === "/loop") return void res.writeHead(302, { location: "/loop" }).end();
    res.writeHead(status, { location: `${to.url}/elsewhere` }).end();
  });
  return { from, to };
}

describe("fetchFollowingRedirects", () => {
  it("follows a GET to another origin with only the default headers", async () => {
    const { from, to } = await pair(302);
    const response = await fetchFollowingRedirects(fetch, `${from.url}/away`, { headers: { ...SECRET_HEADERS, accept: "application/json" } });
    expect(response.status).toBe(200);
    expect(to.seen).toHaveLength(1);
    expect(Object.keys(to.seen[0]!.headers).filter((name) => name in SECRET_HEADERS)).toEqual([]);
    expect(to.seen[0]!.headers.accept).toBe("application/json");
  });

  it("keeps every header on the same origin", async () => {
    const { from } = await pair(307);
    const response = await fetchFollowingRedirects(fetch, `${from.url}/same`, { method: "POST", headers: SECRET_HEADERS, body: "{}" });
    expect(((await response.json()) as { headers: Record<string, string> }).headers).toMatchObject(SECRET_HEADERS);
    expect(from.seen.map((s) => `${s.method} ${s.path} ${s.body}`)).toEqual(["POST /same {}", "POST /final {}"]);
  });

  it.each([
    [307, "POST", {}],
    [308, "PUT", {}],
    [303, "POST", {}],
    [302, "GET", { stream: true }],
  ])("refuses an HTTP %s to another origin for a %s (%j) unless allowed, sending it nothing", async (status, method, policy) => {
    const { from, to } = await pair(status);
    const init = { method, headers: SECRET_HEADERS, body: method === "GET" ? undefined : '{"a":1}' };
    const error = await fetchFollowingRedirects(fetch, `${from.url}/away`, init, policy).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect(error).toMatchObject({ status, location: `${to.url}/elsewhere` });
    expect((error as Error).message).toMatch(new RegExp(`^${method} ${from.url}/away: not following the HTTP ${status} redirect to ${to.url}/elsewhere: another origin`));
    expect(to.seen).toEqual([]);
    // Allowed: followed, without the caller's headers; a 307/308 keeps the body, a 303 becomes a GET.
    const response = await fetchFollowingRedirects(fetch, `${from.url}/away`, init, { ...policy, allowCrossOrigin: true });
    expect(response.status).toBe(200);
    expect(Object.keys(to.seen[0]!.headers).filter((name) => name in SECRET_HEADERS)).toEqual([]);
    expect(to.seen[0]!.method).toBe(status === 303 ? "GET" : method);
    expect(to.seen[0]!.body).toBe(status === 303 || method === "GET" ? "" : '{"a":1}');
  });

  it("stops after 10 redirects", async () => {
    const { from } = await pair(302);
    await expect(fetchFollowingRedirects(fetch, `${from.url}/loop`, {})).rejects.toThrow(`GET ${from.url}/loop: not following the HTTP 302 redirect to /loop: more than 10 redirects`);
    expect(from.seen).toHaveLength(11);
  });
});

describe("createHttpClient's redirects", () => {
  it("does not re-POST a request to another origin on a 307", async () => {
    const { from, to } = await pair(307);
    const client = createHttpClient({ url: `${from.url}/away` });
    const error = await client.request("echo", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcTransportError);
    expect((error as Error).cause).toBeInstanceOf(RedirectError);
    expect(to.seen).toEqual([]);
    const allowed = createHttpClient({ url: `${from.url}/away`, allowCrossOriginRedirects: true });
    expect(await allowed.request("echo", {})).toBe("from the other origin");
  });
});
