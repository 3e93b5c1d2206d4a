/**
 * Agent Service stream consumption: events/s through RunsClient.stream() (frame scanning,
 * `response` validation of every envelope, sequence bookkeeping, async iteration) against a bare
 * eventsource-parser loop that only JSON.parses each event: same local server, same completed run,
 * same SSE bytes. Beside it, the floor: the same response read as bytes and thrown away (no
 * decoding, no parsing). Targets: stream() ≥ 0.9× the bare parser and ≥ 0.8× the bytes-only read,
 * medians of 9 alternating rounds (support/rounds.ts).
 *
 * Two settings, both printed (the targets are on the first):
 * 1. the server in its own process, as a real service is: what a consumer sees (headline figure);
 * 2. the server in this process, sharing the client's CPU: this makes the client's own cost visible.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { createParser } from "eventsource-parser";
import { RunsClient, ROUTES } from "@flowspec/agent-service";
import { startTestServer } from "@flowspec/agent-service/testing";
import { loadavg } from "node:os";
import { report } from "./support/report.js";
import { alternatingRounds, median, range, ratios } from "./support/rounds.js";

const EVENTS = 50_000;
const ROUNDS = 9;

interface Target {
  url: string;
  orgId: string;
  token: string;
  runId: string;
  total: number;
}

async function bareParser(target: Target): Promise<number> {
  const response = await fetch(target.url + ROUTES.stream(target.orgId, target.runId), {
    headers: { authorization: `Bearer ${target.token}`, accept: "text/event-stream" },
  });
  let count = 0;
  const parser = createParser({
    onEvent: (event) => {
      JSON.parse(event.data);
      if (event.event === "run.stream.event") count++;
    },
  });
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) parser.feed(decoder.decode(chunk.value, { stream: true }));
  return count;
}

/** The floor: the response's bytes, read and dropped; the count comes from the run, not the bytes. */
async function bytesOnly(target: Target): Promise<number> {
  const response = await fetch(target.url + ROUTES.stream(target.orgId, target.runId), {
    headers: { authorization: `Bearer ${target.token}`, accept: "text/event-stream" },
  });
  let bytes = 0;
  const reader = response.body!.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) bytes += chunk.value.byteLength;
  if (bytes === 0) throw new Error("empty stream");
  return target.total;
}

async function viaStream(target: Target): Promise<number> {
  const client = new RunsClient({ baseUrl: target.url, orgId: target.orgId, token: target.token });
  let count = 0;
  for await (const _ of client.stream(target.runId)) count++;
  return count;
}

async function measure(target: Target, fn: (t: Target) => Promise<number>): Promise<number> {
  // Let both processes finish the previous round's deferred work (sockets, timers) first. No forced
  // GC here: a full GC between rounds made V8 drop optimized code that referred to the last round's
  // objects, so every round ran cold and paid its compiles again (the stream decoder alone is a
  // 15–45 ms optimizing compile, on the two cores the server also uses). That measured JIT warm-up
  // after a GC, not throughput; both paths ran faster without it.
  await new Promise((settle) => setTimeout(settle, 50));
  const cpu = process.cpuUsage();
  const start = performance.now();
  const count = await fn(target);
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  (clientCpu.get(fn) ?? clientCpu.set(fn, []).get(fn)!).push((used.user + used.system) / count);
  if (count !== target.total) throw new Error(`expected ${target.total} events, got ${count}`);
  return count / seconds;
}

/** This process's CPU µs per event, per subject: the client's own cost, which load does not stretch. */
const clientCpu = new Map<(t: Target) => Promise<number>, number[]>();

const fmt = (n: number) => `${Math.round(n).toLocaleString("en-US")} events/s`;

interface Comparison {
  stream: number[];
  bare: number[];
  bytes: number[];
}

async function compare(label: string, target: Target): Promise<Comparison> {
  const subjects = { bare: () => measure(target, bareParser), stream: () => measure(target, viaStream), bytes: () => measure(target, bytesOnly) };
  await alternatingRounds(subjects, 1); // warm-up
  clientCpu.clear();
  const rates = await alternatingRounds(subjects, ROUNDS);
  const cpu = (fn: (t: Target) => Promise<number>) => `${median(clientCpu.get(fn)!).toFixed(2)} µs`;
  console.log(`${label}: ${target.total} events over SSE, median of ${ROUNDS} alternating rounds (load average ${loadavg().map((l) => l.toFixed(2)).join(" ")})`);
  console.log(`  floor     bytes-only read                          ${fmt(median(rates.bytes)).padStart(18)}`);
  console.log(`  baseline  bare eventsource-parser + JSON.parse     ${fmt(median(rates.bare)).padStart(18)}`);
  console.log(`  stream()  RunsClient.stream                        ${fmt(median(rates.stream)).padStart(18)}`);
  console.log(`  ratio     ${median(ratios(rates.stream, rates.bare)).toFixed(2)}× the bare parser, ${median(ratios(rates.stream, rates.bytes)).toFixed(2)}× the bytes-only read`);
  console.log(`  client CPU per event (this process): bytes-only ${cpu(bytesOnly)}, bare parser ${cpu(bareParser)}, stream() ${cpu(viaStream)}`);
  return rates;
}

// 1. The server in its own process.
const child = spawn(process.execPath, ["--import", "tsx", new URL("./support/agent-service-server.ts", import.meta.url).pathname, String(EVENTS)], {
  stdio: ["pipe", "pipe", "inherit"],
});
const firstLine = await new Promise<string>((resolve, reject) => {
  createInterface({ input: child.stdout! }).once("line", resolve);
  child.once("exit", (code) => reject(new Error(`bench server exited with ${code}`)));
});
let headline: Comparison;
try {
  headline = await compare("server in its own process", JSON.parse(firstLine) as Target);
} finally {
  child.stdin!.end();
}

// 2. The server in this process.
const server = await startTestServer({
  script: async (ctx) => {
    ctx.setStatus("running");
    for (let i = 0; i < EVENTS; i++) ctx.emit({ type: "message.delta", messageId: "m-1", delta: `token ${i} ` });
  },
});
try {
  const client = new RunsClient({ baseUrl: server.url, orgId: server.orgId, token: server.token });
  const run = await client.create({ resourceType: "agent", resourceId: "bench", input: { mode: "agent", messages: [{ role: "user", content: "go" }] } });
  const final = await client.waitForCompletion(run.runId);
  await compare("server in this process (shares the client's CPU)", { url: server.url, orgId: server.orgId, token: server.token, runId: run.runId, total: final.eventSequence });
} finally {
  await server.close();
}
const load = loadavg().map((l) => l.toFixed(2)).join(" ");
const rates = `stream() ${fmt(median(headline.stream))}, bare parser ${fmt(median(headline.bare))}, bytes-only ${fmt(median(headline.bytes))} (load average ${load})`;
for (const [name, versus, goal] of [
  ["the bare SSE parser", headline.bare, 0.9],
  ["a bytes-only read", headline.bytes, 0.8],
] as const) {
  const ratio = ratios(headline.stream, versus);
  report({
    name: `Agent Service stream() vs ${name}, server in its own process`,
    value: median(ratio),
    unit: "×",
    range: range(ratio),
    rounds: ROUNDS,
    target: { op: ">=", value: goal },
    baseline: rates,
    floor: `bytes-only read ${fmt(median(headline.bytes))}; the bare parser is ${median(ratios(headline.bare, headline.bytes)).toFixed(2)}× it`,
  });
}
