/**
 * The shareable link: the document, deflated (CompressionStream, built into browsers) and
 * base64url-encoded into the URL's fragment, which browsers never send to a server. Reading a
 * link is bounded: a fragment over MAX_FRAGMENT_CHARS is refused before decoding, and inflating
 * stops as soon as the text passes `maxBytes` (a small link can inflate to gigabytes).
 */
export const MAX_FRAGMENT_CHARS = 2 * 1024 * 1024;

export interface Shared {
  text: string;
  /** The kind chosen in the menu, when one was (else detected). */
  kind?: string;
  variant?: string;
}

export async function shareFragment({ text, kind, variant }: Shared): Promise<string> {
  const params = new URLSearchParams();
  params.set("doc", toBase64Url(await pipe(new TextEncoder().encode(text), new CompressionStream("deflate-raw"))));
  if (kind) params.set("kind", kind);
  if (variant) params.set("variant", variant);
  return params.toString();
}

/** The document of a fragment (`location.hash`), or undefined when it has none; throws an Error saying what is wrong with a bad one. */
export async function readShareFragment(hash: string, maxBytes: number): Promise<Shared | undefined> {
  const fragment = hash.replace(/^#/, "");
  if (fragment === "") return undefined;
  if (fragment.length > MAX_FRAGMENT_CHARS) throw new Error(`the link's fragment is over ${MAX_FRAGMENT_CHARS} characters`);
  const params = new URLSearchParams(fragment);
  const doc = params.get("doc");
  if (doc === null) return undefined;
  if (!/^[A-Za-z0-9_-]*$/.test(doc)) throw new Error("the link's document is not base64url");
  let bytes: Uint8Array;
  try {
    bytes = await pipe(fromBase64Url(doc), new DecompressionStream("deflate-raw"), maxBytes);
  } catch (error) {
    if (error instanceof RangeError) throw error;
    throw new Error(`the link's document does not inflate (${(error as Error).message})`);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new Error("the link's document is not UTF-8 text");
  }
  return { text, ...(params.get("kind") ? { kind: params.get("kind")! } : {}), ...(params.get("variant") ? { variant: params.get("variant")! } : {}) };
}

/** Runs bytes through a transform stream; with `limit`, throws a RangeError as soon as the output passes it. */
async function pipe(input: Uint8Array, transform: CompressionStream | DecompressionStream, limit = Infinity): Promise<Uint8Array> {
  const writer = transform.writable.getWriter();
  void writer.write(input as Uint8Array<ArrayBuffer>).then(() => writer.close()).catch(() => {});
  const reader = transform.readable.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel();
      throw new RangeError(`the link's document is over ${limit} bytes`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
