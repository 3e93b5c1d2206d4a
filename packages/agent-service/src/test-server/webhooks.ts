/**
 * Webhook deliveries from the test server (protocol notes §6): each event of a run with a
 * `webhook` subscription, filtered by `eventTypes`, POSTed in order and signed the Standard
 * Webhooks way. Only loopback URLs are called, so tests never reach the network.
 */
import type { SequencedOutputEnvelope } from "../generated/index.js";
import { signWebhook } from "../webhooks/signature.js";
import type { StoredRun } from "./store.js";

export interface WebhookLog {
  url: string;
  eventId: string;
  /** HTTP status of the receiver's answer, or the error that prevented one. */
  outcome: number | string;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

export function createWebhookSender(secret: string) {
  const log: WebhookLog[] = [];
  const queues = new WeakMap<StoredRun, Promise<void>>();

  function send(stored: StoredRun, envelope: SequencedOutputEnvelope): void {
    const subscription = stored.run.webhook;
    if (!subscription) return;
    if (subscription.eventTypes && !subscription.eventTypes.includes(envelope.event.type)) return;
    const body = JSON.stringify({
      eventId: envelope.event.eventId,
      eventType: envelope.event.type,
      version: stored.run.version,
      runId: envelope.runId,
      sequence: envelope.sequence,
      createdAt: envelope.event.createdAt,
      event: envelope.event,
    });
    const url = subscription.url;
    const deliver = async () => {
      let host: string;
      try {
        host = new URL(url).hostname;
      } catch {
        log.push({ url, eventId: envelope.event.eventId, outcome: "invalid url" });
        return;
      }
      if (!LOOPBACK.has(host)) {
        log.push({ url, eventId: envelope.event.eventId, outcome: "refused: the test server only calls loopback URLs" });
        return;
      }
      const signed = await signWebhook({ id: envelope.event.eventId, rawBody: body, secret });
      const headers: Record<string, string> = { "content-type": "application/json" };
      for (const [name, value] of Object.entries(subscription.headers ?? {})) if (value !== undefined) headers[name] = value;
      try {
        const response = await fetch(url, { method: "POST", headers: { ...headers, ...signed }, body });
        await response.arrayBuffer();
        log.push({ url, eventId: envelope.event.eventId, outcome: response.status });
      } catch (error) {
        log.push({ url, eventId: envelope.event.eventId, outcome: error instanceof Error ? error.message : String(error) });
      }
    };
    // One delivery at a time per run, in sequence order.
    queues.set(stored, (queues.get(stored) ?? Promise.resolve()).then(deliver));
  }

  /** Resolves once every delivery queued so far for the run has been attempted. */
  const settled = (stored: StoredRun) => queues.get(stored) ?? Promise.resolve();

  return { send, settled, log };
}
