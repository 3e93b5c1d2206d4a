/**
 * agents.json executor overhead: a three-action flow (create → read → update, chained on response
 * ids) through runFlow, against the same three HTTP calls made with plain fetch, on the same local
 * server in the same run. Target: executor overhead under 15%.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { agentsJson, load, loadSources, runFlow, type SourceResolver } from "@flowspec/agents-json";
import { median, permutations } from "./support/rounds.js";

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
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const options = { sources, servers: { items: base }, credentials: { items: { bearer: { token: "t0k3n" } } } };
const input = { parameters: { fields: "name" }, requestBody: { name: "widget" } };

async function viaExecutor(): Promise<void> {
  const { result } = await runFlow(doc, "create_read_update", input, options);
  if (!(result.success as { id?: string }).id) throw new Error("unexpected result");
}

async function viaFetch(): Promise<void> {
  const headers = { authorization: "Bearer t0k3n", accept: "application/json" };
  const json = { ...headers, "content-type": "application/json" };
  const created = (await (await fetch(`${base}/items`, { method: "POST", headers: json, body: JSON.stringify({ name: "widget" }) })).json()) as { id: string };
  const read = (await (await fetch(`${base}/items/${encodeURIComponent(created.id)}?fields=name`, { headers })).json()) as { id: string; name: string };
  const updated = (await (await fetch(`${base}/items/${encodeURIComponent(read.id)}`, { method: "PATCH", headers: json, body: JSON.stringify({ name: read.name }) })).json()) as { id: string };
  if (!updated.id) throw new Error("unexpected result");
}

async function time(run: () => Promise<void>, iterations: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < iterations; i++) await run();
  return (performance.now() - started) / iterations;
}


// Warm up every path, then alternate single runs so load changes on a shared machine hit all of
// them equally; each figure is the median of the individual run times. The order of the paths
// cycles through every permutation: a fixed order measurably slows whichever path runs right after
// the baseline (by 2–3% in this bench), which would bias the ratio.
async function alternate(paths: (() => Promise<void>)[], runs: number): Promise<number[][]> {
  const times = paths.map(() => [] as number[]);
  const orders = permutations(paths.map((_, p) => p));
  for (let i = 0; i < runs; i++) {
    if (i % 500 === 0) (globalThis as { gc?: () => void }).gc?.();
    for (const p of orders[i % orders.length]!) {
      const started = performance.now();
      await paths[p]!();
      times[p]!.push(performance.now() - started);
    }
  }
  return times;
}
// Plain fetch sets no timeout; the executor's default is a 30 s timeout per request (an abort signal
// per call), so it is measured both ways.
const noTimeoutOptions = { ...options, timeoutMs: 0 };
async function viaExecutorNoTimeout(): Promise<void> {
  const { result } = await runFlow(doc, "create_read_update", input, noTimeoutOptions);
  if (!(result.success as { id?: string }).id) throw new Error("unexpected result");
}
await time(viaFetch, 300);
await time(viaExecutor, 300);
await time(viaExecutorNoTimeout, 300);
const runs = 2000;
const [fetchTimes, executorTimes, executorNoTimeoutTimes] = (await alternate([viaFetch, viaExecutor, viaExecutorNoTimeout], runs)) as [number[], number[], number[]];
server.close();

const baseline = median(fetchTimes);
const executor = median(executorTimes);
console.log(`three-action flow on a loopback server, ${runs} alternating runs of each, median per run:`);
console.log(`  plain fetch (baseline): ${(baseline * 1000).toFixed(0)} µs`);
console.log(`  runFlow:                ${(executor * 1000).toFixed(0)} µs`);
console.log(`  ratio runFlow / fetch:  ${(executor / baseline).toFixed(3)}  (overhead ${((executor / baseline - 1) * 100).toFixed(1)}%, target < 15%)`);
const executorNoTimeout = median(executorNoTimeoutTimes);
console.log(`  runFlow, timeoutMs: 0:  ${(executorNoTimeout * 1000).toFixed(0)} µs  (no per-call timeout, like the baseline)`);
console.log(`  ratio:                  ${(executorNoTimeout / baseline).toFixed(3)}  (overhead ${((executorNoTimeout / baseline - 1) * 100).toFixed(1)}%)`);

// The executor's own cost, without the network: an in-memory fetch for both paths.
const reply = () => new Response('{"id":"i1","name":"widget"}', { status: 200, headers: { "content-type": "application/json", "content-length": "27" } });
const memoryFetch = (async () => reply()) as typeof fetch;
const memoryOptions = { ...options, fetch: memoryFetch };
const memoryExecutor = async () => void (await runFlow(doc, "create_read_update", input, memoryOptions));
const memoryDirect = async () => {
  for (let i = 0; i < 3; i++) await (await memoryFetch(`${base}/items`, { method: "POST", headers: { authorization: "Bearer t0k3n" }, body: "{}" })).json();
};
await time(memoryDirect, 500);
await time(memoryExecutor, 500);
const [memoryDirectTimes, memoryExecutorTimes] = (await alternate([memoryDirect, memoryExecutor], runs)) as [number[], number[]];
const memoryBaseline = median(memoryDirectTimes);
const memoryExecutorTime = median(memoryExecutorTimes);
console.log(`same flow with an in-memory fetch (executor CPU cost, no network):`);
console.log(`  3 in-memory calls (baseline): ${(memoryBaseline * 1000).toFixed(0)} µs`);
console.log(`  runFlow:                      ${(memoryExecutorTime * 1000).toFixed(0)} µs  (executor work ≈ ${((memoryExecutorTime - memoryBaseline) * 1000).toFixed(0)} µs per flow, ratio ${(memoryExecutorTime / memoryBaseline).toFixed(2)})`);
