import type { SourceLocation } from "./source-document.js";

/**
 * The 1-based line and column of `offset` in `text`, counting from `from`, which is on line `line`
 * (that starts at `lineStart`). Lines break at LF, CR LF or a lone CR; columns count UTF-16 units.
 */
function locationFrom(text: string, from: number, line: number, lineStart: number, offset: number): SourceLocation {
  for (let i = from; i < offset; i++) {
    const c = text.charCodeAt(i);
    // A CR LF breaks the line at its LF.
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Where `offset` is in `text`: one pass up to it, for a single location (an error). */
export function offsetLocation(text: string, offset: number): SourceLocation {
  return locationFrom(text, 0, 1, 0, offset);
}

/** Characters between two remembered positions: a location counts at most this many. */
const STRIDE = 1024;

/**
 * Locations for many offsets of one text. The first call remembers the line (and where it starts)
 * at every 1024th character, in one pass: 8 bytes per KiB of text. Each call then counts from the
 * nearest such position, so a minified document on one line costs no more than a long one.
 */
export function lineIndex(text: string): (offset: number) => SourceLocation {
  let lines: Int32Array | undefined;
  let starts: Int32Array | undefined;
  return (offset) => {
    if (!lines || !starts) [lines, starts] = marks(text);
    const k = Math.min(Math.floor(offset / STRIDE), lines.length - 1);
    return locationFrom(text, k * STRIDE, lines[k]!, starts[k]!, offset);
  };
}

/** The line, and where it starts, at offsets 0, STRIDE, 2 × STRIDE… up to the text's length. */
function marks(text: string): [Int32Array, Int32Array] {
  const lines = new Int32Array(Math.floor(text.length / STRIDE) + 1);
  const starts = new Int32Array(lines.length);
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i % STRIDE === 0) {
      lines[i / STRIDE] = line;
      starts[i / STRIDE] = lineStart;
    }
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return [lines, starts];
}
