/**
 * Verifies and parses a webhook delivery (protocol notes §6): Standard Webhooks headers, the
 * timestamp within a tolerance, any one listed `v1` signature (the expected MAC is computed once and
 * compared in constant time here, not by Web Crypto's verify, which is not constant time on every
 * runtime), then the body. Works on the raw bytes as received, never on re-serialized JSON. Throws
 * WebhookVerificationError naming the check that failed.
 */
import type { OutputEvent } from "../generated/index.js";
import { WebhookVerificationError } from "../client/errors.js";
import { validateOutputEventResponse } from "../validate.js";
import { checkMs } from "../client/options.js";
import { bodyBytes, fromBase64, hmacKey, signedContent, timingSafeEqual, type WebhookBody } from "./signature.js";

/** A delivery's body (provisional): at least once, so dedupe by `eventId`. */
export interface WebhookDelivery {
  eventId: string;
  /** Equals `event.type` when `event` is present. */
  eventType: string;
  /** The run's `version` after the event. */
  version?: number;
  runId: string;
  sequence?: number;
  createdAt?: string;
  event?: OutputEvent;
  [key: string]: unknown;
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** The body exactly as received (a string, or the bytes: Buffer, Uint8Array, ArrayBuffer); never parsed JSON. */
  rawBody: WebhookBody;
  headers: WebhookHeaders;
  /** The value behind the subscription's `secretRef`. */
  secret: string;
  /** Largest accepted distance between the timestamp and now, in seconds (default 300). */
  toleranceSec?: number;
  /** Now, in ms since the epoch (default Date.now()); for tests. */
  now?: number;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(" ") : value;
  }
  return undefined;
}

export async function verifyWebhook(options: VerifyWebhookOptions): Promise<WebhookDelivery> {
  const body = bodyBytes(options.rawBody);
  const id = header(options.headers, "webhook-id");
  const timestamp = header(options.headers, "webhook-timestamp");
  const signatures = header(options.headers, "webhook-signature");
  const missing = [!id && "webhook-id", !timestamp && "webhook-timestamp", !signatures && "webhook-signature"].filter(Boolean);
  if (missing.length > 0) throw new WebhookVerificationError("headers", `missing ${missing.join(", ")}`);

  if (!/^\d+$/.test(timestamp!.trim())) throw new WebhookVerificationError("timestamp", `webhook-timestamp must be Unix seconds, got ${JSON.stringify(timestamp)}`);
  // Checked like every numeric option: a NaN tolerance would accept any timestamp, turning replay protection off.
  const tolerance = checkMs("toleranceSec", options.toleranceSec, "seconds") ?? 300;
  const skew = Math.abs((options.now ?? Date.now()) / 1000 - Number(timestamp));
  if (skew > tolerance) throw new WebhookVerificationError("timestamp", `webhook-timestamp is ${Math.round(skew)} s away from now (tolerance ${tolerance} s)`);

  const key = await hmacKey(options.secret, "sign");
  const expected = new Uint8Array(await crypto.subtle.sign("HMAC", key, signedContent(id!, timestamp!.trim(), body)));
  // Entries are `version,signature`, space-separated. Two webhook-signature headers reach us joined
  // by ", " (Headers, Node), which leaves a trailing comma on an entry: read as the Standard
  // Webhooks libraries do, the signature is what follows the first comma, up to the next.
  const candidates = signatures!
    .split(/\s+/)
    .map((entry) => entry.split(","))
    .filter(([version]) => version === "v1")
    .map(([, signature]) => fromBase64(signature ?? ""));
  if (candidates.length === 0) throw new WebhookVerificationError("signature", "webhook-signature lists no v1 signature");
  let valid = false;
  for (const signature of candidates) {
    // Checked one by one, each in constant time; stopping at a match leaks nothing about the key.
    if (signature && timingSafeEqual(signature, expected)) {
      valid = true;
      break;
    }
  }
  if (!valid) throw new WebhookVerificationError("signature", "no listed signature matches the body");

  return parseWebhookDelivery(body, id!);
}

/** Parses a (verified) delivery body; `webhookId`, when given, must equal its `eventId`. */
export function parseWebhookDelivery(rawBody: WebhookBody, webhookId?: string): WebhookDelivery {
  const fail = (message: string): never => {
    throw new WebhookVerificationError("payload", message);
  };
  const text = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(bodyBytes(rawBody));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    fail(`the body is not JSON (${(error as Error).message})`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return fail("the body must be a JSON object");
  const delivery = body as Record<string, unknown>;
  for (const key of ["eventId", "eventType", "runId"]) {
    if (typeof delivery[key] !== "string" || delivery[key] === "") fail(`/${key} must be a non-empty string`);
  }
  for (const key of ["version", "sequence"]) {
    const value = delivery[key];
    if (value !== undefined && (!Number.isInteger(value) || (value as number) < 0)) fail(`/${key} must be an integer ≥ 0`);
  }
  if (delivery.createdAt !== undefined && typeof delivery.createdAt !== "string") fail("/createdAt must be a string");
  if (webhookId !== undefined && delivery.eventId !== webhookId) fail(`/eventId ${JSON.stringify(delivery.eventId)} differs from webhook-id ${JSON.stringify(webhookId)}`);
  if (delivery.event !== undefined) {
    const result = validateOutputEventResponse(delivery.event);
    if (!result.ok) fail(`/event is not an OutputEvent: ${result.errors.map((e) => `/event${e.path}: ${e.message}`).join("; ")}`);
    if ((delivery.event as OutputEvent).type !== delivery.eventType) {
      fail(`/eventType ${JSON.stringify(delivery.eventType)} differs from /event/type ${JSON.stringify((delivery.event as OutputEvent).type)}`);
    }
  }
  return delivery as WebhookDelivery;
}
