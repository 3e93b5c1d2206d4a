import { isErrorInstance } from "./error-brand.js";

/** The default `maxResponseBytes` of every flowspec client: 16 MiB, as stdio's `maxLineBytes`. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/**
 * A response body passed its client's byte limit (`maxResponseBytes`, `maxMessageBytes`) and was
 * not read further: the rest was cancelled and the connection released. `bytesRead` is what had
 * arrived when reading stopped, or the declared Content-Length when that alone was over the limit.
 */
export class ResponseTooLargeError extends Error {
  static readonly "~brand": string = "@flowspec/runtime:ResponseTooLargeError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "ResponseTooLargeError";
  constructor(
    /** The request: `GET https://…` (credentials already masked by the caller). */
    readonly request: string,
    /** The limit in bytes. */
    readonly limit: number,
    readonly bytesRead: number,
    /** Whether `bytesRead` is the declared Content-Length rather than bytes received. */
    readonly declared = false,
    /** The option that set the limit. */
    readonly option = "maxResponseBytes",
  ) {
    super(`${request}: the response body exceeds ${option} (${declared ? "Content-Length " : "at least "}${bytesRead} bytes > ${limit})`);
  }
}

/** Where a body comes from and how much of it may be read. */
export interface BodyLimit {
  /** The limit in bytes. */
  maxBytes: number;
  /** The request, for the error: `POST https://…`, with credentials masked. */
  request: string;
  /** The option that set the limit, for the error (default `maxResponseBytes`). */
  option?: string;
}

/**
 * The whole body of a fetch response, never more than `limit.maxBytes` of it: a Content-Length over
 * the limit fails at once, and a body that passes it while arriving is cancelled there. Either way
 * the error is a ResponseTooLargeError. Every flowspec client reads response bodies through here.
 */
export function readBodyBytes(response: Response, limit: BodyLimit): Promise<Uint8Array> {
  const tooLarge = (bytes: number, declared: boolean) => new ResponseTooLargeError(limit.request, limit.maxBytes, bytes, declared, limit.option);
  const declared = declaredLength(response);
  if (declared > limit.maxBytes) {
    return Promise.resolve(response.body?.cancel().catch(() => undefined)).then(() => {
      throw tooLarge(declared, true);
    });
  }
  // A declared length within the limit bounds what fetch reads: read in one go (cheaper than a reader loop).
  if (Number.isFinite(declared)) return response.arrayBuffer().then((buffer) => new Uint8Array(buffer));
  return readUpTo(response, limit.maxBytes, (bytes) => tooLarge(bytes, false));
}

/** `readBodyBytes` as UTF-8 text (a malformed sequence becomes U+FFFD, as `response.text()` does). */
export async function readBodyText(response: Response, limit: BodyLimit): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(response, limit));
}

/**
 * The Content-Length a body will keep to, or NaN: none, anything but digits ("10, 10", ""), or a
 * content-encoded body, which fetch decodes into something far larger than declared.
 */
function declaredLength(response: Response): number {
  const encoding = response.headers.get("content-encoding");
  if (encoding !== null && encoding.trim() !== "" && encoding.trim().toLowerCase() !== "identity") return Number.NaN;
  const text = response.headers.get("content-length");
  return text !== null && /^\d+$/.test(text) ? Number(text) : Number.NaN;
}

/**
 * Reads a response body chunk by chunk, failing with `tooLarge(bytesRead)` (and cancelling the
 * body) as soon as it passes `maxBytes`, so an oversized answer is never buffered whole.
 */
export async function readUpTo(response: Response, maxBytes: number, tooLarge: (bytesRead: number) => Error): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // A cancel that fails must not hide why reading stopped.
      await reader.cancel().catch(() => undefined);
      throw tooLarge(total);
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0]! : concatBytes(chunks, total);
}

/** `parts` joined into one array of `size` bytes (their total). */
export function concatBytes(parts: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
