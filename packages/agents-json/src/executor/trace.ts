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
