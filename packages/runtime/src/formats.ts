/**
 * The formats generated validators check, each its own export, so that a bundle holds only the
 * formats its validators use: codegen imports them by name (the format's name in camelCase plus
 * `Format`: `dateTimeFormat`, `uriFormat`). They answer as ajv-formats 3's full formats do (a
 * differential test pins each one; `int64` differs on purpose, see below), written as plain ESM:
 * ajv-formats is one CommonJS module holding every format, so a bundle that imported one kept all.
 * The regular expressions are ajv-formats' own, verbatim (MIT licence, (c) Evgeny Poberezkin).
 * Formats that are regular expressions never reach generated code (ajv inlines them); they are
 * here for `formats`, the whole table, which codegen registers.
 */

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


const DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;

/** RFC 3339 `full-date`: `YYYY-MM-DD`, a real day (Feb 29 in leap years). */
export function dateFormat(s: string): boolean {
  const matches = DATE.exec(s);
  if (!matches) return false;
  const year = Number(matches[1]);
  const month = Number(matches[2]);
  const day = Number(matches[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap ? 29 : DAYS[month]!);
}

const TIME = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$/i;

/** `hh:mm:ss[.frac]` and a zone (required unless `zoneOptional`); second 60 only at 23:59 UTC. */
function isTime(s: string, zoneOptional: boolean): boolean {
  const matches = TIME.exec(s);
  if (!matches) return false;
  const hr = Number(matches[1]);
  const min = Number(matches[2]);
  const sec = Number(matches[3]);
  const tzSign = matches[5] === "-" ? -1 : 1;
  const tzH = Number(matches[6] ?? 0);
  const tzM = Number(matches[7] ?? 0);
  if (tzH > 23 || tzM > 59 || (!zoneOptional && !matches[4])) return false;
  if (hr <= 23 && min <= 59 && sec < 60) return true;
  // A leap second: 23:59:60 in UTC.
  const utcMin = min - tzM * tzSign;
  const utcHr = hr - tzH * tzSign - (utcMin < 0 ? 1 : 0);
  return (utcHr === 23 || utcHr === -1) && (utcMin === 59 || utcMin === -1) && sec < 61;
}

/** RFC 3339 `full-time`: a time with its zone. */
export function timeFormat(s: string): boolean {
  return isTime(s, false);
}

/** ISO 8601 time: as `time`, the zone optional. */
export function isoTimeFormat(s: string): boolean {
  return isTime(s, true);
}

/** RFC 3339 `date-time` (`isDateTime`). */
export const dateTimeFormat = isDateTime;

const DATE_TIME_SEPARATOR = /t|\s/i;

/** ISO 8601 date-time: a date, `T`, `t` or one whitespace character, and an ISO time. */
export function isoDateTimeFormat(s: string): boolean {
  const parts = s.split(DATE_TIME_SEPARATOR);
  return parts.length === 2 && dateFormat(parts[0]!) && isoTimeFormat(parts[1]!);
}

const NOT_URI_FRAGMENT = /\/|:/;
const URI = /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;

/**
 * URIs as documents carry them, all valid: `scheme://host[:port]/path?query#fragment` with a plain
 * registered name for host and no percent-encoding. A strict subset of URI, and a small expression:
 * V8 compiles URI on its first use, which costs milliseconds at a process's start.
 */
const COMMON_URI = /^[a-z][a-z0-9+\-.]*:\/\/[a-z0-9\-._~!$&'()*+,;=]*(?::\d*)?(?:\/[a-z0-9\-._~!$&'()*+,;=:@]*)*(?:\?[a-z0-9\-._~!$&'()*+,;=:@/?]*)?(?:#[a-z0-9\-._~!$&'()*+,;=:@/?]*)?$/i;

/** An RFC 3986 URI with a scheme. */
export function uriFormat(s: string): boolean {
  return COMMON_URI.test(s) || (NOT_URI_FRAGMENT.test(s) && URI.test(s));
}

const Z_ANCHOR = /[^\\]\\Z/;

/** A regular expression JavaScript compiles, without `\Z` (which means "end" in other dialects only). */
export function regexFormat(s: string): boolean {
  if (Z_ANCHOR.test(s)) return false;
  try {
    new RegExp(s);
    return true;
  } catch {
    return false;
  }
}

const BYTE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/gm;

/** Base64 (OpenAPI `byte`). */
export function byteFormat(s: string): boolean {
  BYTE.lastIndex = 0;
  return BYTE.test(s);
}

export const durationFormat = /^P(?!$)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)$/;
export const uriReferenceFormat = /^(?:[a-z][a-z0-9+\-.]*:)?(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'"()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*)?(?:\?(?:[a-z0-9\-._~!$&'"()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'"()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;
export const uriTemplateFormat = /^(?:(?:[^\x00-\x20"'<>%\\^`{|}]|%[0-9a-f]{2})|\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?)*\})*$/i;
export const urlFormat = /^(?:https?|ftp):\/\/(?:\S+(?::\S*)?@)?(?:(?!(?:10|127)(?:\.\d{1,3}){3})(?!(?:169\.254|192\.168)(?:\.\d{1,3}){2})(?!172\.(?:1[6-9]|2\d|3[0-1])(?:\.\d{1,3}){2})(?:[1-9]\d?|1\d\d|2[01]\d|22[0-3])(?:\.(?:1?\d{1,2}|2[0-4]\d|25[0-5])){2}(?:\.(?:[1-9]\d?|1\d\d|2[0-4]\d|25[0-4]))|(?:(?:[a-z0-9\u{00a1}-\u{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)(?:\.(?:[a-z0-9\u{00a1}-\u{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)*(?:\.(?:[a-z\u{00a1}-\u{ffff}]{2,})))(?::\d{2,5})?(?:\/[^\s]*)?$/iu;
export const emailFormat = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
export const hostnameFormat = /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\.?$/i;
export const ipv4Format = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
export const ipv6Format = /^((([0-9a-f]{1,4}:){7}([0-9a-f]{1,4}|:))|(([0-9a-f]{1,4}:){6}(:[0-9a-f]{1,4}|((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){5}(((:[0-9a-f]{1,4}){1,2})|:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){4}(((:[0-9a-f]{1,4}){1,3})|((:[0-9a-f]{1,4})?:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){3}(((:[0-9a-f]{1,4}){1,4})|((:[0-9a-f]{1,4}){0,2}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){2}(((:[0-9a-f]{1,4}){1,5})|((:[0-9a-f]{1,4}){0,3}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){1}(((:[0-9a-f]{1,4}){1,6})|((:[0-9a-f]{1,4}){0,4}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(:(((:[0-9a-f]{1,4}){1,7})|((:[0-9a-f]{1,4}){0,5}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:)))$/i;
export const uuidFormat = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
export const jsonPointerFormat = /^(?:\/(?:[^~/]|~0|~1)*)*$/;
export const jsonPointerUriFragmentFormat = /^#(?:\/(?:[a-z0-9_\-.!$&'()*+,;:=@]|%[0-9a-f]{2}|~0|~1)*)*$/i;
export const relativeJsonPointerFormat = /^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~0|~1)*)*)$/;

// Number formats: OpenAPI's, and the integer widths of StepFlow's Rust-derived schema, read as
// ranges of JS numbers. `int64` is a safe integer: ajv-formats takes any integer, also one past
// 2^53, where the number no longer holds the integer that was sent.
export const int32Format = { type: "number", validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n <= 2 ** 31 - 1 } as const;
export const int64Format = { type: "number", validate: (n: number) => Number.isSafeInteger(n) } as const;
export const uint16Format = { type: "number", validate: (n: number) => Number.isInteger(n) && n >= 0 && n <= 0xffff } as const;
export const uint32Format = { type: "number", validate: (n: number) => Number.isInteger(n) && n >= 0 && n <= 0xffffffff } as const;
export const uint64Format = { type: "number", validate: (n: number) => Number.isSafeInteger(n) && n >= 0 } as const;
export const floatFormat = { type: "number", validate: (_n: number) => true } as const;
export const doubleFormat = { type: "number", validate: (_n: number) => true } as const;

/**
 * Every format by name, as ajv's `formats` option and `addFormat` take them: ajv-formats' full set
 * plus `uint16`, `uint32` and `uint64`; `password` and `binary` are known and never checked
 * (`true`). Codegen registers this table, so generation and run time agree. It is a plain object of
 * the exports above: a bundle that does not use it drops it.
 */
export const formats = {
  date: dateFormat,
  time: timeFormat,
  "date-time": dateTimeFormat,
  "iso-time": isoTimeFormat,
  "iso-date-time": isoDateTimeFormat,
  duration: durationFormat,
  uri: uriFormat,
  "uri-reference": uriReferenceFormat,
  "uri-template": uriTemplateFormat,
  url: urlFormat,
  email: emailFormat,
  hostname: hostnameFormat,
  ipv4: ipv4Format,
  ipv6: ipv6Format,
  regex: regexFormat,
  uuid: uuidFormat,
  "json-pointer": jsonPointerFormat,
  "json-pointer-uri-fragment": jsonPointerUriFragmentFormat,
  "relative-json-pointer": relativeJsonPointerFormat,
  byte: byteFormat,
  int32: int32Format,
  int64: int64Format,
  float: floatFormat,
  double: doubleFormat,
  password: true,
  binary: true,
  uint16: uint16Format,
  uint32: uint32Format,
  uint64: uint64Format,
} as const;
