import { fullFormats } from "ajv-formats/dist/formats.js";

const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const WHITESPACE = /^\s$/;

/** The value of the ASCII digit at `i`, or -1. */
function digit(s: string, i: number): number {
  const d = s.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : -1;
}

/** The two-digit number at `i`, or -1. */
function twoDigits(s: string, i: number): number {
  const a = digit(s, i);
  const b = digit(s, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

/**
 * Timestamps as services write them, all valid: a day up to the 28th, `T` or a space, hh ≤ 23,
 * mm ≤ 59, a second under 59 or exactly 59 (a fraction of 59 may round to 60), and a zone within
 * ±23:59. One native regular expression pass, cheaper than a scan of char codes in JavaScript.
 */
const COMMON_DATE_TIME = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])[Tt ](?:[01]\d|2[0-3]):[0-5]\d:(?:(?:[0-4]\d|5[0-8])(?:\.\d+)?|59)(?:[Zz]|[+-](?:[01]\d|2[0-3])(?::?[0-5]\d)?)$/;

/**
 * RFC 3339 `date-time`, accepting exactly what ajv-formats' full `date-time` accepts (a time zone
 * is required), instead of its split and two regular expressions with capture groups: stream
 * clients check a timestamp on every event. A differential test pins the equivalence, leap seconds
 * and their quirks included.
 */
export function isDateTime(s: string): boolean {
  return COMMON_DATE_TIME.test(s) || isAnyDateTime(s);
}

/**
 * The whole rule, in one scan of char codes (for what `COMMON_DATE_TIME` leaves: late days, other
 * separators, second 60, invalid strings).
 *
 * Accepted: `YYYY-MM-DD` (a real day; Feb 29 in leap years), `T`, `t` or one whitespace character,
 * `hh:mm:ss` with an optional fraction, then `Z`, `z`, `±hh`, `±hhmm` or `±hh:mm` (hh ≤ 23,
 * mm ≤ 59). Seconds may be 60 only when the time is 23:59 UTC (a leap second), as in ajv-formats.
 */
function isAnyDateTime(s: string): boolean {
  const length = s.length;
  // Shortest: 2020-01-01T00:00:00Z (20 characters).
  if (length < 20 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false;
  const y1 = twoDigits(s, 0);
  const y2 = twoDigits(s, 2);
  const month = twoDigits(s, 5);
  const day = twoDigits(s, 8);
  if (y1 < 0 || y2 < 0 || month < 1 || month > 12 || day < 1) return false;
  const year = y1 * 100 + y2;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : DAYS[month]!)) return false;
  const separator = s.charCodeAt(10);
  if (separator !== 84 && separator !== 116 && !WHITESPACE.test(s[10]!)) return false;
  // hh:mm:ss
  const hr = twoDigits(s, 11);
  const min = twoDigits(s, 14);
  const secInt = twoDigits(s, 17);
  if (hr < 0 || min < 0 || secInt < 0 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return false;
  let i = 19;
  let sec = secInt;
  if (s.charCodeAt(i) === 46) {
    // A fraction: at least one digit.
    const from = i;
    i++;
    while (digit(s, i) >= 0) i++;
    if (i === from + 1) return false;
    // The fraction only matters at the 60-second boundary, where float rounding decides as ajv-formats' `+"59.99…"` does.
    if (secInt >= 59) sec = Number(s.slice(17, i));
  }
  // Time zone (required).
  const tz = s.charCodeAt(i);
  let tzSign = 1;
  let tzH = 0;
  let tzM = 0;
  if (tz === 90 || tz === 122) {
    if (i + 1 !== length) return false;
  } else if (tz === 43 || tz === 45) {
    tzSign = tz === 45 ? -1 : 1;
    tzH = twoDigits(s, i + 1);
    if (tzH < 0) return false;
    i += 3;
    if (i !== length) {
      if (s.charCodeAt(i) === 58) i++;
      tzM = twoDigits(s, i);
      if (tzM < 0 || i + 2 !== length) return false;
    }
  } else return false;
  if (tzH > 23 || tzM > 59) return false;
  if (hr <= 23 && min <= 59 && sec < 60) return true;
  // A leap second: 23:59:60 in UTC.
  const utcMin = min - tzM * tzSign;
  const utcHr = hr - tzH * tzSign - (utcMin < 0 ? 1 : 0);
  return (utcHr === 23 || utcHr === -1) && (utcMin === 59 || utcMin === -1) && sec < 61;
}

/**
 * Formats the generated validators check, by name: ajv-formats' full set plus the integer-width
 * formats StepFlow's Rust-derived schema uses (`int64`, `uint16`, `uint32`, `uint64`), read as
 * ranges of JS numbers. `date-time` is `isDateTime` (same answers, a fraction of the cost). Codegen
 * registers this same table, so generation and run time agree.
 */
export const formats = {
  ...fullFormats,
  "date-time": { validate: isDateTime, compare: (fullFormats["date-time"] as { compare: (a: string, b: string) => number | undefined }).compare },
  int64: { type: "number", validate: (n: number) => Number.isSafeInteger(n) },
  uint16: { type: "number", validate: (n: number) => Number.isInteger(n) && n >= 0 && n <= 0xffff },
  uint32: { type: "number", validate: (n: number) => Number.isInteger(n) && n >= 0 && n <= 0xffffffff },
  uint64: { type: "number", validate: (n: number) => Number.isSafeInteger(n) && n >= 0 },
} as const;
