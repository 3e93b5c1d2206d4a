import { describe, expect, it } from "vitest";
import { createFrameDecoder, type Frame } from "../src/client/frames.js";

const envelope = (sequence: number, delta = "é") =>
  JSON.stringify({ runId: "r", threadId: "t", sequence, event: { type: "message.delta", eventId: `e${sequence}`, createdAt: "2025-01-01T00:00:00Z", delta } });

const summary = (frames: Frame[]) =>
  frames.map((f) => (f.kind === "envelope" ? `env ${f.envelope.sequence} @${f.position.line}:${f.position.byteOffset}#${f.position.frameIndex}` : f.kind === "error" ? `error ${f.error.position.line}` : f.kind));

function feed(transport: "sse" | "ndjson", text: string, split: "whole" | "bytes") {
  const decoder = createFrameDecoder(transport);
  const bytes = new TextEncoder().encode(text);
  if (split === "whole") return decoder.push(bytes);
  const frames: Frame[] = [];
  for (let i = 0; i < bytes.length; i++) frames.push(...decoder.push(bytes.subarray(i, i + 1)));
  return frames;
}

const sse = [
  ": hello\r\n\r\n",
  `id: 1\r\nevent: run.stream.event\r\ndata: ${envelope(1)}\r\n\r\n`,
  `event: run.stream.keepalive\ndata: {"type":"keepalive"}\n\n\n`,
  `retry: 250\n\n`,
  `data: ${envelope(2)}\n\n`,
  `event: run.stream.end\ndata: {"type":"end","runId":"r","lastSequence":2}\n\n`,
  `data: ${envelope(3)}\n`, // unterminated: never emitted
].join("");

describe("frame decoder", () => {
  it.each(["whole", "bytes"] as const)("splits SSE into positioned frames (%s) and drops an unterminated trailing event", (split) => {
    const firstEventOffset = new TextEncoder().encode(": hello\r\n\r\n").length;
    const secondOffset = new TextEncoder().encode(sse.slice(0, sse.indexOf(`data: ${envelope(2)}`))).length;
    expect(summary(feed("sse", sse, split))).toEqual([
      "keepalive",
      `env 1 @3:${firstEventOffset}#1`,
      "keepalive",
      "retry",
      `env 2 @13:${secondOffset}#4`,
      "end",
    ]);
  });

  it.each(["whole", "bytes"] as const)("splits NDJSON into lines (%s), tolerating CRLF and blank lines", (split) => {
    const text = `${envelope(1)}\r\n\n  \n{"type":"keepalive"}\n${envelope(2)}\n{"type":"end","runId":"r","lastSequence":2}\n${envelope(3)}`;
    const secondOffset = new TextEncoder().encode(text.slice(0, text.indexOf(envelope(2)))).length;
    expect(summary(feed("ndjson", text, split))).toEqual(["env 1 @1:0#0", "keepalive", `env 2 @5:${secondOffset}#2`, "end"]);
  });

  it("reports bad JSON as an error frame at its line", () => {
    expect(summary(feed("ndjson", `${envelope(1)}\n{oops\n`, "whole"))).toEqual(["env 1 @1:0#0", "error 2"]);
  });
});
