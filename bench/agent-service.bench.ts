/**
 * Agent Service stream consumption: events/s through RunsClient.stream() (frame splitting,
 * validation of every envelope with the response variant, sequence bookkeeping, async iteration)
 * against a bare eventsource-parser loop that only JSON.parses each event — same local server,
 * same completed run, same SSE bytes. Target: stream() ≥ 0.8× the bare parser.
 */
import { createParser } from "eventsource-parser";
import { RunsClient, ROUTES } from "@flowspec/agent-service";
import { startTestServer } from "@flowspec/agent-service/testing";

const EVENTS = 50_000;
const ROUNDS = 7;

const server = await startTestServer({
  script: async (ctx) => {
    ctx.setStatus("running");
    for (let i = 0; i < EVENTS; i++) ctx.emit({ type: "message.delta", messageId: "m-1", delta: `token ${i} ` });
  },
});
const client = new RunsClient({ baseUrl: server.url, orgId: server.orgId, token: server.token });
const run = await client.create({ resourceType: "agent", resourceId: "bench", input: { mode: "agent", messages: [{ role: "user", content: "go" }] } });
const final = await client.waitForCompletion(run.runId);
const total = final.eventSequence;

async function bareParser(): Promise<number> {
  const response = await fetch(server.url + ROUTES.stream(server.orgId, run.runId), {
    headers: { authorization: `Bearer ${server.token}`, accept: "text/event-stream" },
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

async function viaStream(): Promise<number> {
  let count = 0;
  for await (const _ of client.stream(run.runId)) count++;
  return count;
}

async function measure(fn: () => Promise<number>): Promise<number> {
  globalThis.gc?.();
  const start = performance.now();
  const count = await fn();
  const seconds = (performance.now() - start) / 1000;
  if (count !== total) throw new Error(`expected ${total} events, got ${count}`);
  return count / seconds;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

try {
  await measure(bareParser); // warm-up
  await measure(viaStream);
  const bare: number[] = [];
  const stream: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    bare.push(await measure(bareParser));
    stream.push(await measure(viaStream));
  }
  const b = median(bare);
  const s = median(stream);
  const fmt = (n: number) => `${Math.round(n).toLocaleString("en-US")} events/s`;
  console.log(`run of ${total} events over SSE from the local test server, median of ${ROUNDS} rounds`);
  console.log(`  baseline  bare eventsource-parser + JSON.parse  ${fmt(b)}`);
  console.log(`  stream()  RunsClient.stream (validated, resumable) ${fmt(s)}`);
  console.log(`  ratio     stream() / bare parser = ${(s / b).toFixed(2)}× (target ≥ 0.80×) ${s / b >= 0.8 ? "met" : "NOT met"}`);
} finally {
  await server.close();
}
