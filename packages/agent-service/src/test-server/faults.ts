/** Fault injection for the test server: each fault applies to the next matching request(s). */

export type ServerRoute = "create" | "get" | "list" | "cancel" | "respond" | "events" | "stream";

export interface Fault {
  /** Which routes it applies to; every route when omitted. */
  route?: ServerRoute | readonly ServerRoute[];
  /** How many matching requests it applies to (default 1). */
  times?: number;
  /** Answer with this status instead of handling the request. */
  status?: number;
  /** `Retry-After` header value to send with `status` (seconds or an HTTP date). */
  retryAfter?: string;
  /** A raw, non-envelope body to send with `status` (e.g. an HTML error page). */
  rawBody?: string;
  /** Wait this long before handling the request (request timeouts, an idempotent create in flight). */
  delayMs?: number;
  /** Destroy the socket before answering (a connection error). */
  resetConnection?: boolean;
  /** Stream: destroy the connection after writing this many envelopes. */
  dropAfterEvents?: number;
  /** Stream, with `dropAfterEvents`: write the first half of the next frame before dropping. */
  partialFrame?: boolean;
  /** Stream: stop writing (but keep the connection open, without keepalives) after this many envelopes. */
  stallAfterEvents?: number;
  /**
   * Stream: write one bad frame first: `json` (not JSON), `envelope` (an envelope that fails the
   * schema) or `unknown` (a frame of no known kind, which clients skip).
   */
  malformed?: "json" | "envelope" | "unknown";
  /** Stream: skip the envelope with this sequence (a gap the client must detect). Applies on every connection while `times` lasts. */
  skipSequence?: number;
}

/** A queue of faults, consumed in order by matching requests. */
export function createFaultQueue() {
  const queue: (Fault & { left: number })[] = [];
  return {
    add(fault: Fault): void {
      queue.push({ ...fault, left: fault.times ?? 1 });
    },
    clear(): void {
      queue.length = 0;
    },
    /** The first fault matching `route`, consumed once; undefined when none. */
    take(route: ServerRoute): Fault | undefined {
      const index = queue.findIndex((f) => f.route === undefined || f.route === route || (Array.isArray(f.route) && f.route.includes(route)));
      if (index < 0) return undefined;
      const fault = queue[index]!;
      fault.left--;
      if (fault.left <= 0) queue.splice(index, 1);
      return fault;
    },
    get pending(): number {
      return queue.length;
    },
  };
}
export type FaultQueue = ReturnType<typeof createFaultQueue>;
