/**
 * The retry rules every flowspec client shares: exponential backoff with jitter, and `Retry-After`
 * read strictly (RFC 9110 §10.2.3), so a server's advice is followed only when it says something.
 */
import { startTimer } from "./timer.js";

export interface Backoff {
  /** The first delay; it doubles each retry. */
  initialDelayMs: number;
  /** The cap of the doubling. */
  maxDelayMs: number;
  /** Up to this fraction of a delay is taken off at random (default 0.25), so clients that failed together do not retry together. */
  jitter?: number;
  /** Random source in [0, 1) (default Math.random). */
  random?: () => number;
}

/** The delay before retry number `retry` (0-based): doubling from the initial delay, capped, minus up to `jitter` of it. */
export function backoffDelay(retry: number, backoff: Backoff): number {
  const base = Math.min(backoff.initialDelayMs * 2 ** retry, backoff.maxDelayMs);
  return Math.round(base * (1 - (backoff.jitter ?? 0.25) * (backoff.random ?? Math.random)()));
}

/**
 * The delay before retry number `retry`: the server's `Retry-After` when it can be read (capped at
 * `maxRetryAfterMs`), else the backoff.
 */
export function retryDelay(retry: number, retryAfter: string | null | undefined, options: Backoff & { maxRetryAfterMs: number }, now: number = Date.now()): number {
  const after = parseRetryAfter(retryAfter, now);
  return after !== undefined ? Math.min(after, options.maxRetryAfterMs) : backoffDelay(retry, options);
}

const DAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const LONG_DAY = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTH = `(?<month>${MONTHS.join("|")})`;
const TIME = "(?<hour>\\d{2}):(?<minute>\\d{2}):(?<second>\\d{2})";
/** The three forms of an HTTP-date (RFC 9110 §5.6.7): IMF-fixdate, and the obsolete RFC 850 and asctime forms. */
const HTTP_DATES = [
  new RegExp(`^${DAY}, (?<day>\\d{2}) ${MONTH} (?<year>\\d{4}) ${TIME} GMT$`), // Sun, 06 Nov 1994 08:49:37 GMT
  new RegExp(`^${LONG_DAY}, (?<day>\\d{2})-${MONTH}-(?<year>\\d{2}) ${TIME} GMT$`), // Sunday, 06-Nov-94 08:49:37 GMT
  new RegExp(`^${DAY} ${MONTH} (?<day>[ \\d]\\d) ${TIME} (?<year>\\d{4})$`), // Sun Nov  6 08:49:37 1994
];

/**
 * `Retry-After` in ms from `now`, or undefined when absent or unreadable: delay-seconds (digits; a
 * fraction is taken too, as servers send one), or an HTTP-date in any of its three forms. Anything
 * else (`-1`, `2.`, `soon`, a date `Date.parse` would guess at) is unreadable. A date in the past is 0.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = httpDate(text, now);
  return date === undefined ? undefined : Math.max(0, date - now);
}

/** An HTTP-date as ms since the epoch, or undefined. */
function httpDate(text: string, now: number): number | undefined {
  const date = HTTP_DATES.map((form) => form.exec(text)?.groups).find(Boolean);
  if (!date) return undefined;
  let year = Number(date.year);
  if (date.year!.length === 2) {
    // A two-digit year that would be more than 50 years ahead is in the past century.
    const thisYear = new Date(now).getUTCFullYear();
    year += thisYear - (thisYear % 100);
    if (year > thisYear + 50) year -= 100;
  }
  const [month, day, hour, minute, second] = [MONTHS.indexOf(date.month!), Number(date.day), Number(date.hour), Number(date.minute), Number(date.second)];
  const time = Date.UTC(year, month, day, hour, minute, second);
  // Date.UTC rolls an impossible date over (31 Feb is 3 Mar, 25:00 the next day): refuse it instead.
  const check = new Date(time);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month || hour > 23 || minute > 59 || second > 60) return undefined;
  return time;
}

/** Waits `ms` (however long: see `startTimer`), rejecting with the signal's reason if it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      stop();
      reject(signal!.reason);
    };
    const stop = startTimer(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
