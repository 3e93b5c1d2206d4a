/**
 * Agent Service: build a create-run command, create the run, watch its events as they stream
 * (resuming on its own when the connection drops), answer the interaction it asks for, and wait
 * for the final run — against the local test server, which this example starts and stops itself.
 */
import { agentRun, callable, RunsClient, type Run } from "@flowspec/agent-service";
import { echoScript, startTestServer } from "@flowspec/agent-service/testing";

// A local Agent Service whose runs ask for approval, then echo the last message word by word.
const server = await startTestServer({
  tickMs: 2,
  script: async (ctx) => {
    ctx.setStatus("running");
    const answer = await ctx.requestInteraction({ question: "Look up the order?" }, "approval_required");
    ctx.emit({ type: "state.updated", payload: { approved: answer.decision === "approve" } });
    return echoScript(ctx);
  },
});
// Make the stream drop twice mid-run, to show it resumes without losing or repeating events.
server.fault({ route: "stream", dropAfterEvents: 3, partialFrame: true, times: 2 });

try {
  const client = new RunsClient({ baseUrl: server.url, orgId: server.orgId, token: server.token });

  const command = agentRun("agent-support")
    .message("user", "Where is my order 42?")
    .callable(callable.local({ alias: "orders", resourceType: "tool", resourceId: "tool-orders" }))
    .context("ctx-customer-001")
    .idempotencyKey("order-42-question")
    .build();
  const run = await client.create(command);
  console.log(`created ${run.runId} (${run.resourceType} ${run.resourceId}), status ${run.status}`);

  const stream = client.stream(run.runId, {
    onReconnect: ({ lastSequence, reason }) => console.log(`  … connection dropped after #${lastSequence} (${reason}); resuming`),
  });
  for await (const { sequence, event } of stream) {
    const detail = event.type === "run.status.changed" ? event.status : JSON.stringify(event.delta ?? event.content ?? event.payload ?? "");
    console.log(`  #${sequence} ${event.type} ${detail}`);
    if (event.type === "interaction.requested" && event.interactionId) {
      await client.respondToInteraction(run.runId, event.interactionId, { decision: "approve" });
      console.log(`  (approved interaction ${event.interactionId})`);
    }
  }
  console.log(`stream ended: ${stream.terminal?.status}, ${stream.lastSequence} events, ${stream.reconnects} reconnects`);

  const final: Run = await client.waitForCompletion(run.runId, { timeoutMs: 10_000 });
  console.log(`final run: ${final.status}, finished at ${final.finishedAt}`);
  const again = await client.create(command);
  console.log(`creating again with the same idempotency key returns the same run: ${again.runId === run.runId}`);
} finally {
  await server.close();
}
