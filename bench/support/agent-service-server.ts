/**
 * The Agent Service test server in a process of its own, for bench/agent-service.bench.ts: it
 * creates one completed run of `EVENTS` events, prints `{url, orgId, token, runId, total}` as one
 * JSON line, and serves until its stdin closes.
 */
import { RunsClient } from "@flowspec/agent-service";
import { startTestServer } from "@flowspec/agent-service/testing";

const events = Number(process.argv[2] ?? 50_000);
const server = await startTestServer({
  script: async (ctx) => {
    ctx.setStatus("running");
    for (let i = 0; i < events; i++) ctx.emit({ type: "message.delta", messageId: "m-1", delta: `token ${i} ` });
  },
});
const client = new RunsClient({ baseUrl: server.url, orgId: server.orgId, token: server.token });
const run = await client.create({ resourceType: "agent", resourceId: "bench", input: { mode: "agent", messages: [{ role: "user", content: "go" }] } });
const final = await client.waitForCompletion(run.runId);
console.log(JSON.stringify({ url: server.url, orgId: server.orgId, token: server.token, runId: run.runId, total: final.eventSequence }));
process.stdin.resume();
process.stdin.on("end", () => void server.close().then(() => process.exit(0)));
