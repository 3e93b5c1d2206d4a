/**
 * UUID v4 as the Spec's validation page writes it (case-insensitive; no `urn:uuid:` prefix, no
 * braces): `/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i`, tested
 * without the regex. Every id of a tree is tested, and that regex cost nearly as much per task as a
 * whole topological sort; the fixed places first, then the 32 hex digits through a table of every
 * UTF-16 code unit, ANDed without a branch per character, take about 60% of its time on flat strings
 * (as JSON.parse and crypto.randomUUID make them), and no more than it on ropes (template-built).
 */
export function isUuidV4(value: string): boolean {
  if (value.length !== 36) return false;
  if (value.charCodeAt(8) !== DASH || value.charCodeAt(13) !== DASH || value.charCodeAt(18) !== DASH || value.charCodeAt(23) !== DASH) return false;
  if (value.charCodeAt(14) !== 52) return false; // the version, "4"
  const variant = value.charCodeAt(19);
  if (variant !== 56 && variant !== 57 && variant !== 97 && variant !== 98 && variant !== 65 && variant !== 66) return false; // 8 9 a b A B
  let hex = 1;
  for (let i = 0; i < 8; i++) hex &= IS_HEX[value.charCodeAt(i)]!;
  for (let i = 9; i < 13; i++) hex &= IS_HEX[value.charCodeAt(i)]!;
  for (let i = 15; i < 18; i++) hex &= IS_HEX[value.charCodeAt(i)]!;
  for (let i = 20; i < 23; i++) hex &= IS_HEX[value.charCodeAt(i)]!;
  for (let i = 24; i < 36; i++) hex &= IS_HEX[value.charCodeAt(i)]!;
  return hex === 1;
}

const DASH = 45;
/** 1 for the code units of 0-9, a-f and A-F; 0 for every other one (all 65,536, so no range test). */
const IS_HEX = new Uint8Array(65536);
for (const c of "0123456789abcdefABCDEF") IS_HEX[c.charCodeAt(0)] = 1;

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))?$/;

export interface ParsedTimestamp {
  /** Milliseconds since the epoch; a value without an offset is read as UTC. */
  epochMs: number;
  /** The text carries `Z` or a numeric offset (RFC 3339 requires one). */
  hasOffset: boolean;
  /** `Z`, `+00:00`, `-00:00`, or no offset at all. */
  utc: boolean;
}

/**
 * Parses an RFC 3339 date-time, also accepting a missing offset (Python `isoformat()` output) so
 * the caller can decide how to report it. Returns undefined for anything else, including
 * out-of-range fields such as February 30.
 */
export function parseTimestamp(text: string): ParsedTimestamp | undefined {
  // Trees often share a handful of timestamps (a builder writes one per build): parse each once,
  // and compare with the last one before looking in the map (consecutive tasks mostly share it).
  if (text === lastText) return lastParsed ?? undefined;
  let parsed = recent.get(text);
  if (parsed === undefined) {
    const fresh = parseUncached(text);
    parsed = fresh ? Object.freeze(fresh) : null;
    if (recent.size >= 256) recent.clear();
    recent.set(text, parsed);
  }
  lastText = text;
  lastParsed = parsed;
  return parsed ?? undefined;
}

const recent = new Map<string, ParsedTimestamp | null>();
let lastText: string | undefined;
let lastParsed: ParsedTimestamp | null = null;

function parseUncached(text: string): ParsedTimestamp | undefined {
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [
    number, number, number, number, number, number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  let offsetMin = 0;
  const zone = m[8];
  if (m[9] !== undefined) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offsetMin = (m[9] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  // A leap second exists only as the last second of a UTC day (as ajv-formats checks it).
  if (second === 60 && (((hour * 60 + minute - offsetMin) % 1440) + 1440) % 1440 !== 1439) return undefined;
  const fraction = m[7] ? Number(m[7]) * 1000 : 0;
  const epochMs = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59)) + fraction - offsetMin * 60_000;
  return { epochMs, hasOffset: zone !== undefined, utc: offsetMin === 0 };
}

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
