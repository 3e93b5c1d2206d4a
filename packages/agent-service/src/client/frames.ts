/**
 * Splits a run stream's body into frames and classifies them (protocol notes §5.2). SSE event
 * blocks are cut at blank lines here, so every frame knows its line and byte offset, and then
 * parsed by eventsource-parser; NDJSON is one JSON value per line. An unterminated trailing block
 * or line is never emitted (WHATWG discards an unterminated event), so a dropped connection loses
 * nothing the client then believes it has.
 */
import { createParser } from "eventsource-parser";
import type { ValidationIssue } from "@flowspec/runtime";
import type { RunStreamTerminal, SequencedOutputEnvelope } from "../generated/index.js";
import { STREAM_CHANNELS, type StreamTransport } from "../routes.js";
import { isSequencedOutputEnvelopeResponse, validateRunStreamTerminalResponse, validateSequencedOutputEnvelopeResponse, validateStreamKeepaliveResponse } from "../validate.js";
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
  // Each push decodes on its own, so the decoder keeps a BOM and push drops the body's first one
  // (WHATWG): a U+FEFF that starts a later chunk is part of its line.
  const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
  let leftover: Uint8Array | undefined;
  let leftoverOffset = 0; // body offset of leftover[0]
  let leftoverLine = 1; // line number of leftover[0]
  let frameIndex = 0;
  let out: Frame[] = [];
  // SSE: the position of the block being fed to the parser, which dispatches at most one event for it.
  let blockPosition: FramePosition | undefined;
  const lastResort = (): FramePosition => ({ transport, frameIndex, line: leftoverLine, byteOffset: leftoverOffset });

  const sse = createParser({
    onEvent: (message) => out.push(classifySse(message.event, message.data, blockPosition ?? lastResort())),
    onComment: () => out.push({ kind: "keepalive" }),
    onRetry: (ms) => out.push({ kind: "retry", ms }),
  });
  /** Feeds one complete block to the parser (the text up to and with its blank line). */
  const feedBlock = (block: string, position: FramePosition | undefined) => {
    blockPosition = position;
    // The parser holds back a final CR until it sees whether a LF follows; the byte after this
    // one is known not to be a LF, so the block is ended for it and dispatched now.
    sse.feed(block.charCodeAt(block.length - 1) === CR ? `${block}\n` : block);
    blockPosition = undefined;
  };

  return {
    push(chunk) {
      out = [];
      let data = chunk;
      if (leftover && leftover.length > 0) {
        data = new Uint8Array(leftover.length + chunk.length);
        data.set(leftover);
        data.set(chunk, leftover.length);
      }
      // Lines are cut and frames found in the decoded text, one decode per chunk. Line ends are
      // ASCII, so the complete lines decode to complete characters.
      const end = completeLinesEnd(data, transport);
      if (end === 0) {
        leftover = data;
        return out;
      }
      const decoded = utf8.decode(data.subarray(0, end));
      const text = leftoverOffset === 0 && decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
      // Byte offset of the text's line `n` (counted from 0): its string offset while every byte
      // decoded to one UTF-16 unit (ASCII), else looked up in the bytes' own line starts.
      let byteLines: number[] | undefined;
      const lineOffset =
        text.length === end ? (n: number, at: number) => at : (n: number) => (byteLines ??= lineStarts(data, end, transport))[n]!;
      const base = leftoverOffset;
      const firstLine = leftoverLine;
      let line = firstLine;
      let start = 0; // string offset of the unfinished frame
      let startLine = line;
      let pos = 0;
      let hasData = false; // SSE: the current block has a data line
      // SSE: the current block's `event` and single `data` value, while it has only id, event and
      // one data line (`simple`); such a block is read here, any other goes to the parser.
      let simple = true;
      let eventName: string | undefined;
      let eventData: string | undefined;
      if (transport === "ndjson") {
        for (let lf = text.indexOf("\n"); lf !== -1; lf = text.indexOf("\n", pos)) {
          const to = lf > pos && text.charCodeAt(lf - 1) === CR ? lf - 1 : lf;
          if (!isBlank(text, pos, to)) {
            const position = { transport, frameIndex: frameIndex++, line, byteOffset: base + lineOffset(line - firstLine, pos) };
            out.push(classifyJson(text.slice(pos, to), undefined, position));
          }
          line++;
          pos = lf + 1;
        }
        start = pos;
        startLine = line;
      } else {
        let cr = text.indexOf("\r");
        for (;;) {
          if (cr !== -1 && cr < pos) cr = text.indexOf("\r", pos);
          if (pos === start) {
            // A whole block in the form servers write: read with two searches instead of one per line.
            const dataStart = eventDataStart(text, pos);
            const dataEnd = dataStart === -1 ? -1 : text.indexOf("\n", dataStart);
            if (dataEnd !== -1 && text.charCodeAt(dataEnd + 1) === LF && (cr === -1 || cr > dataEnd)) {
              const position = { transport, frameIndex, line, byteOffset: base + lineOffset(line - firstLine, pos) };
              out.push(classifyJson(text.slice(dataStart, dataEnd), STREAM_CHANNELS.event, position));
              if (frameIndex++ === 0) sse.feed(""); // as for a simple block, below
              line += dataStart - EVENT_DATA.length > pos ? 4 : 3; // [id,] event, data, blank
              pos = start = dataEnd + 2;
              startLine = line;
              continue;
            }
          }
          const lf = text.indexOf("\n", pos);
          let lineEnd: number;
          let next: number;
          if (cr !== -1 && (lf === -1 || cr < lf)) {
            lineEnd = cr;
            next = text.charCodeAt(cr + 1) === LF ? cr + 2 : cr + 1;
          } else if (lf !== -1) {
            lineEnd = lf;
            next = lf + 1;
          } else break;
          line++;
          if (lineEnd === pos) {
            if (lineEnd > start) {
              const position = hasData ? { transport, frameIndex, line: startLine, byteOffset: base + lineOffset(startLine - firstLine, start) } : undefined;
              if (!simple) feedBlock(text.slice(start, next), position);
              else {
                if (eventData !== undefined) out.push(classifySse(eventName, eventData, position!));
                // The parser takes the first text it is fed for the start of the stream (where it
                // drops a byte order mark); when that is not this block, it must not be a later one.
                if (frameIndex === 0) sse.feed("");
              }
              frameIndex++;
            }
            hasData = false;
            simple = true;
            eventName = eventData = undefined;
            pos = next;
            start = pos;
            startLine = line;
          } else {
            // WHATWG field parsing, for the three fields of a simple block: the value follows the
            // colon and one optional space; the last event wins; the id is not used here.
            if (isDataLine(text, pos, lineEnd)) {
              hasData = true;
              if (eventData !== undefined || lineEnd - pos === 4) simple = false;
              else eventData = text.slice(text.charCodeAt(pos + 5) === 32 ? pos + 6 : pos + 5, lineEnd);
            } else if (isField(text, pos, lineEnd, "event:")) {
              eventName = text.slice(text.charCodeAt(pos + 6) === 32 ? pos + 7 : pos + 6, lineEnd) || undefined;
            } else if (!isField(text, pos, lineEnd, "id:")) simple = false;
            pos = next;
          }
        }
      }
      const startByte = lineOffset(startLine - firstLine, start);
      leftover = data.subarray(startByte);
      leftoverOffset = base + startByte;
      leftoverLine = startLine;
      return out;
    },
  };
}

/** The lines of an event block after its optional id line, up to the data value. */
const EVENT_DATA = `event: ${STREAM_CHANNELS.event}\ndata: `;

/**
 * Where the data value starts when the block at `pos` is an optional `id:` line, then
 * `event: run.stream.event` and a `data: ` line, as servers write them; else -1. The caller checks
 * that the data line is followed by the blank line and that no CR is involved.
 */
function eventDataStart(text: string, pos: number): number {
  let at = pos;
  if (isField(text, at, text.length, "id:")) {
    const lf = text.indexOf("\n", at);
    if (lf === -1) return -1;
    at = lf + 1;
  }
  return text.startsWith(EVENT_DATA, at) ? at + EVENT_DATA.length : -1;
}

/**
 * Where the complete lines of `data` end: after its last line break. A CR as the last byte may be
 * the first half of a CR LF, so its line is not complete yet. NDJSON lines end at LF only.
 */
function completeLinesEnd(data: Uint8Array, transport: StreamTransport): number {
  const lf = data.lastIndexOf(LF);
  if (transport === "ndjson") return lf + 1;
  for (let i = data.length - 2; i > lf; i--) if (data[i] === CR) return i + 1;
  return lf + 1;
}

/** The byte offset of each line start in `data[0, end)`, and `end`: SSE lines end at CR, LF or CR LF, NDJSON lines at LF. */
function lineStarts(data: Uint8Array, end: number, transport: StreamTransport): number[] {
  const starts = [0];
  for (let i = 0; i < end; i++) {
    const byte = data[i];
    if (byte === LF || (byte === CR && transport === "sse")) {
      if (byte === CR && data[i + 1] === LF) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/** `data` or `data:…`: a line the SSE parser counts as data. */
function isDataLine(text: string, from: number, to: number): boolean {
  return (
    text.charCodeAt(from) === 100 &&
    text.charCodeAt(from + 1) === 97 &&
    text.charCodeAt(from + 2) === 116 &&
    text.charCodeAt(from + 3) === 97 &&
    (to - from === 4 || text.charCodeAt(from + 4) === 58)
  );
}

/** The line starts with `field` (its name and colon). */
function isField(text: string, from: number, to: number, field: string): boolean {
  return to - from >= field.length && text.startsWith(field, from);
}

function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code !== 32 && code !== 9 && code !== CR) return false;
  }
  return true;
}

function classifySse(event: string | undefined, data: string, position: FramePosition): Frame {
  switch (event) {
    case undefined:
      return classifyJson(data, undefined, position);
    case STREAM_CHANNELS.event:
    case STREAM_CHANNELS.keepalive:
    case STREAM_CHANNELS.end:
      return classifyJson(data, event, position);
    default:
      return { kind: "unknown", raw: data, event, position };
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
    // The guard allocates no result object on the hot path; the errors are gathered for a bad frame only.
    if (isSequencedOutputEnvelopeResponse(value)) return { kind, envelope: value, position };
    const result = validateSequencedOutputEnvelopeResponse(value);
    return invalidFrame(position, raw, "SequencedOutputEnvelope", result.ok ? [] : result.errors);
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
