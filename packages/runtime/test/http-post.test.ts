import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpClient } from "@flowspec/runtime/jsonrpc";
import { createNodeHttpPost, listenHttp } from "@flowspec/runtime/node";

// After the final response of an SSE answer, createNodeHttpPost reads the rest of the stream to
// give the socket back to the keep-alive pool. A server that never ends the stream must not keep
// that socket (and the reading) forever.

const stops: (() => unknown)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

type After = "end" | "trailing" | "silent" | "chatty";

/** Answers every request on an SSE stream, then ends it, leaves it open, or keeps writing to it. */
async function sseServer(after: After) {
  const closes: Promise<number>[] = [];
  const ports: number[] = [];
  const server = await listenHttp((req, res: ServerResponse) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const { id } = JSON.parse(body) as { id: number };
      ports.push(req.socket.remotePort!);
      const opened = Date.now();
      closes.push(new Promise((resolve) => req.socket.once("close", () => resolve(Date.now() - opened))));
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", id, result: "done" })}\n\n`);
      if (after === "end") return void res.end();
      if (after === "trailing") return void setTimeout(() => res.end(`: ${"x".repeat(8 * 1024)}\n\n`), 20);
      if (after === "chatty") {
        const timer = setInterval(() => res.write(`: ${"x".repeat(16 * 1024)}\n\n`), 1);
        res.once("close", () => clearInterval(timer));
      }
    });
  });
  stops.push(() => server.close());
  return { url: server.url, closes, ports };
}

describe("createNodeHttpPost after the final SSE response", () => {
  it.each<After>(["silent", "chatty"])("releases the socket of a %s stream that never ends", { timeout: 10_000 }, async (after) => {
    const server = await sseServer(after);
    const post = createNodeHttpPost();
    stops.push(() => post.close());
    const client = createHttpClient({ url: server.url, post });
    await expect(client.request("work", {})).resolves.toBe("done");
    // Well within the test's timeout, and long before a server's idle timeout would end it.
    const closedAfter = await Promise.race([server.closes[0]!, new Promise<string>((r) => setTimeout(() => r("still open"), 5_000))]);
    expect(closedAfter).toBeTypeOf("number");
    expect(closedAfter as number).toBeLessThan(5_000);
  });

  it.each<After>(["end", "trailing"])("still gives the socket of a stream that ends (%s) back to the pool", async (after) => {
    const server = await sseServer(after);
    const post = createNodeHttpPost();
    stops.push(() => post.close());
    const client = createHttpClient({ url: server.url, post });
    await client.request("work", {});
    await new Promise((r) => setTimeout(r, 100));
    await client.request("work", {});
    expect(server.ports).toHaveLength(2);
    expect(server.ports[1]).toBe(server.ports[0]);
  });
});
