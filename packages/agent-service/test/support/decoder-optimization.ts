/**
 * Run by frames-optimization.test.ts as `node --allow-natives-syntax --expose-gc --import tsx`.
 * Decodes a usual SSE stream (a comment, events, the end frame) as the first stream of a process
 * does: V8 optimizes the decoder's `push` early in it (the first end frame may then cost one
 * deoptimization) and again with all it learned. Then a second stream, with a fresh decoder as each `stream()` makes, and a
 * third after a full GC: prints whether `push` still runs that optimized code at the end of each
 * (each deoptimization costs a compile of the whole decoder, 100-480 ms on a loaded machine).
 */
import { createFrameDecoder } from "../../src/client/frames.js";

// V8 intrinsics, reachable only through the Function constructor once the flag is on.
const intrinsic = (name: string) => new Function("f", `return %${name}(f)`) as (f: unknown) => number;
const prepare = intrinsic("PrepareFunctionForOptimization");
const optimize = intrinsic("OptimizeFunctionOnNextCall");
const status = intrinsic("GetOptimizationStatus");
const OPTIMIZED = 16; // V8's OptimizationStatus::kOptimized

const envelope = (sequence: number) =>
  JSON.stringify({ runId: "r", threadId: "t", sequence, event: { type: "message.delta", eventId: `e${sequence}`, createdAt: "2025-01-01T00:00:00Z", delta: `token ${sequence}` } });
let text = ": stream open\n\n";
for (let sequence = 1; sequence <= 400; sequence++) text += `id: ${sequence}\nevent: run.stream.event\ndata: ${envelope(sequence)}\n\n`;
text += `event: run.stream.end\ndata: {"type":"end","runId":"r","lastSequence":400}\n\n`;
const bytes = new TextEncoder().encode(text);
const chunks: Uint8Array[] = [];
for (let at = 0; at < bytes.length; at += 4096) chunks.push(bytes.subarray(at, at + 4096));

function decode(optimizeAfterChunk?: number) {
  const decoder = createFrameDecoder("sse");
  prepare(decoder.push);
  let frames = 0;
  for (const [i, chunk] of chunks.entries()) {
    frames += decoder.push(chunk).length;
    if (i === optimizeAfterChunk) optimize(decoder.push);
  }
  if (frames !== 402) throw new Error(`expected 402 frames, got ${frames}`);
  return decoder;
}

const first = decode(1);
optimize(first.push); // on the next call of any decoder's push: they share their code
const second = decode();
const afterSecond = (status(second.push) & OPTIMIZED) !== 0;
// Once the earlier decoders are garbage, as between a process's streams.
(globalThis as unknown as { gc(): void }).gc();
const third = decode();
console.log(JSON.stringify({ afterSecond, afterThird: (status(third.push) & OPTIMIZED) !== 0 }));
