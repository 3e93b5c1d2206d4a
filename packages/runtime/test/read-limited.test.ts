import { describe, expect, it } from "vitest";
import { readUpTo } from "@flowspec/runtime";

/** A response whose body arrives in the given chunks; `cancelled` records a cancel. */
function chunked(parts: string[]) {
  const state = { cancelled: false, pulled: 0 };
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled === parts.length) return controller.close();
      controller.enqueue(encoder.encode(parts[state.pulled++]!));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { response: new Response(body), state };
}

const tooLarge = () => new Error("too large");
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("readUpTo", () => {
  it("joins the chunks of a body in order", async () => {
    const { response } = chunked(["{\"a\":", "1,", "\"b\":\"é\"}"]);
    expect(JSON.parse(text(await readUpTo(response, 100, tooLarge)))).toEqual({ a: 1, b: "é" });
  });

  it("reads a one-chunk body and an empty one", async () => {
    expect(text(await readUpTo(chunked(["hello"]).response, 5, tooLarge))).toBe("hello");
    expect((await readUpTo(chunked([]).response, 5, tooLarge)).byteLength).toBe(0);
    expect((await readUpTo(new Response(null), 5, tooLarge)).byteLength).toBe(0);
  });

  it("stops at the chunk that passes maxBytes, with the bytes read so far, and cancels the rest of the body", async () => {
    const { response, state } = chunked(["12345", "67890", "never read"]);
    await expect(readUpTo(response, 9, (bytes) => new Error(`too large: ${bytes}`))).rejects.toThrow("too large: 10");
    expect(state).toEqual({ cancelled: true, pulled: 2 });
  });
});
