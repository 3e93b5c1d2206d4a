import { RunsClient, type RunsClientOptions } from "@flowspec/agent-service";
import type { TestServer } from "@flowspec/agent-service/testing";

/** A client for the test server whose retry sleeps are recorded and instant, and whose jitter is fixed. */
export function clientFor(server: TestServer, options: Partial<RunsClientOptions> = {}) {
  const delays: number[] = [];
  const client = new RunsClient({
    baseUrl: server.url,
    orgId: server.orgId,
    token: server.token,
    ...options,
    retry: {
      random: () => 0,
      sleep: async (ms, signal) => {
        delays.push(ms);
        if (signal?.aborted) throw signal.reason;
      },
      ...options.retry,
    },
  });
  return { client, delays };
}

export const agentBody = (overrides: Record<string, unknown> = {}) => ({
  resourceType: "agent" as const,
  resourceId: "agent-1",
  input: { mode: "agent" as const, messages: [{ role: "user", content: "hello there world" }] },
  ...overrides,
});
