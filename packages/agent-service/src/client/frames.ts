/**
 * Splits a run stream's body into frames and classifies them (protocol notes §5.2). SSE event
 * blocks are cut at blank lines here, so every frame knows its line and byte offset, and then
 * parsed by eventsource-parser; NDJSON is one JSON value per line. An unterminated trailing block
 * or line is never emitted (WHATWG discards an unterminated event), so a dropped connection loses
 * nothing the client then believes it has.
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { ValidationIssue } from "@flowspec/runtime";
import type { RunStreamTerminal, SequencedOutputEnvelope } from "../generated/index.js";
import { STREAM_CHANNELS, type StreamTransport } from "../routes.js";
import { validateRunStreamTerminalResponse, validateSequencedOutputEnvelopeResponse, validateStreamKeepaliveResponse } from "../validate.js";
import { StreamFrameError, type FramePosition } from "./errors.js";

export type Frame =
  | { kind: "envelope"; envelope: SequencedOutputEnvelope; position: FramePosition }
  | { kind: "keepalive" }
  | { kind: "end"; terminal: RunStreamTerminal; position: FramePosition }
  | { kind: "retry"; ms: number }
  | { kind: "unknown"; raw: string; event: string | undefined; position: FramePosition }
  | { kind: "error"; error: StreamFrameError };

export interface FrameDecoder {
  /** Feeds bytes; returns the frames completed by them, in order. */
  push(chunk: Uint8Array): Frame[];
}

const LF = 10;
const CR = 13;

export function createFrameDecoder(transport: StreamTransport): FrameDecoder {
  const text = new TextDecoder();
  let leftover: Uint8Array | undefined;
  let leftoverOffset = 0; // body offset of leftover[0]
  let leftoverLine = 1; // line number of leftover[0]
  let frameIndex = 0;
  let out: Frame[] = [];
  // SSE: the positions of the blocks that carry data, in order; the parser dispatches one event for each.
  let eventPositions: FramePosition[] = [];
  let nextEvent = 0;
  const lastResort = (): FramePosition => ({ transport, frameIndex, line: leftoverLine, byteOffset: leftoverOffset });

  const sse = createParser({
    onEvent: (message) => out.push(classifySse(message, eventPositions[nextEvent++] ?? lastResort())),
    onComment: () => out.push({ kind: "keepalive" }),
    onRetry: (ms) => out.push({ kind: "retry", ms }),
  });

  return {
    push(chunk) {
      out = [];
      eventPositions = [];
      nextEvent = 0;
      let data = chunk;
      if (leftover && leftover.length > 0) {
        data = new Uint8Array(leftover.length + chunk.length);
        data.set(leftover);
        data.set(chunk, leftover.length);
      }
      const base = leftoverOffset;
      let line = leftoverLine;
      let start = 0; // start of the unfinished frame
      let startLine = line;
      let pos = 0;
      let hasData = false; // SSE: the current block has a data line
      const lines: [number, number, number][] = []; // NDJSON: [start, end, line] of each non-blank line
      let cr = transport === "sse" ? data.indexOf(CR) : -1;
      for (;;) {
        const lf = data.indexOf(LF, pos);
        if (cr !== -1 && cr < pos) cr = data.indexOf(CR, pos);
        let end: number;
        let next: number;
        if (cr !== -1 && (lf === -1 || cr < lf)) {
          if (cr + 1 >= data.length) break; // a CR LF may be split across chunks
          end = cr;
          next = data[cr + 1] === LF ? cr + 2 : cr + 1;
        } else if (lf !== -1) {
          end = lf;
          next = lf + 1;
        } else break;
        line++;
        if (transport === "ndjson") {
          if (!isBlank(data, pos, end)) lines.push([pos, end, line - 1]);
          pos = next;
          start = pos;
          startLine = line;
        } else if (end === pos) {
          if (end > start) {
            if (hasData) eventPositions.push({ transport, frameIndex, line: startLine, byteOffset: base + start });
            frameIndex++;
          }
          hasData = false;
          pos = next;
          start = pos;
          startLine = line;
        } else {
          if (!hasData && isDataLine(data, pos, end)) hasData = true;
          pos = next;
        }
      }
      if (start > 0) {
        // One decode and one parser feed for every complete frame in the chunk.
        const complete = text.decode(data.subarray(0, start));
        if (transport === "sse") sse.feed(complete);
        else {
          const ascii = complete.length === start; // then byte offsets are string offsets
          for (const [from, to, at] of lines) {
            const raw = ascii ? complete.slice(from, to) : text.decode(data.subarray(from, to));
            out.push(classifyJson(raw.endsWith("\r") ? raw.slice(0, -1) : raw, undefined, { transport, frameIndex: frameIndex++, line: at, byteOffset: base + from }));
          }
        }
      }
      leftover = data.subarray(start);
      leftoverOffset = base + start;
      leftoverLine = startLine;
      return out;
    },
  };
}

/** `data` or `data:…`: a line the SSE parser counts as data. */
function isDataLine(data: Uint8Array, from: number, to: number): boolean {
  return (
    data[from] === 100 && data[from + 1] === 97 && data[from + 2] === 116 && data[from + 3] === 97 && (to - from === 4 || data[from + 4] === 58)
  );
}

function isBlank(data: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const byte = data[i]!;
    if (byte !== 32 && byte !== 9 && byte !== CR) return false;
  }
  return true;
}

function classifySse(message: EventSourceMessage, position: FramePosition): Frame {
  switch (message.event) {
    case undefined:
      return classifyJson(message.data, undefined, position);
    case STREAM_CHANNELS.event:
    case STREAM_CHANNELS.keepalive:
    case STREAM_CHANNELS.end:
      return classifyJson(message.data, message.event, position);
    default:
      return { kind: "unknown", raw: message.data, event: message.event, position };
  }
}

/** Classifies one JSON payload, by its SSE channel when there is one, else by its shape. */
export function classifyJson(raw: string, channel: string | undefined, position: FramePosition): Frame {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { kind: "error", error: new StreamFrameError(position, `not JSON (${(error as Error).message})`, raw) };
  }
  const object = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  const kind =
    channel === STREAM_CHANNELS.event
      ? "envelope"
      : channel === STREAM_CHANNELS.keepalive
        ? "keepalive"
        : channel === STREAM_CHANNELS.end
          ? "end"
          : typeof object?.sequence === "number" && typeof object.event === "object" && object.event !== null
            ? "envelope"
            : object?.type === "keepalive"
              ? "keepalive"
              : object?.type === "end"
                ? "end"
                : "unknown";
  if (kind === "envelope") {
    const result = validateSequencedOutputEnvelopeResponse(value);
    return result.ok ? { kind, envelope: result.value, position } : invalidFrame(position, raw, "SequencedOutputEnvelope", result.errors);
  }
  if (kind === "keepalive") {
    const result = validateStreamKeepaliveResponse(value);
    return result.ok ? { kind } : invalidFrame(position, raw, "StreamKeepalive", result.errors);
  }
  if (kind === "end") {
    const result = validateRunStreamTerminalResponse(value);
    return result.ok ? { kind, terminal: result.value, position } : invalidFrame(position, raw, "RunStreamTerminal", result.errors);
  }
  return { kind: "unknown", raw, event: undefined, position };
}

function invalidFrame(position: FramePosition, raw: string, name: string, errors: ValidationIssue[]): Frame {
  return { kind: "error", error: new StreamFrameError(position, `not a valid ${name}`, raw, errors) };
}
