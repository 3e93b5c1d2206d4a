import { createParser, type EventSourceMessage } from "eventsource-parser";

/** An SSE parser whose events are bounded in bytes. */
export interface BoundedSseParser {
  /** Feeds decoded text; events are delivered synchronously, none after one over the limit. */
  feed(text: string): void;
  /** Once an event has passed the limit: its size in bytes (`whole`) or what had arrived of it. */
  readonly oversize: { bytes: number; whole: boolean } | undefined;
}

/** What a line of an SSE event adds to the data it carries: `data: ` and a line end. */
const SSE_LINE_ROOM = "data: \r\n".length;

/**
 * eventsource-parser with a limit on the data of one event, in UTF-8 bytes: an unfinished event is
 * never held past about `maxEventBytes` (the parser's buffer, in UTF-16 units, never more than the
 * bytes, is bounded to it plus room for the `data: ` and line end of its last line, so an event of
 * exactly the limit is not cut off), and a whole event is counted in bytes as it is dispatched.
 * After an event over the limit, nothing more is delivered.
 */
export function createBoundedSseParser(maxEventBytes: number, onEvent: (event: EventSourceMessage) => void): BoundedSseParser {
  // A UTF-16 code unit is at most 3 bytes of UTF-8: only an event longer than this can be over the limit.
  const countFrom = maxEventBytes / 3;
  let oversize: { bytes: number; whole: boolean } | undefined;
  const parser = createParser({
    maxBufferSize: maxEventBytes + SSE_LINE_ROOM,
    onError(error) {
      if (error.type === "max-buffer-size-exceeded") oversize ??= { bytes: maxEventBytes + 1, whole: false };
    },
    onEvent(event) {
      if (oversize) return;
      if (event.data.length > countFrom) {
        const bytes = utf8Length(event.data);
        if (bytes > maxEventBytes) return void (oversize = { bytes, whole: true });
      }
      onEvent(event);
    },
  });
  return {
    feed: (text) => parser.feed(text),
    get oversize() {
      return oversize;
    },
  };
}

/** The length of a string in UTF-8, without encoding it (from a decoder: no lone surrogates). */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // 1 byte below U+0080, 2 below U+0800, 3 above; a surrogate pair's 4 bytes are 2 per half.
    if (code >= 0x80) bytes += code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}
