/**
 * Standard Webhooks 1.0 signing (protocol notes §6): `v1,<base64 HMAC-SHA256>` over
 * `${id}.${timestamp}.${rawBody}`, with Web Crypto only, so it runs wherever fetch does.
 */
import { WebhookVerificationError } from "../client/errors.js";

const utf8 = new TextEncoder();

/** The HMAC key behind a secret: `whsec_<base64>` is base64-decoded, any other string is used as UTF-8. */
export function secretBytes(secret: string): Uint8Array {
  if (secret === "") throw new WebhookVerificationError("secret", "the secret is empty");
  if (!secret.startsWith("whsec_")) return utf8.encode(secret);
  const bytes = fromBase64(secret.slice("whsec_".length));
  if (!bytes || bytes.length === 0) throw new WebhookVerificationError("secret", "a whsec_ secret must be base64 after the prefix");
  return bytes;
}

/** A delivery's body exactly as received: the text, or its bytes (a Buffer is a Uint8Array). */
export type WebhookBody = string | Uint8Array | ArrayBuffer;

/**
 * The body's bytes. Anything else is refused: a parsed body (Express' `req.body` after
 * `express.json()`) would have to be re-serialized, which does not give back the signed bytes.
 */
export function bodyBytes(rawBody: WebhookBody): Uint8Array {
  if (typeof rawBody === "string") return utf8.encode(rawBody);
  // Checked without instanceof, which fails for bytes made in another realm (vm, some test runners).
  if (ArrayBuffer.isView(rawBody)) return new Uint8Array(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  if (Object.prototype.toString.call(rawBody) === "[object ArrayBuffer]") return new Uint8Array(rawBody as ArrayBuffer);
  throw new TypeError(
    `rawBody must be the body exactly as received (a string, Buffer, Uint8Array or ArrayBuffer), got ${rawBody === null ? "null" : typeof rawBody}: a parsed and re-serialized body is not what was signed`,
  );
}

export function signedContent(id: string, timestamp: string, rawBody: WebhookBody): Uint8Array {
  const prefix = utf8.encode(`${id}.${timestamp}.`);
  const body = bodyBytes(rawBody);
  const content = new Uint8Array(prefix.length + body.length);
  content.set(prefix);
  content.set(body, prefix.length);
  return content;
}

export function hmacKey(secret: string, usage: "sign" | "verify") {
  return crypto.subtle.importKey("raw", secretBytes(secret), { name: "HMAC", hash: "SHA-256" }, false, [usage]);
}

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary);
}

/**
 * Whether two byte strings are equal, in time that depends only on their lengths: every byte is
 * looked at, with no early exit. (Web Crypto's HMAC verify is not constant time on every runtime:
 * Node compared with memcmp until CVE-2026-21713.)
 */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** Base64 to bytes, or undefined when it is not base64. */
export function fromBase64(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) return undefined;
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}

/**
 * Signs a delivery the way a sender does: returns the `webhook-id`, `webhook-timestamp` and
 * `webhook-signature` headers. For tests of your receiver, and for servers that send webhooks.
 */
export async function signWebhook(options: {
  id: string;
  rawBody: WebhookBody;
  secret: string;
  /** Unix seconds (default now). */
  timestamp?: number;
}): Promise<Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string>> {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const key = await hmacKey(options.secret, "sign");
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, signedContent(options.id, timestamp, options.rawBody)));
  return { "webhook-id": options.id, "webhook-timestamp": timestamp, "webhook-signature": `v1,${toBase64(mac)}` };
}
