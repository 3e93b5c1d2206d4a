import type { Redactor } from "./redact.js";

/** One executed action, as recorded in the trace (§4.4); secrets are redacted. */
export interface TraceStep {
  actionId: string;
  operationId: string;
  request: { method: string; url: string; headers: Record<string, string> };
  response?: { status: number; headers: Record<string, string>; body: unknown };
  durationMs: number;
  appliedLinks: number[];
  skippedLinks: { index: number; reason: string }[];
  notes: string[];
}

/**
 * `record` with its `headers` (a `Headers`) replaced by their masked record, made when first read. A
 * trace is recorded for every call and mostly never read, and copying undici's `Headers` (sorted
 * and checked on every iteration) for each request and response cost 2–3% of a loopback call. The
 * `Headers` are not changed once recorded (a redirect copies them first; a response's are
 * immutable), and the run's secrets only grow, so a later read masks at least as much.
 */
export function maskHeadersWhenRead<T extends { headers: Headers }>(record: T, redactor: Redactor): Omit<T, "headers"> & { headers: Record<string, string> } {
  const headers = record.headers;
  let masked: Record<string, string> | undefined;
  // Redefined in place, so the key keeps its place in the record (and in its JSON).
  return Object.defineProperty(record, "headers", {
    enumerable: true,
    configurable: true,
    get: () => (masked ??= redactor.headers(headers)),
    set: (value: Record<string, string>) => {
      masked = value;
    },
  }) as unknown as Omit<T, "headers"> & { headers: Record<string, string> };
}
