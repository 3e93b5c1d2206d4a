import { RunsClient, type RunsClientOptions } from "@flowspec/agent-service";

/** A minimal valid Run (the 9 required properties), running unless overridden. */
export const fakeRun = (overrides: Record<string, unknown> = {}) => ({
  runId: "run-1",
  orgId: "o",
  resourceType: "agent",
  resourceId: "agent-1",
  input: { mode: "agent", messages: [] },
  attempts: [],
  eventSequence: 0,
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt: "2026-01-01T00:00:00Z",
  status: "running",
  ...overrides,
});

/** A `{code: 0, message, data}` answer. */
export const ok = (data: unknown) => new Response(JSON.stringify({ code: 0, message: "ok", data }), { headers: { "content-type": "application/json" } });

/** An SSE answer with this body. */
export const sse = (body: string) => new Response(body, { headers: { "content-type": "text/event-stream" } });

/** The SSE block of an end frame. */
export const endFrame = (fields: Record<string, unknown>) => `event: run.stream.end\ndata: ${JSON.stringify({ type: "end", runId: "run-1", ...fields })}\n\n`;

/** A client of a fake server: `answer` gets each request's URL; retry sleeps are recorded and instant. */
export function fakeClient(answer: (url: string, init: RequestInit) => Response | Promise<Response>, options: Partial<RunsClientOptions> = {}) {
  const delays: number[] = [];
  const urls: string[] = [];
  const client = new RunsClient({
    baseUrl: "http://agent-service.test",
    orgId: "o",
    token: "t",
    fetch: async (url, init) => {
      urls.push(url);
      return answer(url, init);
    },
    ...options,
    retry: { random: () => 0, sleep: async (ms) => void delays.push(ms), ...options.retry },
  });
  return { client, delays, urls };
}
