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
