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
 * A trace step while its run goes on: the request and response as they were sent and received.
 * They are masked once, when the trace leaves the run (`maskTrace`), rather than after every call:
 * the masking then uses every secret the run met, including those of later actions, and it costs
 * less done in one go than spread between HTTP calls (measured in bench/agents-json).
 */
export interface PendingStep extends Omit<TraceStep, "request" | "response"> {
  method: string;
  /** Set once the request is built; a redirect replaces it with the request that was really sent. */
  request?: { method: string; url: URL; headers: Headers };
  response?: { status: number; headers: Headers; body: unknown };
}

/** The trace as callers see it, every URL, header and body masked (§6). */
export function maskTrace(steps: readonly PendingStep[], redactor: Redactor): TraceStep[] {
  return steps.map((pending) => {
    const { request, response } = pending;
    const step: TraceStep = {
      actionId: pending.actionId,
      operationId: pending.operationId,
      request: request ? { method: request.method, url: redactor.url(request.url), headers: redactor.headers(request.headers) } : { method: pending.method, url: "", headers: {} },
      durationMs: pending.durationMs,
      appliedLinks: pending.appliedLinks,
      skippedLinks: pending.skippedLinks,
      notes: pending.notes,
    };
    if (response) step.response = { status: response.status, headers: redactor.headers(response.headers), body: redactor.value(response.body) };
    return step;
  });
}
