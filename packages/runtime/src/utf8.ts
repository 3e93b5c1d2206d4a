import { DocumentParseError } from "./source-document.js";
import { offsetLocation } from "./lines.js";

const strict = new TextDecoder("utf-8", { fatal: true });
const lenient = new TextDecoder("utf-8");

/**
 * Decodes UTF-8 (a leading byte order mark is dropped). Bytes that are not UTF-8 are a
 * `DocumentParseError` at the line and column of the first of them, instead of the U+FFFD a
 * lenient decoder would put in their place without a word.
 */
export function decodeUtf8(bytes: Uint8Array, file?: string): string {
  try {
    return strict.decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    // Everything before it is valid, so this decodes it exactly.
    const before = lenient.decode(bytes.subarray(0, at));
    const hex = bytes[at]!.toString(16).toUpperCase().padStart(2, "0");
    throw new DocumentParseError(`invalid UTF-8 (byte 0x${hex} at byte offset ${at})`, file, offsetLocation(before, before.length));
  }
}

/** The offset of the first byte that does not start a well-formed UTF-8 sequence (RFC 3629), or the length. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    // The continuation bytes a lead byte takes, and the range of the first (which excludes
    // overlong forms, surrogates and code points past U+10FFFF).
    let more: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) more = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      more = 2;
      if (b === 0xe0) low = 0xa0;
      if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      more = 3;
      if (b === 0xf0) low = 0x90;
      if (b === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k <= more; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < (k === 1 ? low : 0x80) || next > (k === 1 ? high : 0xbf)) return i;
    }
    i += more + 1;
  }
  return bytes.length;
}
