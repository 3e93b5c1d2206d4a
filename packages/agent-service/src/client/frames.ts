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
  let current: FramePosition = { transport, frameIndex: 0, line: 1, byteOffset: 0 };

  const sse = createParser({
    onEvent: (message) => out.push(classifySse(message, current)),
    onComment: () => out.push({ kind: "keepalive" }),
    onRetry: (ms) => out.push({ kind: "retry", ms }),
  });

  function emit(bytes: Uint8Array, line: number, byteOffset: number): void {
    current = { transport, frameIndex: frameIndex++, line, byteOffset };
    const frame = text.decode(bytes);
    if (transport === "sse") sse.feed(frame);
    else out.push(classifyJson(frame.endsWith("\r") ? frame.slice(0, -1) : frame, undefined, current));
  }

  return {
    push(chunk) {
      out = [];
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
        const blank = end === pos || (transport === "ndjson" && isBlank(data, pos, end));
        line++;
        pos = next;
        if (transport === "ndjson") {
          if (!blank) emit(data.subarray(start, end), startLine, base + start);
          start = pos;
          startLine = line;
        } else if (blank) {
          if (end > start) emit(data.subarray(start, pos), startLine, base + start);
          start = pos;
          startLine = line;
        }
      }
      leftover = data.subarray(start);
      leftoverOffset = base + start;
      leftoverLine = startLine;
      return out;
    },
  };
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
  const invalid = (name: string, errors: ValidationIssue[]): Frame => ({
    kind: "error",
    error: new StreamFrameError(position, `not a valid ${name}`, raw, errors),
  });
  if (kind === "envelope") {
    const result = validateSequencedOutputEnvelopeResponse(value);
    return result.ok ? { kind, envelope: result.value, position } : invalid("SequencedOutputEnvelope", result.errors);
  }
  if (kind === "keepalive") {
    const result = validateStreamKeepaliveResponse(value);
    return result.ok ? { kind } : invalid("StreamKeepalive", result.errors);
  }
  if (kind === "end") {
    const result = validateRunStreamTerminalResponse(value);
    return result.ok ? { kind, terminal: result.value, position } : invalid("RunStreamTerminal", result.errors);
  }
  return { kind: "unknown", raw, event: undefined, position };
}
