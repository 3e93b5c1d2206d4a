import { createParser } from "eventsource-parser";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyJson, createFrameDecoder, type Frame } from "../src/client/frames.js";

// Property: under any chunking, the frame decoder delivers exactly the frames eventsource-parser
// makes of the whole body, each exactly once, in order. The case count is bounded so `npm test`
// stays fast; FC_NUM_RUNS raises it for a longer search.
const NUM_RUNS = Number(process.env.FC_NUM_RUNS ?? 300);

const envelope = (sequence: number, delta: string) =>
  JSON.stringify({ runId: "r", threadId: "t", sequence, event: { type: "message.delta", eventId: `e${sequence}`, createdAt: "2025-01-01T00:00:00Z", delta } });

const CHANNELS: (string | undefined)[] = [undefined, "run.stream.event", "run.stream.keepalive", "run.stream.end"];

/** A frame as both sides can describe it: kind and payload, no position. */
function describeFrame(frame: Frame): string {
  switch (frame.kind) {
    case "envelope":
      return `envelope ${frame.envelope.sequence} ${frame.envelope.event.type === "message.delta" ? frame.envelope.event.delta : ""}`;
    case "end":
      return `end ${frame.terminal.lastSequence}`;
    case "unknown":
      return `unknown ${frame.event} ${frame.raw}`;
    case "error":
      return `error ${frame.error.reason}`;
    case "retry":
      return `retry ${frame.ms}`;
    default:
      return frame.kind;
  }
}

/** What eventsource-parser alone makes of the whole body, classified as the decoder classifies. */
function reference(body: string): string[] {
  const out: string[] = [];
  const parser = createParser({
    onEvent: ({ event, data }) =>
      out.push(CHANNELS.includes(event) ? describeFrame(classifyJson(data, event, { transport: "sse", frameIndex: 0, line: 0, byteOffset: 0 })) : `unknown ${event} ${data}`),
    onComment: () => out.push("keepalive"),
    onRetry: (ms) => out.push(`retry ${ms}`),
  });
  parser.feed(body);
  return out;
}

const text = fc.string({ unit: fc.constantFrom("a", "é", "😀", " ", ":", "\\", '"', "\u2028"), maxLength: 12 });
const payload = fc.oneof(
  fc.tuple(fc.nat(50), text).map(([sequence, delta]) => envelope(sequence, delta)),
  fc.constant('{"type":"keepalive"}'),
  fc.nat(50).map((n) => `{"type":"end","runId":"r","lastSequence":${n}}`),
  fc.constantFrom("{oops", "plain", '{"hello":"world"}', ""),
);
const line = fc.oneof(
  { weight: 4, arbitrary: payload.map((p) => `data: ${p}`) },
  payload.map((p) => `data:${p}`),
  fc.constantFrom("data", "data:", "event", "id", "id:", ":", ": comment", "retry: 250", "retry: x", "unknown: 1"),
  { weight: 2, arbitrary: fc.constantFrom(...CHANNELS.filter(Boolean), "other.thing", "").map((name) => `event: ${name}`) },
  fc.nat(99).map((n) => `id: ${n}`),
);
const ending = fc.constantFrom("\n", "\r\n", "\r");
/** A block: lines with any line ends, then its blank line. A CR followed by a lone LF would join into one CR LF, so a blank line after a CR is itself CR or CR LF. */
const block = fc.tuple(fc.array(fc.tuple(line, ending), { minLength: 1, maxLength: 5 }), ending).map(([lines, blank]) => {
  const last = lines[lines.length - 1]![1];
  return lines.map(([l, e]) => l + e).join("") + (last === "\r" && blank === "\n" ? "\r\n" : blank);
});
const body = fc.array(block, { minLength: 1, maxLength: 8 }).map((blocks) => blocks.join("") + "\n\n");

/** Cut points in [1, size): the body split into chunks at each. */
const cuts = (size: number) => fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, size - 1) }), { maxLength: Math.min(40, size) }).map((points) => points.sort((a, b) => a - b));

describe("the frame decoder under random chunking", () => {
  it("delivers exactly the frames eventsource-parser gives, each once, in order", () => {
    fc.assert(
      fc.property(
        body.chain((text) => {
          const bytes = new TextEncoder().encode(text);
          return fc.tuple(fc.constant(text), fc.constant(bytes), cuts(bytes.length));
        }),
        ([text, bytes, points]) => {
          const decoder = createFrameDecoder("sse");
          const frames: string[] = [];
          let from = 0;
          for (const at of [...points, bytes.length]) {
            frames.push(...decoder.push(bytes.subarray(from, at)).map(describeFrame));
            from = at;
          }
          expect(frames).toEqual(reference(text));
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});
