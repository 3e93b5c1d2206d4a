import { describe, expect, it } from "vitest";
import { createParser } from "eventsource-parser";
import { classifyJson, createFrameDecoder, type Frame } from "../src/client/frames.js";
import type { FramePosition } from "../src/client/errors.js";
import { seededRandom } from "../../../test/support.js";

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

describe("frame decoder positions under any chunking", () => {
  const utf8 = (text: string) => new TextEncoder().encode(text);
  const concat = (...parts: Uint8Array[]) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  };
  /** An envelope whose delta holds raw bytes: invalid UTF-8 decodes to U+FFFD inside the JSON string. */
  const withBytes = (sequence: number, bytes: number[]) => {
    const [before, after] = envelope(sequence, "@@").split("@@");
    return concat(utf8(before!), new Uint8Array(bytes), utf8(after!));
  };
  const bom = new Uint8Array([0xef, 0xbb, 0xbf]);

  // Every line ending SSE allows, comments, retry, an unknown event, ASCII and non-ASCII envelopes, invalid UTF-8.
  const sseBody = (ascii: boolean) =>
    concat(
      ascii ? new Uint8Array() : bom,
      utf8(": hello\r\n\r\n"),
      utf8(`id: 1\r\nevent: run.stream.event\r\ndata: ${envelope(1, "plain")}\r\n\r\n`),
      utf8(`event: run.stream.keepalive\ndata: {"type":"keepalive"}\n\n\n`),
      utf8("retry: 250\r\r"),
      utf8(`data: ${envelope(2, ascii ? "two" : "é")}\n\n`),
      utf8("id: 3\nevent: run.stream.event\ndata: "),
      ascii ? utf8(envelope(3, "three")) : withBytes(3, [0xff, 0x41, 0xe2, 0x82, 0x42, 0xf0, 0x9f, 0x98]),
      utf8("\n\n"),
      utf8(`event: something.else\ndata: {"x":1}\r\n\r\n`),
      utf8(`data: ${envelope(4, ascii ? "four" : "😀")}\r\n\r\n`),
      utf8(`: comment\rdata: ${envelope(5, "five")}\r\r`),
      utf8(`event: run.stream.end\ndata: {"type":"end","runId":"r","lastSequence":5}\n\n`),
      utf8(`data: ${envelope(6)}\n`), // unterminated: never emitted
    );

  const ndjsonBody = (ascii: boolean) =>
    concat(
      utf8(`${envelope(1, "plain")}\r\n\n  \n`),
      ascii ? utf8(envelope(2, "two")) : withBytes(2, [0xff, 0x41, 0xe2, 0x82, 0x42]),
      utf8(`\n{"type":"keepalive"}\n{"hello":"world"}\n${envelope(3, ascii ? "three" : "😀é")}\n\t\r\n`),
      utf8(`{"type":"end","runId":"r","lastSequence":3}\n${envelope(4)}`),
    );

  /** Frames with their positions, one string each. */
  const describeFrames = (frames: Frame[]) =>
    frames.map((f) =>
      f.kind === "envelope"
        ? `env ${f.envelope.sequence} ${JSON.stringify(f.position)}`
        : f.kind === "unknown"
          ? `unknown ${f.raw} ${JSON.stringify(f.position)}`
          : f.kind === "error"
            ? `error ${f.error.message}`
            : f.kind,
    );

  function feedSplit(transport: "sse" | "ndjson", body: Uint8Array, cuts: number[]): Frame[] {
    const decoder = createFrameDecoder(transport);
    const frames: Frame[] = [];
    let from = 0;
    for (const cut of [...cuts, body.length]) {
      frames.push(...decoder.push(body.subarray(from, cut)));
      from = cut;
    }
    return frames;
  }

  const random = seededRandom(7);
  const randomCuts = (length: number, maxChunk: number) => {
    const cuts: number[] = [];
    for (let at = 1 + random(maxChunk); at < length; at += 1 + random(maxChunk)) cuts.push(at);
    return cuts;
  };

  /** Checks a position against the raw bytes: a line start, its line number, its block. */
  function checkPosition(transport: "sse" | "ndjson", body: Uint8Array, position: FramePosition, expectInBlock: string) {
    const { line, byteOffset } = position;
    const before = body.subarray(0, byteOffset);
    expect(byteOffset === 0 || before[before.length - 1] === 10 || (transport === "sse" && before[before.length - 1] === 13)).toBe(true);
    // Line breaks before the frame: LF, CR LF or a lone CR (SSE), LF (NDJSON).
    let breaks = 0;
    for (let i = 0; i < before.length; i++) {
      if (before[i] === 10) breaks++;
      else if (transport === "sse" && before[i] === 13 && before[i + 1] !== 10) breaks++;
    }
    expect(line).toBe(breaks + 1);
    const rest = new TextDecoder().decode(body.subarray(byteOffset, byteOffset + 400));
    expect(rest.split(/\r\n\r\n|\n\n|\r\r|\n\r\n|\r\n\n/)[0]).toContain(expectInBlock);
  }

  it.each([
    ["sse", true],
    ["sse", false],
    ["ndjson", true],
    ["ndjson", false],
  ] as const)("%s (ASCII only: %s): positions point at the frame's bytes and lines, whatever the chunking", (transport, ascii) => {
    const body = transport === "sse" ? sseBody(ascii) : ndjsonBody(ascii);
    const whole = feedSplit(transport, body, []);
    const envelopes = whole.filter((f) => f.kind === "envelope");
    expect(envelopes.map((f) => f.envelope.sequence)).toEqual(transport === "sse" ? [1, 2, 3, 4, 5] : [1, 2, 3]);
    expect(whole.map((f) => f.kind)).toEqual(
      transport === "sse"
        ? ["keepalive", "envelope", "keepalive", "retry", "envelope", "envelope", "unknown", "envelope", "keepalive", "envelope", "end"]
        : ["envelope", "envelope", "keepalive", "unknown", "envelope", "end"],
    );
    for (const frame of whole) {
      if (frame.kind === "envelope") checkPosition(transport, body, frame.position, `"sequence":${frame.envelope.sequence}`);
      if (frame.kind === "unknown") checkPosition(transport, body, frame.position, frame.raw);
    }
    // Frame indexes count every frame of the body, in order.
    const indexes = whole.flatMap((f) => (f.kind === "envelope" || f.kind === "unknown" ? [f.position.frameIndex] : []));
    expect(indexes).toEqual(transport === "sse" ? [1, 4, 5, 6, 7, 8] : [0, 1, 3, 4]);

    const expected = describeFrames(whole);
    expect(describeFrames(feedSplit(transport, body, Array.from({ length: body.length - 1 }, (_, i) => i + 1)))).toEqual(expected);
    for (let n = 0; n < 300; n++) expect(describeFrames(feedSplit(transport, body, randomCuts(body.length, n < 150 ? 8 : 120)))).toEqual(expected);
  });

  it("waits for the byte after a final CR before ending that line (it may be a CR LF)", () => {
    const decoder = createFrameDecoder("sse");
    const first = utf8(`data: ${envelope(1, "a")}\r\n\r`);
    expect(decoder.push(first)).toEqual([]);
    const frames = decoder.push(utf8(`\ndata: ${envelope(2, "b")}\r\n\r\n`));
    expect(summary(frames)).toEqual([`env 1 @1:0#0`, `env 2 @3:${first.length + 1}#1`]);
  });

  it.each([
    ["sse", `data: ${envelope(1)}\n\n`, `\uFEFFdata: ${envelope(2)}\n\n`],
    ["ndjson", `${envelope(1)}\n`, `\uFEFF${envelope(2)}\n`],
  ] as const)("%s: drops a byte order mark at the start of the body only, not at a chunk's start", (transport, first, second) => {
    const whole = summary(feed(transport, `\uFEFF${first}${second}`, "whole"));
    expect(whole[0]).toBe(`env 1 @1:0#0`);
    expect(whole.length).toBe(transport === "sse" ? 1 : 2); // a BOM later on is an unknown field's name, or not JSON
    const decoder = createFrameDecoder(transport);
    expect(summary([...decoder.push(utf8(`\uFEFF${first}`)), ...decoder.push(utf8(second))])).toEqual(whole);
  });
});

describe("SSE blocks read without the parser", () => {
  /** What eventsource-parser alone makes of a whole body, classified the way the decoder classifies. */
  function reference(body: string): string[] {
    const out: string[] = [];
    const parser = createParser({
      onEvent: ({ event, data }) => {
        const channels: (string | undefined)[] = [undefined, "run.stream.event", "run.stream.keepalive", "run.stream.end"];
        out.push(channels.includes(event) ? describeFrame(classifyJson(data, event, { transport: "sse", frameIndex: 0, line: 0, byteOffset: 0 })) : `unknown ${event} ${data}`);
      },
      onComment: () => out.push("keepalive"),
      onRetry: (ms) => out.push(`retry ${ms}`),
    });
    parser.feed(body);
    return out;
  }
  function describeFrame(frame: Frame): string {
    switch (frame.kind) {
      case "envelope":
        return `envelope ${frame.envelope.sequence}`;
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

  const random = seededRandom(11);
  const pick = <T,>(items: readonly T[]): T => items[random(items.length)]!;
  const payloads = [envelope(1), envelope(2, "x"), '{"type":"keepalive"}', '{"type":"end","runId":"r","lastSequence":2}', "{oops", "plain text", '{"hello":"world"}', ""];
  const lineKinds = [
    () => `data: ${pick(payloads)}`,
    () => `data:${pick(payloads)}`,
    () => `data:  ${pick(payloads)}`,
    () => "data",
    () => "data:",
    () => `event: ${pick(["run.stream.event", "run.stream.keepalive", "run.stream.end", "other.thing", ""])}`,
    () => `event:${pick(["run.stream.event", "run.stream.end"])}`,
    () => "event",
    () => `id: ${random(100)}`,
    () => "id:",
    () => "id",
    () => "idx: 1",
    () => ": comment",
    () => ":",
    () => `retry: ${pick(["100", "x"])}`,
    () => "unknown: 1",
    () => `ï»¿data: ${pick(payloads)}`,
    () => "",
  ];

  it("reads blocks that look like the usual id/event/data form but are not, as eventsource-parser does", () => {
    const bodies = [
      `id: 1\rdata: x\nevent: run.stream.event\ndata: ${envelope(1)}\n\n`, // a lone CR ends the id line
      `id: 1\r\nevent: run.stream.event\ndata: ${envelope(1)}\n\n`,
      `id: 1\nevent: run.stream.event\ndata: ${envelope(1)}\r\n\n`,
      `id: 1\nevent: run.stream.event\ndata: ${envelope(1)}\ndata: ${envelope(2)}\n\n`,
      `id: 1\nid: 2\nevent: run.stream.event\ndata: ${envelope(1)}\n\n`,
      `event: run.stream.event\ndata: ${envelope(1)}\nevent: run.stream.end\n\n`,
      `event: run.stream.event\ndata:${envelope(1)}\n\nid:7\nevent: run.stream.event\ndata: ${envelope(2)}\n\n`,
    ];
    for (const body of bodies) {
      const bytes = new TextEncoder().encode(body);
      expect(createFrameDecoder("sse").push(bytes).map(describeFrame), JSON.stringify(body)).toEqual(reference(body));
    }
  });

  it("gives the frames eventsource-parser gives, for random bodies of every field, line ending and split", () => {
    for (let n = 0; n < 1500; n++) {
      let body = "";
      for (let blocks = random(6); blocks >= 0; blocks--) {
        // Mostly blocks of the shape read without the parser (id, event, one data line, any order), else anything.
        const lines =
          random(3) > 0
            ? [`data: ${pick(payloads)}`, ...(random(2) ? [lineKinds[5 + random(2)]!()] : []), ...(random(2) ? [`id: ${random(9)}`] : [])].sort(() => random(3) - 1)
            : Array.from({ length: 1 + random(5) }, () => pick(lineKinds)());
        let ending = "\n";
        for (const line of lines) body += line + (ending = pick(["\n", "\r\n", "\r"]));
        body += ending === "\r" ? pick(["\r", "\r\n"]) : pick(["\n", "\r\n", "\r"]); // the blank line
      }
      body += "\n\n";
      const expected = reference(body);
      const bytes = new TextEncoder().encode(body);
      const whole = createFrameDecoder("sse").push(bytes).map(describeFrame);
      if (JSON.stringify(whole) !== JSON.stringify(expected)) expect.fail(`${JSON.stringify(body)}\n got ${JSON.stringify(whole)}\n want ${JSON.stringify(expected)}`);
      const decoder = createFrameDecoder("sse");
      const split: string[] = [];
      for (let at = 0; at < bytes.length; ) {
        const size = 1 + random(12);
        split.push(...decoder.push(bytes.subarray(at, at + size)).map(describeFrame));
        at += size;
      }
      expect(split).toEqual(expected);
    }
  });
});
