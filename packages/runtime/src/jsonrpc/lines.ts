import { concatBytes } from "../read-limited.js";

/** How much of a discarded line `onOversize` gets to see. */
const HEAD_BYTES = 256;

/** The default largest line a reader accepts (StepFlow project rule: 16 MiB). */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * A byte limit (`maxLineBytes`, `maxMessageBytes`), or the default when absent. Anything but a
 * positive integer is a RangeError: 0 or less would discard every message (calls never answered),
 * NaN would turn the limit off.
 */
export function byteLimit(name: string, value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_LINE_BYTES;
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

export interface LineReader {
  /** Feeds a chunk of bytes; complete lines are delivered synchronously, in order. */
  push(chunk: Uint8Array): void;
  /** Delivers a last line without a trailing newline, if any. */
  end(): void;
}

/**
 * Splits a byte stream into newline-terminated lines (a trailing `\r` is dropped). A line longer
 * than `maxLineBytes` is discarded up to its newline without being buffered whole, and reported
 * once through `onOversize`, with its size and its first bytes as text (`head`, at most
 * `HEAD_BYTES`: enough to read a JSON-RPC id written first); the reader then carries on.
 */
export function createLineReader(onLine: (line: string) => void, onOversize: (bytes: number, head: string) => void, maxLineBytes = DEFAULT_MAX_LINE_BYTES): LineReader {
  const decoder = new TextDecoder();
  let parts: Uint8Array[] = [];
  let size = 0;
  let discarding = false;
  let discarded = 0;
  let head = "";

  const deliver = (line: string) => onLine(line.endsWith("\r") ? line.slice(0, -1) : line);

  const flush = () => {
    const bytes = parts.length === 1 ? parts[0]! : concatBytes(parts, size);
    parts = [];
    size = 0;
    deliver(decoder.decode(bytes));
  };

  const take = (piece: Uint8Array) => {
    if (discarding) {
      discarded += piece.length;
      return;
    }
    if (size + piece.length > maxLineBytes) {
      discarding = true;
      discarded = size + piece.length;
      head = new TextDecoder().decode(firstBytes([...parts, piece], HEAD_BYTES));
      parts = [];
      size = 0;
      return;
    }
    if (piece.length > 0) {
      parts.push(piece);
      size += piece.length;
    }
  };

  return {
    push(chunk) {
      let start = 0;
      const endLine = (newline: number) => {
        take(chunk.subarray(start, newline));
        if (discarding) {
          discarding = false;
          onOversize(discarded, head);
        } else {
          flush();
        }
        start = newline + 1;
      };
      // A line begun in an earlier chunk is ended on its own first: a pipe cuts lines anywhere,
      // and the lines after it would otherwise each be decoded alone.
      if (size > 0 || discarding) {
        const newline = chunk.indexOf(10);
        if (newline === -1) {
          take(chunk.slice());
          return;
        }
        endLine(newline);
      }
      // The complete lines that lie wholly in the rest of the chunk and cannot be oversized are
      // decoded in one call and split as text (a newline byte never occurs inside a UTF-8 sequence).
      const last = chunk.lastIndexOf(10);
      if (last >= start && last - start <= maxLineBytes) {
        for (const line of decoder.decode(chunk.subarray(start, last)).split("\n")) deliver(line);
        start = last + 1;
      }
      for (let newline = chunk.indexOf(10, start); newline !== -1; newline = chunk.indexOf(10, start)) endLine(newline);
      // A copy where it matters: the caller may reuse a Uint8Array (a Buffer's slice is a view).
      if (start < chunk.length) take(chunk.slice(start));
    },
    end() {
      if (discarding) onOversize(discarded, head);
      else if (size > 0) flush();
      discarding = false;
    },
  };
}

/** The first `n` bytes of `chunks` (fewer if they hold fewer), joined. */
function firstBytes(chunks: Uint8Array[], n: number): Uint8Array {
  const out = new Uint8Array(Math.min(n, chunks.reduce((total, chunk) => total + chunk.length, 0)));
  let offset = 0;
  for (const chunk of chunks) {
    if (offset === out.length) break;
    const part = chunk.subarray(0, out.length - offset);
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
