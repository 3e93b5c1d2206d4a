/**
 * StepFlow component calls per second, one at a time and 100 in flight, over stdio and HTTP:
 * flowspec's client and server against a raw newline-JSON (or bare HTTP) echo, the least a
 * JSON-RPC exchange can cost, and against @modelcontextprotocol/sdk doing the same echo, all in
 * one run. Targets: ≥ 3× the MCP SDK, ≥ 0.7× the raw baseline.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { EventEmitter, once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { connectHttp, connectStdio, type RuntimeServices } from "@flowspec/stepflow/client";

const server = join(import.meta.dirname, "fixtures", "rpc-server.mjs");
// The MCP SDK's HTTP client adds an abort listener per call to one signal: keep its warnings
// out of the table.
EventEmitter.defaultMaxListeners = 0;
const noServices: RuntimeServices = { putBlob: () => "", getBlob: () => undefined, evaluateFlow: () => ({ outcome: "skipped" }) };
type Call = (input: unknown) => Promise<unknown>;
interface Subject {
  call: Call;
  close(): Promise<void> | void;
}

function startChild(mode: string): ChildProcess {
  return spawn(process.execPath, [server, mode], { cwd: import.meta.dirname, stdio: ["pipe", "pipe", "inherit"] });
}

async function childUrl(child: ChildProcess): Promise<string> {
  const [line] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
  return line;
}

/** A bare newline-JSON client: a pending map and a line splitter. */
function rawStdio(): Subject {
  const child = startChild("raw-stdio");
  const pending = new Map<number, (value: unknown) => void>();
  let id = 0;
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const message = JSON.parse(line);
    pending.get(message.id)!(message.result.output);
    pending.delete(message.id);
  });
  return {
    call: (input) =>
      new Promise((resolve) => {
        const n = ++id;
        pending.set(n, resolve);
        child.stdin!.write(JSON.stringify({ jsonrpc: "2.0", id: n, method: "components/execute", params: { component: "/echo", input } }) + "\n");
      }),
    close: () => void child.kill(),
  };
}

async function rawHttp(): Promise<Subject> {
  const child = startChild("raw-http");
  const url = await childUrl(child);
  let id = 0;
  return {
    call: async (input) => {
      const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "components/execute", params: { component: "/echo", input } }) });
      return ((await response.json()) as { result: { output: unknown } }).result.output;
    },
    close: () => void child.kill(),
  };
}

async function flowspecStdio(): Promise<Subject> {
  const client = await connectStdio({ command: process.execPath, args: [server, "flowspec-stdio"], cwd: import.meta.dirname, env: {} }, noServices);
  return { call: (input) => client.execute("/echo", input), close: () => client.close() };
}

async function flowspecHttp(): Promise<Subject> {
  const child = startChild("flowspec-http");
  const client = await connectHttp(await childUrl(child), noServices);
  return { call: (input) => client.execute("/echo", input), close: async () => (await client.close(), void child.kill()) };
}

async function mcp(transport: "stdio" | "http"): Promise<Subject> {
  const client = new Client({ name: "bench", version: "1.0.0" });
  let child: ChildProcess | undefined;
  if (transport === "stdio") {
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [server, "mcp-stdio"], cwd: import.meta.dirname }));
  } else {
    child = startChild("mcp-http");
    await client.connect(new StreamableHTTPClientTransport(new URL(await childUrl(child))));
  }
  return { call: (input) => client.callTool({ name: "echo", arguments: input as Record<string, unknown> }), close: async () => (await client.close(), child?.kill(), undefined) };
}

/** Calls per second: `total` calls, at most `inFlight` at once. */
async function measure(call: Call, total: number, inFlight: number): Promise<number> {
  const input = { text: "hello", n: 42, tags: ["a", "b"] };
  for (let i = 0; i < 200; i++) await call(input);
  const start = performance.now();
  let started = 0;
  const worker = async () => {
    while (started < total) {
      started++;
      await call(input);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return (total / (performance.now() - start)) * 1000;
}

const subjects: Record<string, Record<string, () => Subject | Promise<Subject>>> = {
  stdio: { flowspec: flowspecStdio, raw: rawStdio, mcp: () => mcp("stdio") },
  http: { flowspec: flowspecHttp, raw: rawHttp, mcp: () => mcp("http") },
};

console.log("| transport | in flight | flowspec | raw baseline | MCP SDK | flowspec / raw | flowspec / MCP |");
console.log("|---|---|---|---|---|---|---|");
for (const [transport, kinds] of Object.entries(subjects)) {
  for (const inFlight of [1, 100]) {
    const total = transport === "stdio" ? (inFlight === 1 ? 3000 : 20000) : inFlight === 1 ? 1500 : 5000;
    const rates: Record<string, number> = {};
    for (const [kind, start] of Object.entries(kinds)) {
      const subject = await start();
      rates[kind] = await measure(subject.call, total, inFlight);
      await subject.close();
    }
    const f = (n: number) => `${Math.round(n).toLocaleString("en")}/s`;
    console.log(`| ${transport} | ${inFlight} | ${f(rates.flowspec!)} | ${f(rates.raw!)} | ${f(rates.mcp!)} | **${(rates.flowspec! / rates.raw!).toFixed(2)}×** | **${(rates.flowspec! / rates.mcp!).toFixed(2)}×** |`);
  }
}
process.exit(0);
