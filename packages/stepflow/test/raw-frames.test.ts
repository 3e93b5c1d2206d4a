import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningHttpServer } from "@flowspec/runtime/node";
import { serveHttp } from "../src/server/index.js";
import components from "../../../examples/stepflow-components/components.js";
import { repoRoot } from "../../../test/support.js";

/** The fixture component server (test/fixtures/serve.ts) over stdio, serving `components` (a path from the repo root). */
function spawnServer(components: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", join(repoRoot, "packages/stepflow/test/fixtures/serve.ts"), join(repoRoot, components)], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? "", ...env },
  });
}

/** Waits until `done()` holds, polling every 10 ms for at most 4 s. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe("the component server over stdio, spoken to in raw frames", () => {
  let child: ChildProcess;
  const stdoutLines: string[] = [];
  let stderr = "";
  beforeAll(async () => {
    child = spawnServer("examples/stepflow-components/components.ts", { MAX_LINE_BYTES: "4096" });
    let buffer = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split("\n");
      buffer = lines.pop()!;
      stdoutLines.push(...lines);
    });
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    await send('{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"runtime_protocol_version":1}}');
  });
  afterAll(() => void child.kill());

  /** Writes one frame and resolves with the next stdout line, parsed. */
  async function send(frame: string) {
    const before = stdoutLines.length;
    child.stdin!.write(frame + "\n");
    await until(() => stdoutLines.length !== before);
    expect(stdoutLines.length, `no answer to ${frame.slice(0, 80)}; stderr: ${stderr}`).toBeGreaterThan(before);
    return JSON.parse(stdoutLines[before]!);
  }

  it.each([
    ["invalid JSON", "{not json", { id: null, error: { code: -32700 } }],
    ["a non-2.0 envelope", '{"jsonrpc":"1.0","id":"a","method":"components/list","params":{}}', { id: "a", error: { code: -32600 } }],
    ["a missing method", '{"jsonrpc":"2.0","id":"b","params":{}}', { id: "b", error: { code: -32600 } }],
    ["an unknown method", '{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{}}', { id: "c", error: { code: -32601 } }],
    ["invalid params", '{"jsonrpc":"2.0","id":"d","method":"components/execute","params":{"component":"/echo"}}', { id: "d", error: { code: -32602 } }],
    ["an unknown component", '{"jsonrpc":"2.0","id":"e","method":"components/execute","params":{"component":"/nope","input":1}}', { id: "e", error: { code: -32001 } }],
    ["a handler that throws", '{"jsonrpc":"2.0","id":"f","method":"components/execute","params":{"component":"/fail","input":{"message":"boom"}}}', { id: "f", error: { code: -32004, message: "boom" } }],
    ["an oversized line", `{"jsonrpc":"2.0","id":"g","method":"components/execute","params":{"component":"/echo","input":"${"x".repeat(8000)}"}}`, { id: null, error: { code: -32600, message: expect.stringContaining("maxLineBytes") } }],
  ])("answers %s correctly and keeps serving", async (_name, frame, expected) => {
    expect(await send(frame)).toMatchObject({ jsonrpc: "2.0", ...expected });
    expect(await send('{"jsonrpc":"2.0","id":"ok","method":"components/execute","params":{"component":"/echo","input":1}}')).toEqual({ jsonrpc: "2.0", id: "ok", result: { output: 1 } });
  });

  it("answers nothing to a notification", async () => {
    const before = stdoutLines.length;
    child.stdin!.write('{"jsonrpc":"2.0","method":"initialized","params":{}}\n');
    expect(await send('{"jsonrpc":"2.0","id":"after","method":"components/list","params":{}}')).toMatchObject({ id: "after" });
    expect(stdoutLines.length).toBe(before + 1);
  });

  it("writes nothing but protocol lines to stdout; console output goes to stderr", () => {
    for (const line of stdoutLines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
    expect(stderr).toContain("this goes to stderr, not to the protocol stream");
    expect(stderr).toContain("console.dir goes to stderr too");
    expect(stderr).toContain("console.dirxml goes to stderr too");
  });
});

describe("review: a component that writes to process.stdout itself", () => {
  it("keeps stdout protocol-only: what it writes goes to stderr", async () => {
    const child = spawnServer("packages/stepflow/test/fixtures/stdout-writer.ts");
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      child.stdin!.write('{"jsonrpc":"2.0","id":"w","method":"components/execute","params":{"component":"/write","input":1}}\n');
      await until(() => stdout.includes('"id":"w"'));
      expect(stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line))).toEqual([{ jsonrpc: "2.0", id: "w", result: { output: 1 } }]);
      expect(stderr).toContain("written straight to stdout");
      expect(stderr).toContain("a buffer written to stdout");
    } finally {
      child.kill();
    }
  });
});

describe("a stdio server whose stdout breaks", () => {
  it("closes its peer on EPIPE instead of dying of an uncaught error, and ends with its stdin", async () => {
    const child = spawnServer("packages/stepflow/test/fixtures/stdout-writer.ts");
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
    try {
      // Started once console output reaches stderr; then nobody reads its stdout any more.
      await until(() => stderr.includes("this goes to stderr"));
      child.stdout!.destroy();
      for (let i = 0; i < 3; i++) child.stdin!.write(`{"jsonrpc":"2.0","id":${i},"method":"components/execute","params":{"component":"/write","input":1}}\n`);
      await new Promise((r) => setTimeout(r, 300));
      child.stdin!.end();
      expect(await exited).toBe(0);
      expect(stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
    } finally {
      child.kill();
    }
  });
});

describe("the component server over Streamable HTTP, spoken to in raw requests", () => {
  let server: RunningHttpServer;
  beforeAll(async () => (server = await serveHttp(components)));
  afterAll(() => server.close());
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(server.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body });

  it("GET /health", async () => {
    const response = await fetch(`${server.url}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "healthy" });
  });

  it.each([
    ["a body that is not JSON", "{nope", {}, 400, { error: { code: -32600 } }],
    ["a JSON body that is not a message", '{"hello":1}', {}, 400, { error: { code: -32600 } }],
    ["the wrong Content-Type", "{}", { "content-type": "text/plain" }, 415, { error: "Content-Type must be application/json" }],
    ["an Accept without event-stream", "{}", { accept: "application/json" }, 406, { error: "Accept header must include application/json and text/event-stream" }],
  ])("answers %s with its status", async (_name, body, headers, status, expected) => {
    const response = await post(body, headers);
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject(expected);
  });

  it("answers a notification and a posted response with 202", async () => {
    expect((await post('{"jsonrpc":"2.0","method":"initialized","params":{}}')).status).toBe(202);
    expect((await post('{"jsonrpc":"2.0","id":"unknown","result":{"blob_id":"x"}}')).status).toBe(202);
  });

  it("answers a context-free component with JSON and component failures inside a 200", async () => {
    const ok = await post('{"jsonrpc":"2.0","id":1,"method":"components/execute","params":{"component":"/echo","input":2}}');
    expect(ok.headers.get("content-type")).toContain("application/json");
    expect(await ok.json()).toEqual({ jsonrpc: "2.0", id: 1, result: { output: 2 } });
    const failed = await post('{"jsonrpc":"2.0","id":2,"method":"components/execute","params":{"component":"/fail","input":{"message":"no"}}}');
    expect(failed.status).toBe(200);
    expect(await failed.json()).toMatchObject({ id: 2, error: { code: -32004, message: "no" } });
  });

  it("answers a component that uses its context with SSE: the call back, then the final response", async () => {
    const response = await post('{"jsonrpc":"2.0","id":"s","method":"components/execute","params":{"component":"/blob_roundtrip","input":{"value":5}}}');
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("\n\n")) text += (await reader.read()).value ?? "";
    const callBack = JSON.parse(text.split("\n\n")[0]!.replace(/^data: /, ""));
    expect(callBack).toMatchObject({ jsonrpc: "2.0", method: "blobs/put", params: { data: 5 } });
    expect((await post(JSON.stringify({ jsonrpc: "2.0", id: callBack.id, result: { blob_id: "b1" } }))).status).toBe(202);
    while ((text.match(/\n\n/g) ?? []).length < 2) text += (await reader.read()).value ?? "";
    const getBlob = JSON.parse(text.split("\n\n")[1]!.replace(/^data: /, ""));
    expect(getBlob).toMatchObject({ method: "blobs/get", params: { blob_id: "b1" } });
    expect((await post(JSON.stringify({ jsonrpc: "2.0", id: getBlob.id, result: { data: 5 } }))).status).toBe(202);
    for (let done = false; !done; ) {
      const chunk = await reader.read();
      done = chunk.done;
      text += chunk.value ?? "";
    }
    const final = JSON.parse(text.split("\n\n")[2]!.replace(/^data: /, ""));
    expect(final).toEqual({ jsonrpc: "2.0", id: "s", result: { output: { blob_id: "b1", data: 5 } } });
  });
});
