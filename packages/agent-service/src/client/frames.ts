/**
 * Splits a run stream's body into frames and classifies them (protocol notes §5.2). SSE event
 * blocks are cut at blank lines here, so every frame knows its line and byte offset, and then
 * parsed by eventsource-parser; NDJSON is one JSON value per line. An unterminated trailing block
 * or line is never emitted (WHATWG discards an unterminated event), so a dropped connection loses
 * nothing the client then believes it has.
 */
import { createParser, type EventSourceParser } from "eventsource-parser";
import type { ValidationIssue } from "@flowspec/runtime";
import type { RunStreamTerminal, SequencedOutputEnvelope } from "../generated/index.js";
import { STREAM_CHANNELS, type StreamTransport } from "../routes.js";
import { isSequencedOutputEnvelopeResponse, validateRunStreamTerminalResponse, validateSequencedOutputEnvelopeResponse, validateStreamKeepaliveResponse } from "../validate.js";
import { StreamEventTooLargeError, StreamFrameError, type FramePosition } from "./errors.js";

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
const COLON = 58;

/** The default `maxEventBytes`: 16 MiB, as the Streamable HTTP client's `maxMessageBytes`. */
export const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;

/** An SSE block whose first lines came in an earlier chunk than its end. */
interface OpenBlock {
  line: number;
  byteOffset: number;
  /** Its complete lines so far, as text with their line ends: joined once, if the parser needs the block. */
  parts: string[];
  hasData: boolean;
  simple: boolean;
  eventName: string | undefined;
  eventData: string | undefined;
}

/**
 * Cost is linear in the body's size: the bytes after the last complete line are kept as they came
 * and joined once, when a line end arrives, with the bytes of the arriving chunk up to that line end
 * only (the rest of the chunk is read in place); an SSE block's complete lines are read once and carried
 * to the chunk that ends the block. A frame (an SSE block with its blank line, or an NDJSON line)
 * over `maxEventBytes` is an error frame, as soon as that many bytes of it have arrived; the
 * decoder then reads nothing more.
 */
export function createFrameDecoder(transport: StreamTransport, maxEventBytes = DEFAULT_MAX_EVENT_BYTES): FrameDecoder {
  return new Decoder(transport, maxEventBytes);
}

/**
 * The decoder's state is fields and its work methods, shared by every decoder: V8 keeps one
 * optimized `push` for all streams. With closures made per decoder, a new stream's decoder called
 * other functions than the ones the optimized code was made for (or they died with the last
 * stream), so V8 threw that code away and compiled it again, 100-480 ms on a loaded machine.
 */
class Decoder implements FrameDecoder {
  // Each push decodes on its own, so the decoder keeps a BOM and push drops the body's first one
  // (WHATWG): a U+FEFF that starts a later chunk is part of its line.
  private readonly utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
  private tail: Uint8Array[] = []; // the bytes after the last complete line
  private tailSize = 0;
  private tailOffset = 0; // body offset of the tail's first byte
  private tailLine = 1; // line number of the tail's first byte
  private open: OpenBlock | undefined;
  private frameIndex = 0;
  private failed = false;
  private out: Frame[] = [];
  // SSE: the parser for blocks of other forms, and the position of the block being fed to it,
  // which dispatches at most one event for it.
  private readonly sse: EventSourceParser;
  private parserFed = false;
  private blockPosition: FramePosition | undefined;

  constructor(
    private readonly transport: StreamTransport,
    private readonly maxEventBytes: number,
  ) {
    this.sse = createParser({
      onEvent: (message) => this.out.push(classifySse(message.event, message.data, this.blockPosition ?? this.lastResort())),
      onComment: () => this.out.push({ kind: "keepalive" }),
      onRetry: (ms) => this.out.push({ kind: "retry", ms }),
    });
  }

  private lastResort(): FramePosition {
    return { transport: this.transport, frameIndex: this.frameIndex, line: this.tailLine, byteOffset: this.tailOffset };
  }

  /** Feeds one complete block to the parser (the text up to and with its blank line). */
  private feedBlock(block: string, position: FramePosition | undefined): void {
    // The parser takes the first text it is fed for the start of the stream (where it drops a
    // byte order mark); when that is not this block, it must not be a later one.
    if (!this.parserFed && this.frameIndex > 0) this.sse.feed("");
    this.parserFed = true;
    this.blockPosition = position;
    // The parser holds back a final CR until it sees whether a LF follows; the byte after this
    // one is known not to be a LF, so the block is ended for it and dispatched now.
    this.sse.feed(block.charCodeAt(block.length - 1) === CR ? `${block}\n` : block);
    this.blockPosition = undefined;
  }

  /** Ends decoding with an error frame for the frame at `line`/`byteOffset`, `bytes` long (so far, unless `whole`). */
  private tooLarge(line: number, byteOffset: number, bytes: number, whole: boolean): void {
    const position = { transport: this.transport, frameIndex: this.frameIndex, line, byteOffset };
    this.out.push({ kind: "error", error: new StreamEventTooLargeError(position, this.maxEventBytes, bytes, whole) });
    this.failed = true;
    this.tail = [];
    this.open = undefined;
  }

  push(chunk: Uint8Array): Frame[] {
    const out: Frame[] = (this.out = []);
    if (this.failed || chunk.length === 0) return out;
    if (this.tailSize > 0) {
      // Only the tail's line is joined with the chunk (up to the chunk's first LF) and read on its
      // own; the rest of the chunk is read where it is. Joining the tail with the whole chunk copied
      // every chunk that did not start a line (nearly all of them: a chunk ends where the socket
      // read did, not at a line end).
      const lf = chunk.indexOf(LF);
      if (lf !== -1) {
        const head = join([...this.tail, chunk.subarray(0, lf + 1)], this.tailSize + lf + 1);
        this.tail = [];
        this.tailSize = 0;
        // Whether the frame still open is over the limit is checked once, after the whole chunk,
        // as when the chunk is read in one piece (the error then gives the same size).
        this.read(head, head.length, false);
        if (this.failed || lf + 1 === chunk.length) {
          if (!this.failed) this.checkPending();
          return out;
        }
        chunk = chunk.subarray(lf + 1);
      }
    }
    // Lines are cut and frames found in the decoded text, one decode per chunk that ends a line.
    // Line ends are ASCII, so the complete lines decode to complete characters.
    const cut = completeLinesEnd(chunk, this.transport, this.tailSize > 0 && tailEndsWithCr(this.tail));
    if (cut === -1) {
      this.tail.push(chunk);
      this.tailSize += chunk.length;
      this.checkPending();
      return out;
    }
    const data = this.tailSize === 0 ? chunk : join([...this.tail, chunk], this.tailSize + chunk.length);
    this.read(data, this.tailSize + cut, true);
    return out;
  }

  /** Ends decoding with an error frame when the frame not yet complete is over the limit already. */
  private checkPending(): void {
    const pending = this.tailOffset + this.tailSize - (this.open?.byteOffset ?? this.tailOffset);
    if (pending > this.maxEventBytes) this.tooLarge(this.open?.line ?? this.tailLine, this.open?.byteOffset ?? this.tailOffset, pending, false);
  }

  /**
   * Reads the complete lines `data[0, end)`, which start where the tail did; the bytes after them
   * become the tail. `checkPending`: whether the frame left open is checked against the limit now.
   */
  private read(data: Uint8Array, end: number, checkPending: boolean): void {
    const out = this.out;
    const decoded = this.utf8.decode(data.subarray(0, end));
    const text = this.tailOffset === 0 && decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
    const lines: ChunkLines = { data, end, transport: this.transport, ascii: text.length === end, starts: undefined };
    const base = this.tailOffset;
    const firstLine = this.tailLine;
    let line = firstLine;
    let pos = 0;
    if (this.transport === "ndjson") {
      for (let lf = text.indexOf("\n"); lf !== -1; lf = text.indexOf("\n", pos)) {
        const to = lf > pos && text.charCodeAt(lf - 1) === CR ? lf - 1 : lf;
        if (mayBeOver(pos, lf + 1, this.maxEventBytes)) {
          const from = lineByteOffset(lines, line - firstLine, pos);
          const bytes = lineByteOffset(lines, line + 1 - firstLine, lf + 1) - from;
          if (bytes > this.maxEventBytes) return this.tooLarge(line, base + from, bytes, true);
        }
        if (!isBlank(text, pos, to)) {
          const position = { transport: this.transport, frameIndex: this.frameIndex++, line, byteOffset: base + lineByteOffset(lines, line - firstLine, pos) };
          out.push(classifyJson(text.slice(pos, to), undefined, position));
        }
        line++;
        pos = lf + 1;
      }
    } else {
      // The block being read: carried over from an earlier chunk, or begun in this one.
      const carried = this.open;
      let blockLine = carried?.line ?? line;
      let blockByte = carried?.byteOffset ?? -1; // -1: not known yet (found from `start` when needed)
      let hasData = carried?.hasData ?? false; // the current block has a data line
      // The current block's `event` and single `data` value, while it has only id, event and one
      // data line (`simple`); such a block is read here, any other goes to the parser.
      let simple = carried?.simple ?? true;
      let eventName = carried?.eventName;
      let eventData = carried?.eventData;
      let inBlock = carried !== undefined; // the block has lines before `pos`
      let start = 0; // string offset of the block's text in this chunk
      let cr = text.indexOf("\r");
      for (;;) {
        if (cr !== -1 && cr < pos) cr = text.indexOf("\r", pos);
        if (!inBlock && pos === start) {
          // A whole block in the form servers write: read with two searches instead of one per line.
          // Every block of a usual stream (events, keepalives, the end, comments) is read here,
          // so the line-by-line path below, and V8's deoptimizations on its first use, stay cold.
          const eventLine = eventLineStart(text, pos);
          const channel = eventLine === -1 ? undefined : channelLinesAt(text, eventLine);
          const dataStart = channel === undefined ? -1 : eventLine + channel.lines.length;
          const dataEnd = dataStart === -1 ? -1 : text.indexOf("\n", dataStart);
          if (dataEnd !== -1 && dataEnd + 1 < text.length && text.charCodeAt(dataEnd + 1) === LF && (cr === -1 || cr > dataEnd)) {
            const blockLines = eventLine > pos ? 4 : 3; // [id,] event, data, blank
            const byteOffset = base + lineByteOffset(lines, line - firstLine, pos);
            if (mayBeOver(pos, dataEnd + 2, this.maxEventBytes)) {
              const bytes = base + lineByteOffset(lines, line + blockLines - firstLine, dataEnd + 2) - byteOffset;
              if (bytes > this.maxEventBytes) return this.tooLarge(line, byteOffset, bytes, true);
            }
            out.push(classifyJson(text.slice(dataStart, dataEnd), channel!.name, { transport: this.transport, frameIndex: this.frameIndex, line, byteOffset }));
            this.frameIndex++;
            line += blockLines;
            pos = start = dataEnd + 2;
            blockLine = line;
            blockByte = -1;
            continue;
          }
          // A block of one comment line (`: ping`), which the parser reports as a keepalive.
          const commentEnd = pos < text.length && text.charCodeAt(pos) === COLON ? text.indexOf("\n", pos) : -1;
          if (commentEnd !== -1 && commentEnd + 1 < text.length && text.charCodeAt(commentEnd + 1) === LF && (cr === -1 || cr > commentEnd)) {
            if (mayBeOver(pos, commentEnd + 2, this.maxEventBytes)) {
              const byteOffset = base + lineByteOffset(lines, line - firstLine, pos);
              const bytes = base + lineByteOffset(lines, line + 2 - firstLine, commentEnd + 2) - byteOffset;
              if (bytes > this.maxEventBytes) return this.tooLarge(line, byteOffset, bytes, true);
            }
            out.push({ kind: "keepalive" });
            this.frameIndex++;
            line += 2;
            pos = start = commentEnd + 2;
            blockLine = line;
            blockByte = -1;
            continue;
          }
        }
        const lf = text.indexOf("\n", pos);
        let lineEnd: number;
        let next: number;
        if (cr !== -1 && (lf === -1 || cr < lf)) {
          lineEnd = cr;
          next = cr + 1 < text.length && text.charCodeAt(cr + 1) === LF ? cr + 2 : cr + 1;
        } else if (lf !== -1) {
          lineEnd = lf;
          next = lf + 1;
        } else break;
        line++;
        if (lineEnd === pos) {
          if (inBlock) {
            if (blockByte === -1) blockByte = base + lineByteOffset(lines, blockLine - firstLine, start);
            if (this.open !== undefined || mayBeOver(start, next, this.maxEventBytes)) {
              const bytes = base + lineByteOffset(lines, line - firstLine, next) - blockByte;
              if (bytes > this.maxEventBytes) return this.tooLarge(blockLine, blockByte, bytes, true);
            }
            const position = hasData ? { transport: this.transport, frameIndex: this.frameIndex, line: blockLine, byteOffset: blockByte } : undefined;
            if (!simple) {
              const own = text.slice(start, next);
              this.feedBlock(this.open ? this.open.parts.join("") + own : own, position);
            } else {
              if (eventData !== undefined) out.push(classifySse(eventName, eventData, position!));
            }
            this.frameIndex++;
            this.open = undefined;
          }
          inBlock = false;
          hasData = false;
          simple = true;
          eventName = eventData = undefined;
          pos = next;
          start = pos;
          blockLine = line;
          blockByte = -1;
        } else {
          inBlock = true;
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
      // The block still open at the end of the complete lines goes on in a later chunk.
      if (inBlock) {
        const parts = this.open?.parts ?? [];
        if (start < text.length) parts.push(text.slice(start));
        if (blockByte === -1) blockByte = base + lineByteOffset(lines, blockLine - firstLine, start);
        this.open = { line: blockLine, byteOffset: blockByte, parts, hasData, simple, eventName, eventData };
      }
    }
    this.tail = end < data.length ? [data.subarray(end)] : [];
    this.tailSize = data.length - end;
    this.tailOffset = base + end;
    this.tailLine = line;
    if (checkPending) this.checkPending();
  }
}

/** The complete lines of one chunk: its bytes and their decoded text. */
interface ChunkLines {
  data: Uint8Array;
  /** Where the complete lines end in `data`. */
  end: number;
  transport: StreamTransport;
  /** Every byte decoded to one UTF-16 unit, so string offsets are byte offsets. */
  ascii: boolean;
  /** The byte offset of each line, found once when first needed (non-ASCII text only). */
  starts: number[] | undefined;
}

// The decoder's helpers are top-level functions, not closures made per chunk (see Decoder).

/** The byte offset of line `n` (from 0) of the chunk's text, which starts at string offset `at`. */
function lineByteOffset(lines: ChunkLines, n: number, at: number): number {
  if (lines.ascii) return at;
  return (lines.starts ??= lineStarts(lines.data, lines.end, lines.transport))[n]!;
}

/** A frame can only be over the limit when its text is over a third of it: a UTF-16 unit is at most 3 bytes. */
function mayBeOver(from: number, to: number, maxEventBytes: number): boolean {
  return (to - from) * 3 > maxEventBytes;
}

/** `parts` joined into one array of `size` bytes (their total). */
function join(parts: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function tailEndsWithCr(tail: Uint8Array[]): boolean {
  const last = tail[tail.length - 1]!;
  return last[last.length - 1] === CR;
}

/** Each channel with the lines of its block after the optional id line, up to the data value; the usual first. */
const CHANNEL_LINES = [STREAM_CHANNELS.event, STREAM_CHANNELS.keepalive, STREAM_CHANNELS.end].map((name) => ({ name, lines: `event: ${name}\ndata: ` }));

/** Where the line after the block's optional `id:` line starts (-1 when that line is not complete). */
function eventLineStart(text: string, pos: number): number {
  if (!isField(text, pos, text.length, "id:")) return pos;
  const lf = text.indexOf("\n", pos);
  return lf === -1 ? -1 : lf + 1;
}

/**
 * The channel whose `event: <channel>` and `data: ` lines start at `at`, as servers write them;
 * else undefined. The caller checks that the data line is followed by the blank line and that no
 * CR is involved.
 */
function channelLinesAt(text: string, at: number): (typeof CHANNEL_LINES)[number] | undefined {
  for (const channel of CHANNEL_LINES) if (text.startsWith(channel.lines, at)) return channel;
  return undefined;
}

/**
 * How many bytes of `chunk` complete lines: up to and with its last line break, or -1 when it ends
 * none. A CR as the last byte may be the first half of a CR LF, so its line is not complete yet; a
 * CR that ended the bytes before `chunk` (`afterCr`) is complete once `chunk` does not start with LF.
 * NDJSON lines end at LF only.
 */
function completeLinesEnd(chunk: Uint8Array, transport: StreamTransport, afterCr: boolean): number {
  const lf = chunk.lastIndexOf(LF);
  if (transport === "ndjson") return lf === -1 ? -1 : lf + 1;
  for (let i = chunk.length - 2; i > lf; i--) if (chunk[i] === CR) return i + 1;
  if (lf !== -1) return lf + 1;
  return afterCr && chunk[0] !== LF ? 0 : -1;
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
  // Envelopes, nearly every frame, are checked here; the other kinds in a function of their own, so
  // that the first of them (at a stream's end) does not make V8 throw away this one's optimized code.
  if (channel === STREAM_CHANNELS.event || (!isOtherChannel(channel) && isEnvelopeShaped(value))) {
    // The guard allocates no result object on the hot path; the errors are gathered for a bad frame only.
    if (isSequencedOutputEnvelopeResponse(value)) return { kind: "envelope", envelope: value, position };
    const result = validateSequencedOutputEnvelopeResponse(value);
    return invalidFrame(position, raw, "SequencedOutputEnvelope", result.ok ? [] : result.errors);
  }
  return classifyOther(value, raw, channel, position);
}

/** The keepalive or end channel: frames on them are classified by their channel alone. */
function isOtherChannel(channel: string | undefined): boolean {
  return channel === STREAM_CHANNELS.keepalive || channel === STREAM_CHANNELS.end;
}

/** Without a channel, a numeric `sequence` with an object `event` is an envelope (protocol notes §5.2). */
function isEnvelopeShaped(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const { sequence, event } = value as Record<string, unknown>;
  return typeof sequence === "number" && typeof event === "object" && event !== null;
}

/** A keepalive, the terminal frame or an unknown frame: by its channel, else by its `type`. */
function classifyOther(value: unknown, raw: string, channel: string | undefined, position: FramePosition): Frame {
  const type = !isOtherChannel(channel) && typeof value === "object" && value !== null ? (value as Record<string, unknown>).type : undefined;
  if (channel === STREAM_CHANNELS.keepalive || type === "keepalive") {
    const result = validateStreamKeepaliveResponse(value);
    return result.ok ? { kind: "keepalive" } : invalidFrame(position, raw, "StreamKeepalive", result.errors);
  }
  if (channel === STREAM_CHANNELS.end || type === "end") {
    const result = validateRunStreamTerminalResponse(value);
    return result.ok ? { kind: "end", terminal: result.value, position } : invalidFrame(position, raw, "RunStreamTerminal", result.errors);
  }
  return { kind: "unknown", raw, event: undefined, position };
}

function invalidFrame(position: FramePosition, raw: string, name: string, errors: ValidationIssue[]): Frame {
  return { kind: "error", error: new StreamFrameError(position, `not a valid ${name}`, raw, errors) };
}
