import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutorRegistry, registerBuiltinExecutors, runTaskTree, type Task } from "@flowspec/apflow";

let server: Server;
let base = "";
/** The last request the server saw: what was sent, before the executor masks its result. */
let lastRequest: { url?: string; headers: Record<string, unknown> } = { headers: {} };
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      lastRequest = { url: req.url, headers: req.headers };
      const url = new URL(req.url ?? "/", "http://x");
      if (url.pathname === "/json") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ method: req.method, query: Object.fromEntries(url.searchParams), body: body ? JSON.parse(body) : null, type: req.headers["content-type"] ?? null, auth: req.headers.authorization ?? null }));
      } else if (url.pathname === "/echo") {
        // Everything it was sent, as JSON text with a text/plain type: JSON is recognised by parsing, as v1 does.
        res.writeHead(200, { "content-type": "text/plain" });
        res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
      } else if (url.pathname === "/redirect") {
        res.writeHead(302, { location: "/json?moved=1" });
        res.end();
      } else if (url.pathname === "/text") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("hello");
      } else if (url.pathname === "/deny") {
        // A server that echoes what it was sent in its error body, credentials included.
        res.writeHead(401, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: "denied", url: req.url, authorization: req.headers.authorization ?? null, apiKey: req.headers["x-api-key"] ?? null, cookie: req.headers.cookie ?? null }));
      } else if (url.pathname === "/slow") {
        setTimeout(() => res.end("late"), 2000);
      } else {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("no such thing");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function runRest(inputs: Record<string, unknown>) {
  const task: Task = { id: "t", name: "call", status: "pending", schemas: { method: "rest_executor" }, inputs };
  const result = await runTaskTree([task], { mode: "wire", registry: registerBuiltinExecutors(createExecutorRegistry()) }).done;
  return result.tasks.t!;
}

describe("rest_executor", () => {
  it("GETs JSON with query params and headers, and returns v1's {success, status_code, url, headers, json, method}", async () => {
    const t = await runRest({ url: `${base}/json`, params: { q: "x", n: 2 }, headers: { "x-trace": "k" } });
    expect(t.status).toBe("completed");
    expect(t.result).toEqual({
      success: true,
      status_code: 200,
      url: `${base}/json?q=x&n=2`,
      headers: expect.objectContaining({ "content-type": "application/json" }),
      json: { method: "GET", query: { q: "x", n: "2" }, body: null, type: null, auth: null },
      method: "GET",
    });
  });
  it("POSTs json", async () => {
    const t = await runRest({ url: `${base}/json`, method: "post", json: { a: 1 } });
    expect(t.result).toMatchObject({ method: "POST", json: { method: "POST", body: { a: 1 }, type: "application/json" } });
  });
  it("returns a body that does not parse as JSON as text, and one that does as json whatever its content type", async () => {
    expect((await runRest({ url: `${base}/text` })).result).toMatchObject({ success: true, status_code: 200, text: "hello" });
    expect((await runRest({ url: `${base}/text` })).result).not.toHaveProperty("json");
    expect((await runRest({ url: `${base}/echo` })).result).toMatchObject({ json: { method: "GET", url: "/echo" } });
  });
  it("url is the final URL, after redirects", async () => {
    expect((await runRest({ url: `${base}/redirect` })).result).toMatchObject({ url: `${base}/json?moved=1`, json: { query: { moved: "1" } } });
  });
  it("completes with success: false on an HTTP error status, as v1 does, with the body as text", async () => {
    const t = await runRest({ url: `${base}/missing`, method: "DELETE" });
    expect(t).toMatchObject({ status: "completed", error: null, result: { success: false, status_code: 404, url: `${base}/missing`, text: "no such thing", method: "DELETE" } });
  });
  it("sends data as a form body (an array repeats its field); json wins over data", async () => {
    const form = await runRest({ url: `${base}/echo`, method: "POST", data: { a: "x y", n: 2, tag: ["p", "q"] } });
    expect(form.result).toMatchObject({ json: { body: "a=x+y&n=2&tag=p&tag=q", headers: { "content-type": "application/x-www-form-urlencoded" } } });
    const both = await runRest({ url: `${base}/json`, method: "POST", data: { a: 1 }, json: { b: 2 } });
    expect(both.result).toMatchObject({ json: { body: { b: 2 }, type: "application/json" } });
  });
  it.each([
    [{ type: "bearer", token: "tok-123" }, { authorization: "Bearer tok-123" }, "/echo"],
    [{ type: "basic", username: "ada", password: "pässword" }, { authorization: `Basic ${Buffer.from("ada:pässword").toString("base64")}` }, "/echo"],
    [{ type: "apikey", key: "X-Api-Key", value: "k-456" }, { "x-api-key": "k-456" }, "/echo"],
    [{ type: "apikey", key: "api_key", value: "k 789", location: "query" }, {}, "/echo?api_key=k+789"],
  ])("sends auth %j", async (auth, headers, sentUrl) => {
    expect((await runRest({ url: `${base}/echo`, auth })).status).toBe("completed");
    expect(lastRequest.headers).toMatchObject(headers);
    expect(lastRequest.url).toBe(sentUrl);
  });
  it("checks auth: a type without its fields is an input error", async () => {
    const t = await runRest({ url: `${base}/json`, auth: { type: "bearer" } });
    expect(t.error).toMatch(/^inputs do not conform to input_schema: \/auth\/token missing required property "token"/);
  });
  it("fails on the timeout", async () => {
    const t = await runRest({ url: `${base}/slow`, timeout: 0.2 });
    expect(t.error).toBe(`GET ${base}/slow timed out after 0.2 s`);
  });
  it("a fractional timeout in seconds is honoured (not a RangeError from AbortSignal.timeout)", async () => {
    const t = await runRest({ url: `${base}/slow`, timeout: 0.2001 });
    expect(t.error).toBe(`GET ${base}/slow timed out after 0.2001 s`);
  });
  it.each([[3e6], [Infinity]])("a timeout past setTimeout's range (%s s) does not fire early", async (timeout) => {
    const t = await runRest({ url: `${base}/slow`, timeout });
    expect(t).toMatchObject({ status: "completed", result: { status_code: 200, text: "late" } });
  });
  it("fails on a network error", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const t = await runRest({ url: `http://127.0.0.1:${port}/` });
    expect(t.error).toMatch(new RegExp(`^GET http://127.0.0.1:${port}/ failed: `));
  });
  it("checks its inputs before sending", async () => {
    const t = await runRest({ method: "GET" });
    expect(t.error).toBe('inputs do not conform to input_schema: /url missing required property "url"');
  });
});

describe("rest_executor: credentials never reach what it reports", () => {
  const secrets = ["sekrit-query", "sekrit-param", "sekrit-bearer", "sekrit-header", "sekrit-cookie", "sekrit-pass"];
  const leaked = (text: unknown) => secrets.filter((secret) => String(text).includes(secret));

  it("masks secret query values, secret headers and their echo in a non-2xx body", async () => {
    const t = await runRest({
      url: `${base}/deny?api_key=sekrit-query&q=ok`,
      params: { token: "sekrit-param", page: 2 },
      headers: { authorization: "Bearer sekrit-bearer", "x-api-key": "sekrit-header", cookie: "sid=sekrit-cookie", accept: "application/json" },
    });
    expect(t.status).toBe("completed");
    expect(leaked(JSON.stringify({ error: t.error, result: t.result }))).toEqual([]); // (t.inputs is the task as written)
    expect(t.result).toMatchObject({ success: false, status_code: 401, url: `${base}/deny?api_key=***&q=ok&token=***&page=2` });
    expect(t.result!.text).toContain('"authorization":"Bearer ***"');
  });
  it.each([
    [{ type: "bearer", token: "sekrit-bearer" }],
    [{ type: "basic", username: "u", password: "sekrit-pass" }],
    [{ type: "apikey", key: "X-Custom", value: "sekrit-header" }],
    [{ type: "apikey", key: "q", value: "sekrit-query", location: "query" }],
  ])("keeps auth %j out of the result, however the server echoes it, and out of errors", async (auth) => {
    const basic = Buffer.from("u:sekrit-pass").toString("base64");
    for (const url of [`${base}/echo`, `${base}/deny`]) {
      const t = await runRest({ url, auth });
      expect(t.status).toBe("completed");
      expect(leaked(JSON.stringify(t.result))).toEqual([]);
      expect(JSON.stringify(t.result)).not.toContain(basic);
    }
    const slow = await runRest({ url: `${base}/slow`, auth, timeout: 0.1 });
    expect(slow.status).toBe("failed");
    expect(leaked(slow.error)).toEqual([]);
  });
  it("masks the password of URL userinfo", async () => {
    const t = await runRest({ url: `http://user:sekrit-pass@${base.slice("http://".length)}/json` });
    expect(t.status).toBe("failed");
    expect(leaked(t.error)).toEqual([]);
    expect(t.error).toContain("user:***@");
  });
  it("masks secrets in timeout messages", async () => {
    const t = await runRest({ url: `${base}/slow?access_token=sekrit-query`, timeout: 0.1 });
    expect(t.error).toBe(`GET ${base}/slow?access_token=*** timed out after 0.1 s`);
  });
  it("masks a secret header value that fetch itself rejects", async () => {
    const t = await runRest({ url: `${base}/json`, headers: { authorization: "Bearer sekrit-bearer\u0000" } });
    expect(t.status).toBe("failed");
    expect(leaked(t.error)).toEqual([]);
  });
});

describe("rest_executor: request bodies", () => {
  it.each([[{ a: 1 }], [[1, "two"]]])("sends an object or array body (%j) as JSON", async (body) => {
    const t = await runRest({ url: `${base}/json`, method: "POST", body });
    expect(t.result).toMatchObject({ json: { method: "POST", body, type: "application/json" } });
  });
  it("keeps a content-type the task's headers set", async () => {
    const t = await runRest({ url: `${base}/json`, method: "POST", body: { a: 1 }, headers: { "Content-Type": "application/vnd.x+json" } });
    expect(t.result).toMatchObject({ json: { body: { a: 1 }, type: "application/vnd.x+json" } });
  });
  it("sends a string body as it is", async () => {
    const t = await runRest({ url: `${base}/json`, method: "POST", body: '{"raw":true}' });
    expect(t.result).toMatchObject({ json: { body: { raw: true }, type: "text/plain;charset=UTF-8" } });
  });
});

describe("rest_executor: an invalid URL", () => {
  it("fails naming the field and the URL, with credentials masked", async () => {
    const t = await runRest({ url: "not a url?token=sekrit-query&q=1" });
    expect(t).toMatchObject({ status: "failed", error: 'inputs.url is not a valid absolute URL: "not a url?token=***&q=1"' });
  });
  it("masks a userinfo password in an invalid URL", async () => {
    const t = await runRest({ url: "http://user:sekrit-pass@exa mple.com/" });
    expect(t.error).toBe('inputs.url is not a valid absolute URL: "http://user:***@exa mple.com/"');
  });
});
