import { createHmac } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { parseWebhookDelivery, signWebhook, verifyWebhook, WebhookVerificationError, type WebhookCheck } from "@flowspec/agent-service";
import { timingSafeEqual } from "../src/webhooks/signature.js";

const secret = "whsec_" + Buffer.from("a very secret key of 32 bytes!!!").toString("base64");
const now = Date.parse("2026-01-01T00:00:00Z");
const ts = now / 1000;
const event = { type: "message.completed", eventId: "ev-7", createdAt: "2026-01-01T00:00:00Z", messageId: "m-1", content: "Hi" };
const rawBody = JSON.stringify({ eventId: "ev-7", eventType: "message.completed", version: 3, runId: "run-1", sequence: 7, event });

async function headersFor(body: string | Uint8Array = rawBody, options: { id?: string; timestamp?: number; key?: string } = {}) {
  return signWebhook({ id: options.id ?? "ev-7", rawBody: body, secret: options.key ?? secret, timestamp: options.timestamp ?? ts });
}

async function failedCheck(promise: Promise<unknown>): Promise<WebhookCheck | "passed"> {
  try {
    await promise;
    return "passed";
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).check;
  }
}

describe("webhooks", () => {
  it("signs exactly as Standard Webhooks does (HMAC-SHA256 over id.timestamp.body, base64)", async () => {
    const headers = await headersFor();
    const expected = createHmac("sha256", Buffer.from("a very secret key of 32 bytes!!!")).update(`ev-7.${ts}.${rawBody}`).digest("base64");
    expect(headers["webhook-signature"]).toBe(`v1,${expected}`);
  });

  it("verifies a delivery and parses its body", async () => {
    const delivery = await verifyWebhook({ rawBody, headers: await headersFor(), secret, now });
    expect(delivery).toMatchObject({ eventId: "ev-7", eventType: "message.completed", runId: "run-1", version: 3, event: { content: "Hi" } });
  });

  it("accepts raw bytes, a Headers object, a plain secret, and any one of several signatures", async () => {
    const bytes = new TextEncoder().encode(rawBody);
    const signed = await headersFor(bytes, { key: "plain-secret" });
    const headers = new Headers({ ...signed, "webhook-signature": `v1,AAAA v2,zzz ${signed["webhook-signature"]}` });
    await expect(verifyWebhook({ rawBody: bytes, headers, secret: "plain-secret", now })).resolves.toMatchObject({ eventId: "ev-7" });
  });

  it.each<{ name: string; check: WebhookCheck; make: () => Promise<Parameters<typeof verifyWebhook>[0]> }>([
    { name: "a missing signature header", check: "headers", make: async () => ({ rawBody, headers: { ...(await headersFor()), "webhook-signature": undefined }, secret, now }) },
    { name: "an old timestamp", check: "timestamp", make: async () => ({ rawBody, headers: await headersFor(rawBody, { timestamp: ts - 301 }), secret, now }) },
    { name: "a future timestamp", check: "timestamp", make: async () => ({ rawBody, headers: await headersFor(rawBody, { timestamp: ts + 400 }), secret, now }) },
    { name: "a timestamp that is not a number", check: "timestamp", make: async () => ({ rawBody, headers: { ...(await headersFor()), "webhook-timestamp": "yesterday" }, secret, now }) },
    { name: "a tampered body", check: "signature", make: async () => ({ rawBody: rawBody.replace("Hi", "Ho"), headers: await headersFor(), secret, now }) },
    { name: "re-serialized JSON", check: "signature", make: async () => ({ rawBody: JSON.stringify(JSON.parse(rawBody), null, 1), headers: await headersFor(), secret, now }) },
    { name: "the wrong secret", check: "signature", make: async () => ({ rawBody, headers: await headersFor(), secret: "whsec_b3RoZXI=", now }) },
    { name: "a signature of another id", check: "signature", make: async () => ({ rawBody, headers: { ...(await headersFor()), "webhook-id": "ev-8" }, secret, now }) },
    { name: "no v1 signature", check: "signature", make: async () => ({ rawBody, headers: { ...(await headersFor()), "webhook-signature": "v0,abc" }, secret, now }) },
    { name: "a whsec_ secret that is not base64", check: "secret", make: async () => ({ rawBody, headers: await headersFor(), secret: "whsec_!!!", now }) },
  ])("rejects $name (check: $check)", async ({ make, check }) => {
    expect(await failedCheck(verifyWebhook(await make()))).toBe(check);
  });

  it("accepts a timestamp within a custom tolerance", async () => {
    const headers = await headersFor(rawBody, { timestamp: ts - 1000 });
    expect(await failedCheck(verifyWebhook({ rawBody, headers, secret, now, toleranceSec: 1200 }))).toBe("passed");
  });

  it.each([
    { name: "not JSON", body: "{", message: /not JSON/ },
    { name: "an array", body: "[]", message: /JSON object/ },
    { name: "no eventType", body: JSON.stringify({ eventId: "e", runId: "r" }), message: /\/eventType/ },
    { name: "a negative sequence", body: JSON.stringify({ eventId: "e", eventType: "x", runId: "r", sequence: -1 }), message: /\/sequence/ },
    { name: "an invalid event", body: JSON.stringify({ eventId: "e", eventType: "x", runId: "r", event: { type: "x" } }), message: /\/event\/eventId|\/event: / },
    { name: "eventType ≠ event.type", body: JSON.stringify({ eventId: "e", eventType: "x", runId: "r", event: { ...event, type: "y" } }), message: /differs from \/event\/type/ },
  ])("parseWebhookDelivery refuses $name", ({ body, message }) => {
    expect(() => parseWebhookDelivery(body)).toThrow(message);
  });

  it("compares signatures itself, in constant time, not with the runtime's HMAC verify", async () => {
    // Web Crypto's HMAC verify is not constant time everywhere: Node used memcmp until CVE-2026-21713
    // (March 2026), and engines allow older Node 20 releases. Verification must not depend on it.
    const verify = vi.spyOn(crypto.subtle, "verify").mockRejectedValue(new Error("crypto.subtle.verify must not be used"));
    try {
      const headers = await headersFor();
      await expect(verifyWebhook({ rawBody, headers, secret, now })).resolves.toMatchObject({ eventId: "ev-7" });
      expect(await failedCheck(verifyWebhook({ rawBody: rawBody.replace("Hi", "Ho"), headers, secret, now }))).toBe("signature");
      const truncated = headers["webhook-signature"].slice(0, 20);
      expect(await failedCheck(verifyWebhook({ rawBody, headers: { ...headers, "webhook-signature": truncated }, secret, now }))).toBe("signature");
      expect(verify).not.toHaveBeenCalled();
    } finally {
      verify.mockRestore();
    }
  });

  it("timingSafeEqual: equal only for the same bytes and the same length", () => {
    const a = new Uint8Array(32).map((_, i) => i);
    expect(timingSafeEqual(a, a.slice())).toBe(true);
    for (const at of [0, 15, 31]) {
      const b = a.slice();
      b[at] = b[at]! ^ 1;
      expect(timingSafeEqual(a, b)).toBe(false);
    }
    expect(timingSafeEqual(a, a.slice(0, 31))).toBe(false);
    expect(timingSafeEqual(new Uint8Array(0), new Uint8Array(0))).toBe(true);
  });

  it.each([
    { name: "NaN (any timestamp would pass)", toleranceSec: NaN },
    { name: "-1", toleranceSec: -1 },
    { name: "a string", toleranceSec: "300" as unknown as number },
  ])("refuses a toleranceSec of $name instead of turning the timestamp check off", async ({ toleranceSec }) => {
    const headers = await headersFor(rawBody, { timestamp: ts - 365 * 24 * 3600 });
    await expect(verifyWebhook({ rawBody, headers, secret, now, toleranceSec })).rejects.toThrow(RangeError);
  });

  it("accepts the body as a string, Buffer, Uint8Array or ArrayBuffer (what request.arrayBuffer() gives)", async () => {
    const headers = await headersFor();
    const bytes = new TextEncoder().encode(rawBody);
    // A pooled Buffer: a view into a larger ArrayBuffer at an offset.
    const pooled = Buffer.from(rawBody);
    for (const body of [rawBody, pooled, bytes, bytes.buffer.slice(0)]) {
      await expect(verifyWebhook({ rawBody: body, headers, secret, now })).resolves.toMatchObject({ eventId: "ev-7" });
    }
    expect(parseWebhookDelivery(bytes.buffer.slice(0))).toMatchObject({ eventId: "ev-7" });
  });

  it("refuses a parsed body with a TypeError saying why, never re-serializing it", async () => {
    const headers = await headersFor();
    const error = await verifyWebhook({ rawBody: JSON.parse(rawBody) as never, headers, secret, now }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/exactly as received.*got object/);
    expect(() => parseWebhookDelivery(JSON.parse(rawBody) as never)).toThrow(TypeError);
  });

  it("finds the signature when two webhook-signature headers arrive joined by \", \" (Headers, Node)", async () => {
    const signed = await headersFor();
    for (const order of [[signed["webhook-signature"], "v1,AAAA"], ["v1,AAAA", signed["webhook-signature"]]]) {
      const headers = new Headers({ "webhook-id": signed["webhook-id"], "webhook-timestamp": signed["webhook-timestamp"] });
      for (const value of order) headers.append("webhook-signature", value);
      await expect(verifyWebhook({ rawBody, headers, secret, now })).resolves.toMatchObject({ eventId: "ev-7" });
      // Node's IncomingMessage joins them the same way.
      const nodeHeaders = { "Webhook-Id": signed["webhook-id"], "WEBHOOK-TIMESTAMP": signed["webhook-timestamp"], "webhook-signature": order.join(", ") };
      await expect(verifyWebhook({ rawBody, headers: nodeHeaders, secret, now })).resolves.toMatchObject({ eventId: "ev-7" });
    }
  });

  it("refuses a verified delivery whose eventId differs from webhook-id", async () => {
    const other = JSON.stringify({ eventId: "ev-9", eventType: "message.completed", runId: "run-1" });
    const error = await verifyWebhook({ rawBody: other, headers: await headersFor(other), secret, now }).catch((e: unknown) => e);
    expect(error).toMatchObject({ check: "payload" });
  });
});

describe("webhooks end to end: the test server delivers, verifyWebhook accepts", () => {
  it("delivers the subscribed event types of a run, in order, signed, each verified once", async () => {
    const { createServer } = await import("node:http");
    const { startTestServer } = await import("@flowspec/agent-service/testing");
    const { RunsClient, agentRun } = await import("@flowspec/agent-service");
    const received: { eventType: string; sequence?: number; version?: number; tenant: string | string[] | undefined }[] = [];
    const failures: string[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        verifyWebhook({ rawBody: new Uint8Array(Buffer.concat(chunks)), headers: req.headers, secret })
          .then((delivery) => received.push({ eventType: delivery.eventType, sequence: delivery.sequence, version: delivery.version, tenant: req.headers["x-tenant"] }))
          .catch((error: Error) => failures.push(error.message))
          .finally(() => res.end());
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const port = (receiver.address() as { port: number }).port;
    const server = await startTestServer({ webhookSecret: secret });
    try {
      const client = new RunsClient({ baseUrl: server.url, orgId: server.orgId, token: server.token });
      const command = agentRun("a")
        .message("user", "two words")
        .webhook({ url: `http://127.0.0.1:${port}/hooks`, eventTypes: ["run.status.changed", "message.completed"], headers: { "x-tenant": "t-1" } })
        .build();
      const run = await client.create(command);
      const final = await client.waitForCompletion(run.runId);
      await server.webhooksSettled(run.runId);
      expect(failures).toEqual([]);
      expect(received.map((d) => d.eventType)).toEqual(["run.status.changed", "message.completed", "run.status.changed"]);
      expect(received.map((d) => d.sequence)).toEqual([...received.map((d) => d.sequence)].sort((a, b) => a! - b!));
      expect(received.at(-1)).toMatchObject({ sequence: final.eventSequence, version: final.version, tenant: "t-1" });
      // A subscription to a non-loopback URL is never called.
      const remote = await client.create(agentRun("a").message("user", "x").webhook({ url: "https://example.com/hooks" }).build());
      await client.waitForCompletion(remote.runId);
      await server.webhooksSettled(remote.runId);
      const remoteLog = server.webhookLog.filter((entry) => entry.url.startsWith("https://example.com"));
      expect(remoteLog.length).toBeGreaterThan(0);
      expect(remoteLog.every((entry) => String(entry.outcome).startsWith("refused"))).toBe(true);
    } finally {
      await server.close();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
