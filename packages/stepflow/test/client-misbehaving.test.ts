import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHttp, connectStdio, type RuntimeServices } from "../src/client/index.js";
import { stepflowPlugin } from "../src/plugins/stepflow.js";

const services: RuntimeServices = {
  putBlob: () => "0".repeat(64),
  getBlob: () => undefined,
  evaluateFlow: () => {
    throw new Error("not here");
  },
};

/**
 * A component server (a Node script) that answers `initialize` after `INIT_DELAY` ms, writes its pid
 * to `argv[1]`, and answers `components/execute` as `input.mode` says.
 */
const SERVER = `
const { createInterface } = require("node:readline");
require("node:fs").writeFileSync(process.argv[1], String(process.pid));
const out = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === "initialize") return setTimeout(() => out({ jsonrpc: "2.0", id: m.id, result: { server_protocol_version: 1 } }), Number(process.env.INIT_DELAY ?? 0));
  if (m.method !== "components/execute") return;
  const mode = m.params.input.mode;
  if (mode === "id") return out({ jsonrpc: "2.0", id: m.id, result: { output: m.id } });
  if (mode === "log") process.stdout.write("starting the component\\n");
  if (mode === "object-id") return out({ jsonrpc: "2.0", id: { id: m.id }, result: { output: 1 } });
  if (mode === "null-id-error") out({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: cannot read that request" } });
  out({ jsonrpc: "2.0", id: m.id, result: { output: mode } });
});
`;

const pidFile = () => join(mkdtempSync(join(tmpdir(), "stepflow-client-")), "pid");
/** A client of the misbehaving SERVER, with the errors it reports. */
const connectCollecting = async (options: { timeoutMs?: number } = {}) => {
  const errors: string[] = [];
  const client = await connectStdio({ command: process.execPath, args: ["-e", SERVER, pidFile()], env: {} }, services, { ...options, onError: (error) => errors.push(error.message) });
  return { client, errors };
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("review: a component server that writes what is not a JSON-RPC message", () => {
  it("reports a log line on stdout through onError, quoting it, and still gets the answer", async () => {
    const { client, errors } = await connectCollecting();
    try {
      expect(await client.execute("/x", { mode: "log" })).toBe("log");
      await expect.poll(() => errors).toEqual([expect.stringMatching(/^received a line that is not JSON \(.*\): starting the component$/)]);
    } finally {
      await client.close();
    }
  });

  it("reports a response whose id is not a string or an integer through onError, quoting it", async () => {
    const { client, errors } = await connectCollecting({ timeoutMs: 500 });
    try {
      await expect(client.execute("/x", { mode: "object-id" })).rejects.toThrow("components/execute timed out after 500 ms");
      expect(errors).toEqual([expect.stringMatching(/^received an invalid message \("id" must be a string or an integer of at most 2\^53 - 1 in size\): \{"jsonrpc":"2.0","id":\{"id":/)]);
    } finally {
      await client.close();
    }
  });
});

describe("request ids over stdio", () => {
  it("are integers counting up from the handshake's, one per call", async () => {
    const { client, errors } = await connectCollecting();
    try {
      // initialize is 1 (initialized, a notification, takes none).
      expect(await Promise.all([client.execute("/x", { mode: "id" }), client.execute("/x", { mode: "id" })])).toEqual([2, 3]);
      expect(await client.execute("/x", { mode: "id" })).toBe(4);
      expect(errors).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe("review: an error response with id null (the server could not read a request)", () => {
  it("is reported through onError with its error, not only as an unknown id", async () => {
    const { client, errors } = await connectCollecting();
    try {
      expect(await client.execute("/x", { mode: "null-id-error" })).toBe("null-id-error");
      expect(errors).toEqual([expect.stringMatching(/^dropped a response with unknown id null: .*Parse error: cannot read that request/)]);
    } finally {
      await client.close();
    }
  });
});

describe("review: a stepflow plugin closed while it starts", () => {
  it("ends the server it was starting instead of leaving the child process running", { timeout: 10_000 }, async () => {
    const file = pidFile();
    const plugin = stepflowPlugin("slow", { command: process.execPath, args: ["-e", SERVER, file], env: { INIT_DELAY: "300" } }, { workingDirectory: undefined, env: { PATH: process.env.PATH } });
    const init = plugin.init!().then(
      () => "started",
      (error: Error) => error.message,
    );
    await expect.poll(() => readFileSync(file, "utf8").length > 0 || undefined).toBe(true);
    const pid = Number(readFileSync(file, "utf8"));
    await plugin.close!();
    expect(alive(pid)).toBe(false);
    expect(await init).toBe('slow: plugin "slow" was closed while it started');
  });
});

/** A Streamable HTTP component server that completes the handshake and hands every other request to `onCall`. */
const componentServer = (onCall: (message: { id: unknown; params: { input: { mode: string } } }, response: ServerResponse) => void): Server =>
  createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const m = JSON.parse(body);
      if (m.method === "initialized") return void response.writeHead(202).end();
      if (m.method === "initialize") return void response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { server_protocol_version: 1 } }));
      onCall(m, response);
    });
  });

describe.each([
  ["node:http", {}],
  ["fetch", { fetch }],
])("review: a Streamable HTTP server whose answer to a call is not a valid response, through %s", (_name, post) => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = componentServer((m, response) => {
      // A response without result or error, under the call's id.
      const broken = JSON.stringify({ jsonrpc: "2.0", id: m.id });
      // As an SSE event, on a stream the server then keeps open.
      if (m.params.input.mode === "sse") return void response.writeHead(200, { "content-type": "text/event-stream" }).write(`data: ${broken}\n\n`);
      response.writeHead(200, { "content-type": "application/json" }).end(broken);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it("fails the call at once, saying what is wrong, when it comes as an SSE event (not waiting for the stream to end)", { timeout: 10_000 }, async () => {
    const client = await connectHttp(url, services, post);
    try {
      await expect(client.execute("/x", { mode: "sse" })).rejects.toThrow(`invalid response to components/execute (an SSE event from ${url}): a response must carry exactly one of result and error`);
    } finally {
      await client.close();
    }
  });

  it("fails the call saying what is wrong when it comes as the JSON body", async () => {
    const client = await connectHttp(url, services, post);
    try {
      await expect(client.execute("/x", { mode: "json" })).rejects.toThrow(`invalid response to components/execute (HTTP 200 from ${url}): a response must carry exactly one of result and error`);
    } finally {
      await client.close();
    }
  });
});

describe.each([
  ["node:http", {}],
  ["fetch", { fetch }],
])("review: connectHttp's close() with a call in flight, through %s", (_name, post) => {
  it("fails the call and drops its connection, so the server sees the client go", { timeout: 10_000 }, async () => {
    let streamClosed = false;
    const server = componentServer((_m, response) => {
      // A component still working: an SSE stream with a comment and no answer yet.
      response.writeHead(200, { "content-type": "text/event-stream" }).write(": working\n\n");
      response.on("close", () => (streamClosed = true));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const client = await connectHttp(`http://127.0.0.1:${(server.address() as { port: number }).port}`, services, post);
      const call = client.execute("/x", {});
      await new Promise((resolve) => setTimeout(resolve, 200));
      await client.close();
      await expect(call).rejects.toThrow("the connection closed");
      await expect.poll(() => streamClosed, { timeout: 2000 }).toBe(true);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
