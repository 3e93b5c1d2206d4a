import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { RunsClient } from "@flowspec/agent-service";

// The collector, for a heap figure that holds only what is still reachable.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const EVENTS = 40_000;
const PAD = "x".repeat(400);
const frame = (sequence: number) =>
  `id: ${sequence}\nevent: run.stream.event\ndata: {"runId":"r","threadId":"t","sequence":${sequence},"event":{"type":"message.delta","messageId":"m","delta":"${PAD}","eventId":"e${sequence}","createdAt":"2026-11-22T22:00:00.000Z"}}\n\n`;

/** An SSE body made as it is read, 100 frames a chunk (about 20 MB in all), ending with the terminal frame. */
function body(): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = 1;
  return new ReadableStream({
    pull(controller) {
      if (next > EVENTS) {
        controller.enqueue(encoder.encode(`event: run.stream.end\ndata: {"type":"end","runId":"r","status":"completed","lastSequence":${EVENTS}}\n\n`));
        controller.close();
        return;
      }
      let text = "";
      for (let i = 0; i < 100; i++) text += frame(next++);
      controller.enqueue(encoder.encode(text));
    },
  });
}

describe("RunsClient.stream memory", () => {
  it("keeps nothing of what it has delivered: memory stays flat over a long stream", async () => {
    const fetch = async () => new Response(body(), { headers: { "content-type": "text/event-stream" } });
    const client = new RunsClient({ baseUrl: "http://127.0.0.1:9", orgId: "o", token: "t", fetch });
    const used = () => {
      gc();
      const { heapUsed, arrayBuffers } = process.memoryUsage();
      return heapUsed + arrayBuffers;
    };
    let count = 0;
    let atStart = 0;
    let growth = 0;
    for await (const envelope of client.stream("r")) {
      count++;
      if (envelope.sequence === 1_000) atStart = used();
      if (envelope.sequence === EVENTS - 1_000) growth = used() - atStart;
    }
    expect(count).toBe(EVENTS);
    // About 20 MB passed through between the two readings; retaining it would show here.
    expect(growth).toBeLessThan(5_000_000);
  });
});
