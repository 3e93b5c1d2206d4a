/**
 * agents.json executor overhead: a three-action flow (create → read → update, chained on response
 * ids) through runFlow, against the same three HTTP calls made with plain fetch, on the same local
 * server in the same run. Both sides do the same work with the same options, in two pairings:
 * - runFlow with `timeoutMs: 0` vs plain fetch with no signal (neither can time out);
 * - runFlow with its default 30 s timeout vs plain fetch with one 30 s `AbortSignal.timeout` per
 *   flow (runFlow too makes one abort signal per run and hands it to each call).
 * Beside them, the floor: the same three calls with `node:http` and a keep-alive agent.
 * Target: ≤ 10% over plain fetch; every figure is the median of 9 alternating rounds.
 */
import { Agent, createServer, request } from "node:http";
import { loadavg } from "node:os";
import type { AddressInfo } from "node:net";
import { agentsJson, load, loadSources, runFlow, type SourceResolver } from "@flowspec/agents-json";
import { report } from "./support/report.js";
import { alternatingRounds, median, range, ratios } from "./support/rounds.js";

const openapi = {
  openapi: "3.1.0",
  info: { title: "Items", version: "1" },
  servers: [{ url: "https://items.invalid" }],
  components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
  security: [{ bearer: [] }],
  paths: {
    "/items": {
      post: {
        operationId: "create_item",
        requestBody: { required: true, content: { "application/json": { schema: { type: "object", properties: { name: { type: "string" } } } } } },
        responses: { "201": { description: "created", content: { "application/json": { schema: { type: "object" } } } } },
      },
    },
    "/items/{id}": {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      get: { operationId: "get_item", parameters: [{ name: "fields", in: "query", schema: { type: "string" } }], responses: { "200": { description: "ok" } } },
      patch: {
        operationId: "update_item",
        requestBody: { content: { "application/json": { schema: { type: "object", properties: { name: { type: "string" } } } } } },
        responses: { "200": { description: "ok" } },
      },
    },
  },
};
const resolver: SourceResolver = { read: async (location) => ({ text: JSON.stringify(openapi), location: `https://items.invalid/${location}` }) };

const doc = load(
  agentsJson({ title: "Items", version: "1.0.0", description: "Bench" })
    .source("items", "openapi.json")
    .flow("create_read_update", { title: "Create, read, update", description: "Three chained calls" }, (flow) =>
      flow
        .parameter("fields", { type: "string" })
        .requestBody({ schema: { type: "object", properties: { name: { type: "string" } } }, required: true })
        .action("create", "items", "create_item")
        .action("read", "items", "get_item")
        .action("update", "items", "update_item")
        .link({ inputBody: true }, { action: "create", body: true })
        .link({ response: "create", path: "id" }, { action: "read", parameter: "id" })
        .link({ input: "fields" }, { action: "read", parameter: "fields" })
        .link({ response: "read", path: "id" }, { action: "update", parameter: "id" })
        .link({ response: "read", path: "name" }, { action: "update", body: "name" }),
    )
    .build(),
);
const sources = await loadSources(doc, { resolver });

let counter = 0;
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    res.writeHead(req.method === "POST" ? 201 : 200, { "content-type": "application/json" });
    const id = req.method === "POST" ? `i${++counter}` : (req.url ?? "").split("/")[2]!.split("?")[0];
    res.end(JSON.stringify({ id, name: "widget", received: chunks.length }));
  });
});
await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
const port = (server.address() as AddressInfo).port;
const base = `http://127.0.0.1:${port}`;
const options = { sources, servers: { items: base }, credentials: { items: { bearer: { token: "t0k3n" } } } };
const noTimeoutOptions = { ...options, timeoutMs: 0 };
const input = { parameters: { fields: "name" }, requestBody: { name: "widget" } };

async function viaExecutor(runOptions: typeof options): Promise<void> {
  const { result } = await runFlow(doc, "create_read_update", input, runOptions);
  if (!(result.success as { id?: string }).id) throw new Error("unexpected result");
}

async function viaFetch(signal: AbortSignal | undefined): Promise<void> {
  const headers = { authorization: "Bearer t0k3n", accept: "application/json" };
  const json = { ...headers, "content-type": "application/json" };
  const created = (await (await fetch(`${base}/items`, { method: "POST", headers: json, body: JSON.stringify({ name: "widget" }), signal })).json()) as { id: string };
  const read = (await (await fetch(`${base}/items/${encodeURIComponent(created.id)}?fields=name`, { headers, signal })).json()) as { id: string; name: string };
  const updated = (await (await fetch(`${base}/items/${encodeURIComponent(read.id)}`, { method: "PATCH", headers: json, body: JSON.stringify({ name: read.name }), signal })).json()) as { id: string };
  if (!updated.id) throw new Error("unexpected result");
}

/** The floor: the same three calls over `node:http` with a keep-alive agent, no fetch layer. */
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
function httpJson(method: string, path: string, body?: string): Promise<{ id: string; name: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: "Bearer t0k3n", accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    const req = request({ host: "127.0.0.1", port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}
async function viaNodeHttp(): Promise<void> {
  const created = await httpJson("POST", "/items", JSON.stringify({ name: "widget" }));
  const read = await httpJson("GET", `/items/${encodeURIComponent(created.id)}?fields=name`);
  const updated = await httpJson("PATCH", `/items/${encodeURIComponent(read.id)}`, JSON.stringify({ name: read.name }));
  if (!updated.id) throw new Error("unexpected result");
}

const FLOWS = 300; // per subject per round
const ROUNDS = 9;
/**
 * Mean µs per flow over `FLOWS` flows in a row (wall clock, the figure). The process's CPU time per
 * flow is kept too: client and server share this process, so it is the work both sides cost,
 * which a machine shared with other jobs does not stretch as it stretches the wall clock.
 */
const cpuPerFlow: Record<string, number[]> = {};
async function perFlow(name: string, run: () => Promise<void>): Promise<number> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < FLOWS; i++) await run();
  const wall = ((performance.now() - started) * 1000) / FLOWS;
  const used = process.cpuUsage(cpu);
  (cpuPerFlow[name] ??= []).push((used.user + used.system) / FLOWS);
  return wall;
}
const subjects = {
  fetch: () => perFlow("fetch", () => viaFetch(undefined)),
  runFlowNoTimeout: () => perFlow("runFlowNoTimeout", () => viaExecutor(noTimeoutOptions)),
  fetchTimeout: () => perFlow("fetchTimeout", () => viaFetch(AbortSignal.timeout(30_000))),
  runFlow: () => perFlow("runFlow", () => viaExecutor(options)),
  nodeHttp: () => perFlow("nodeHttp", viaNodeHttp),
};
await alternatingRounds(subjects, 2); // warm-up
for (const name in cpuPerFlow) delete cpuPerFlow[name];
const times = await alternatingRounds(subjects, ROUNDS);
server.close();
agent.destroy();

const loadAverage = loadavg().map((l) => l.toFixed(2)).join(" ");
const us = (values: number[]) => `${median(values).toFixed(0)} µs`;
const cpuOverhead = (executor: string, baseline: string) => {
  const overhead = ratios(cpuPerFlow[executor]!, cpuPerFlow[baseline]!).map((r) => (r - 1) * 100);
  return `CPU time of client and server per flow: ${us(cpuPerFlow[baseline]!)} vs ${us(cpuPerFlow[executor]!)}, overhead ${median(overhead).toFixed(1)}% (${range(overhead).map((v) => v.toFixed(1)).join("–")})`;
};
const floor = `node:http keep-alive, same three calls: ${us(times.nodeHttp)} per flow (plain fetch is ${(median(ratios(times.fetch, times.nodeHttp))).toFixed(2)}× it)`;
for (const [name, executor, baseline, baselineName, cpu] of [
  ["runFlow (timeoutMs: 0) vs plain fetch, no timeout on either side", times.runFlowNoTimeout, times.fetch, "plain fetch", cpuOverhead("runFlowNoTimeout", "fetch")],
  ["runFlow (default 30 s timeout) vs plain fetch with a 30 s timeout signal", times.runFlow, times.fetchTimeout, "fetch + AbortSignal.timeout", cpuOverhead("runFlow", "fetchTimeout")],
] as const) {
  const overhead = ratios(executor, baseline).map((r) => (r - 1) * 100);
  report({
    name: `agents.json executor overhead: ${name}`,
    value: median(overhead),
    unit: "%",
    range: range(overhead),
    rounds: ROUNDS,
    target: { op: "<=", value: 10 },
    baseline: `${baselineName} ${us(baseline)}, runFlow ${us(executor)} per three-call flow (load average ${loadAverage}); ${cpu}`,
    floor,
  });
}

// The executor's own cost, without the network: an in-memory fetch for both paths.
const reply = () => new Response('{"id":"i1","name":"widget"}', { status: 200, headers: { "content-type": "application/json", "content-length": "27" } });
const memoryFetch = (async () => reply()) as typeof fetch;
const memoryOptions = { ...noTimeoutOptions, fetch: memoryFetch };
const memory = await alternatingRounds(
  {
    direct: () =>
      perFlow("memoryDirect", async () => {
        for (let i = 0; i < 3; i++) await (await memoryFetch(`${base}/items`, { method: "POST", headers: { authorization: "Bearer t0k3n" }, body: "{}" })).json();
      }),
    executor: () => perFlow("memoryExecutor", async () => void (await runFlow(doc, "create_read_update", input, memoryOptions))),
  },
  ROUNDS,
);
console.log(`same flow with an in-memory fetch (the executor's own CPU cost, no network), median of ${ROUNDS} rounds:`);
console.log(`  3 in-memory calls: ${us(memory.direct)}; runFlow: ${us(memory.executor)} (executor work ≈ ${(median(memory.executor) - median(memory.direct)).toFixed(0)} µs per flow)`);
