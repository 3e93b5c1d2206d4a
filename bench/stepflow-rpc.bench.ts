/**
 * StepFlow component calls per second over stdio (and HTTP), one at a time and many in flight:
 * flowspec's client and server against a raw newline-JSON (or bare HTTP) echo, the least a
 * JSON-RPC exchange can cost, and against @modelcontextprotocol/sdk doing the same echo (a
 * reference column, no target), all in one run. Target: ≥ 0.8× the raw echo over stdio, at 1 and
 * at 1,000 in flight.
 *
 * The raw echo is as strong as flowspec: both its client and its server batch the lines of one
 * turn of the event loop into one write, as flowspec's stream peer does (a write per message made
 * flowspec "beat the floor"), and split lines without readline. The subjects are measured in
 * alternating rounds through every order; each figure is a median, so a load change on a shared
 * machine hits all of them alike. `… stdio` (or `http`) measures one transport; `BENCH_ROUNDS=1`
 * prints every round.
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
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { connectHttp, connectStdio, type RuntimeServices } from "@flowspec/stepflow/client";
import { report, type Figure } from "./support/report.js";
import { alternatingRounds, median, range, ratios } from "./support/rounds.js";

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

/**
 * Lines written in one turn of the event loop go out in one write, flushed early at BATCH_CHARS:
 * what flowspec's stream peer does (packages/runtime/src/node/streams.ts), so the raw echo batches
 * as much as flowspec. The same code is in fixtures/rpc-server.mjs for the raw server.
 */
const BATCH_CHARS = 4096;
function batchedWriter(write: (text: string) => void): (line: string) => void {
  let queued = "";
  const flush = () => {
    const text = queued;
    queued = "";
    if (text !== "") write(text);
  };
  return (line) => {
    if (queued === "") process.nextTick(flush);
    queued += line + "\n";
    if (queued.length >= BATCH_CHARS) flush();
  };
}

/** Calls `onLine` for each complete line of a text stream. */
function onLines(input: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let buffer = "";
  input.setEncoding("utf8");
  input.on("data", (chunk: string) => {
    buffer += chunk;
    let start = 0;
    for (let newline = buffer.indexOf("\n"); newline !== -1; newline = buffer.indexOf("\n", start)) {
      onLine(buffer.slice(start, newline));
      start = newline + 1;
    }
    buffer = buffer.slice(start);
  });
}

/** A bare newline-JSON client: a pending map, a line splitter and batched writes. */
function rawStdio(): Subject {
  const child = startChild("raw-stdio");
  const pending = new Map<number, (value: unknown) => void>();
  let id = 0;
  onLines(child.stdout!, (line) => {
    const message = JSON.parse(line);
    pending.get(message.id)!(message.result.output);
    pending.delete(message.id);
  });
  const writeLine = batchedWriter((text) => child.stdin!.write(text));
  return {
    call: (input) =>
      new Promise((resolve) => {
        const n = ++id;
        pending.set(n, resolve);
        writeLine(JSON.stringify({ jsonrpc: "2.0", id: n, method: "components/execute", params: { component: "/echo", input } }));
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
/** Calls in flight and calls per round, by transport (HTTP is ~10× slower per call). */
const loads: Record<string, { inFlight: number; total: number }[]> = {
  stdio: [
    { inFlight: 1, total: 6000 },
    { inFlight: 1000, total: 20000 },
  ],
  http: [
    { inFlight: 1, total: 500 },
    { inFlight: 100, total: 1000 },
  ],
};
const ROUNDS = 9;

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

console.log(`median of ${ROUNDS} alternating rounds per subject, through every order (load average ${loadavg()[0]!.toFixed(1)})`);
console.log("| CPUs | transport | in flight | flowspec | raw baseline | MCP SDK (reference) | flowspec / raw | flowspec / MCP |");
console.log("|---|---|---|---|---|---|---|---|");
const only = process.argv[2];
const sections = cpuModes.flatMap((mode) => Object.entries(subjects).filter(([name]) => !only || name === only).map(([transport, kinds]) => ({ mode, transport, kinds })));
const figures: Figure[] = [];
for (const { mode, transport, kinds } of sections) {
  if (mode.cpus) pin(mode.cpus);
  const running = Object.fromEntries(await Promise.all(Object.entries(kinds).map(async ([kind, start]) => [kind, await start()] as const)));
  for (const { inFlight, total } of loads[transport]!) {
    const round = (subject: Subject) => async () => {
      // Let the previous subject's processes finish their deferred work (timers, GC) first; outside
      // the timed region, and the same for every subject.
      await new Promise((settle) => setTimeout(settle, 50));
      return measure(subject.call, total, inFlight);
    };
    const rounds = Object.fromEntries(Object.entries(running).map(([kind, subject]) => [kind, round(subject)]));
    // Two rounds of warm-up (JIT, connection pools, CPU clocks), then the measured ones.
    await alternatingRounds(rounds, 2);
    const rates = await alternatingRounds(rounds, ROUNDS);
    if (process.env.BENCH_ROUNDS) console.log(JSON.stringify(Object.fromEntries(Object.entries(rates).map(([k, v]) => [k, v.map(Math.round)]))));
    const [flowspec, raw, mcpRate] = [median(rates.flowspec!), median(rates.raw!), median(rates.mcp!)];
    const toRaw = ratios(rates.flowspec!, rates.raw!);
    const f = (n: number) => `${Math.round(n).toLocaleString("en")}/s`;
    console.log(`| ${mode.label} | ${transport} | ${inFlight} | ${f(flowspec)} | ${f(raw)} | ${f(mcpRate)} | **${median(toRaw).toFixed(2)}×** | ${(flowspec / mcpRate).toFixed(2)}× |`);
    figures.push({
      name: `JSON-RPC over ${transport}, ${inFlight.toLocaleString("en")} in flight, ${mode.label}: flowspec vs an equally batched raw ${transport === "stdio" ? "newline-JSON" : "node:http"} echo`,
      value: median(toRaw),
      unit: "×",
      range: range(toRaw),
      rounds: ROUNDS,
      target: { op: ">=", value: transport === "stdio" ? 0.8 : 0.7 },
      baseline: `flowspec ${f(flowspec)}, raw echo ${f(raw)}, MCP SDK ${f(mcpRate)} (reference: flowspec ${(flowspec / mcpRate).toFixed(2)}×)`,
      floor: `the raw echo is the floor: ${f(raw)}`,
    });
  }
  for (const subject of Object.values(running)) await subject.close();
}
console.log("");
for (const figure of figures) report(figure);
process.exit(0);
