/**
 * StepFlow component calls per second, one at a time and 100 in flight, over stdio and HTTP:
 * flowspec's client and server against a raw newline-JSON (or bare HTTP) echo, the least a
 * JSON-RPC exchange can cost, and against @modelcontextprotocol/sdk doing the same echo, all in
 * one run. Targets: ≥ 3× the MCP SDK, ≥ 0.7× the raw baseline.
 *
 * The three run side by side and are measured in alternating rounds; each figure is a median, so a
 * load change on a shared machine hits all three alike. `… stdio` (or `http`) measures one
 * transport; `BENCH_ROUNDS=1` prints every round.
 *
 * Where `taskset` exists (Linux) every measurement is made twice: with all processes on one CPU,
 * then on all CPUs. One call at a time, each side mostly sleeps until the other answers, and on a
 * VM waking a process on another virtual CPU costs tens of microseconds per hop: more than either
 * side's work, with a spread that swamps it (the same syscalls per call, 2-4x the time). On one CPU
 * the figures measure the software; the all-CPU rows show what this machine gives.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { EventEmitter, once } from "node:events";
import { Agent, request } from "node:http";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { connectHttp, connectStdio, type RuntimeServices } from "@flowspec/stepflow/client";
import { median, permutations } from "./support/rounds.js";

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

/**
 * A bare HTTP client: node:http POSTs on kept-alive connections (several times faster than fetch
 * on Node, so the stricter baseline), the body read whole and parsed.
 */
async function rawHttp(): Promise<Subject> {
  const child = startChild("raw-http");
  const url = new URL(await childUrl(child));
  const agent = new Agent({ keepAlive: true });
  let id = 0;
  return {
    call: (input) =>
      new Promise((resolve, reject) => {
        const body = JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "components/execute", params: { component: "/echo", input } });
        const req = request(url, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => resolve((JSON.parse(Buffer.concat(chunks).toString()) as { result: { output: unknown } }).result.output));
        });
        req.on("error", reject);
        req.end(body);
      }),
    close: () => (agent.destroy(), void child.kill()),
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
const ROUNDS = 12;


/** This process's CPU affinity list as taskset prints it ("0-3,6"), or undefined without taskset. */
function affinity(): string | undefined {
  try {
    return execFileSync("taskset", ["-cp", String(process.pid)], { encoding: "utf8" }).split(":").pop()!.trim();
  } catch {
    return undefined;
  }
}
/** Puts every thread of this process on `cpus`; the subjects' processes started afterwards inherit it. */
function pin(cpus: string): void {
  execFileSync("taskset", ["-a", "-cp", cpus, String(process.pid)], { stdio: "ignore" });
}
const allowed = affinity();
const firstCpu = allowed?.match(/^\d+/)?.[0];
const cpuCount = availableParallelism();
const cpuModes =
  allowed && firstCpu && cpuCount > 1
    ? [
        { label: "1 CPU", cpus: firstCpu },
        { label: `${cpuCount} CPUs`, cpus: allowed },
      ]
    : [{ label: `${cpuCount} CPU${cpuCount > 1 ? "s" : ""}`, cpus: undefined }];

console.log(`median of ${ROUNDS} alternating rounds per subject (load changes on a shared machine hit all three alike)`);
console.log("| CPUs | transport | in flight | flowspec | raw baseline | MCP SDK | flowspec / raw | flowspec / MCP |");
console.log("|---|---|---|---|---|---|---|---|");
const only = process.argv[2];
const sections = cpuModes.flatMap((mode) => Object.entries(subjects).filter(([name]) => !only || name === only).map(([transport, kinds]) => ({ mode, transport, kinds })));
for (const { mode, transport, kinds } of sections) {
  if (mode.cpus) pin(mode.cpus);
  const running = Object.fromEntries(await Promise.all(Object.entries(kinds).map(async ([kind, start]) => [kind, await start()] as const)));
  for (const inFlight of [1, 100]) {
    const total = transport === "stdio" ? (inFlight === 1 ? 6000 : 10000) : inFlight === 1 ? 500 : 1000;
    const rates: Record<string, number[]> = {};
    // Two rounds of warm-up (JIT, connection pools, CPU clocks), then the measured ones. The order
    // cycles through every permutation, so no subject always runs first, last or right after another
    // (what ran just before measurably changes a subject's rate).
    const orders = permutations(Object.entries(running));
    for (let round = -2; round < ROUNDS; round++) {
      for (const [kind, subject] of orders[(round + 2) % orders.length]!) {
        // Let the previous subject's processes finish their deferred work (GC, timers) first.
        globalThis.gc?.();
        await new Promise((settle) => setTimeout(settle, 50));
        const rate = await measure(subject.call, total, inFlight);
        if (round >= 0) (rates[kind] ??= []).push(rate);
      }
    }
    if (process.env.BENCH_ROUNDS) console.log(JSON.stringify(Object.fromEntries(Object.entries(rates).map(([k, v]) => [k, v.map(Math.round)]))));
    const [flowspec, raw, mcp] = [median(rates.flowspec!), median(rates.raw!), median(rates.mcp!)];
    const f = (n: number) => `${Math.round(n).toLocaleString("en")}/s`;
    console.log(`| ${mode.label} | ${transport} | ${inFlight} | ${f(flowspec)} | ${f(raw)} | ${f(mcp)} | **${(flowspec / raw).toFixed(2)}×** | **${(flowspec / mcp).toFixed(2)}×** |`);
  }
  for (const subject of Object.values(running)) await subject.close();
}
process.exit(0);
