/**
 * Writes a run's stream (protocol notes §5.2) as SSE or NDJSON: replay after the cursor, then live
 * events, keepalives while idle, and the terminal frame once the run has ended and all is sent.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RunStreamTerminal, SequencedOutputEnvelope } from "../generated/index.js";
import { isTerminalRun, STREAM_CHANNELS, STREAM_CONTENT_TYPES, type StreamTransport } from "../routes.js";
import type { Fault } from "./faults.js";
import type { StoredRun } from "./store.js";

export interface StreamRequest {
  stored: StoredRun;
  transport: StreamTransport;
  cursor: number;
  threadId: string | undefined;
  keepaliveMs: number;
  fault: Fault | undefined;
  /** How many frames to join into one write when replaying. */
  batchSize?: number;
}

export function frameOf(transport: StreamTransport, channel: string, payload: unknown, id?: number): string {
  const json = JSON.stringify(payload);
  if (transport === "ndjson") return `${json}\n`;
  return `${id === undefined ? "" : `id: ${id}\n`}event: ${channel}\ndata: ${json}\n\n`;
}

const envelopeFrame = (transport: StreamTransport, envelope: SequencedOutputEnvelope) =>
  frameOf(transport, STREAM_CHANNELS.event, envelope, envelope.sequence);

function malformedFrame(transport: StreamTransport, kind: NonNullable<Fault["malformed"]>, runId: string): string {
  if (kind === "json") return transport === "sse" ? `event: ${STREAM_CHANNELS.event}\ndata: {"runId": "${runId}", oops\n\n` : `{"runId": "${runId}", oops\n`;
  if (kind === "envelope") return frameOf(transport, STREAM_CHANNELS.event, { runId, threadId: "", sequence: 1, event: { type: "message.delta" } });
  return transport === "sse" ? `event: run.stream.mystery\ndata: {"hello":"world"}\n\n` : `{"hello":"world"}\n`;
}

export function writeStream(req: IncomingMessage, res: ServerResponse, request: StreamRequest): void {
  const { stored, transport, threadId, fault } = request;
  const batchSize = request.batchSize ?? 256;
  let next = request.cursor; // last sequence considered
  let written = 0;
  let closed = false;
  let waitingDrain = false;
  let keepalive: ReturnType<typeof setTimeout> | undefined;

  res.writeHead(200, { "content-type": `${STREAM_CONTENT_TYPES[transport]}; charset=utf-8`, "cache-control": "no-cache", connection: "keep-alive" });
  if (transport === "sse") res.write(": stream open\n\n");
  if (fault?.malformed) res.write(malformedFrame(transport, fault.malformed, stored.run.runId));

  const close = () => {
    if (closed) return;
    closed = true;
    stored.listeners.delete(pump);
    if (keepalive) clearTimeout(keepalive);
  };
  req.on("close", close);
  res.on("close", close);

  const drop = (partial?: string) => {
    if (partial) res.write(partial.slice(0, Math.max(1, Math.floor(partial.length / 2))));
    close();
    // Let the last write reach the socket before cutting it.
    setImmediate(() => res.socket?.destroy());
  };

  const armKeepalive = () => {
    if (keepalive) clearTimeout(keepalive);
    keepalive = setTimeout(() => {
      if (closed) return;
      res.write(frameOf(transport, STREAM_CHANNELS.keepalive, { type: "keepalive", at: new Date().toISOString() }));
      armKeepalive();
    }, request.keepaliveMs);
  };

  function pump(): void {
    if (closed || waitingDrain) return;
    const events = stored.events;
    while (next < events.length) {
      let chunk = "";
      let count = 0;
      while (next < events.length && count < batchSize) {
        const envelope = events[next]!;
        if (fault?.dropAfterEvents !== undefined && written >= fault.dropAfterEvents) {
          if (chunk) res.write(chunk);
          return drop(fault.partialFrame ? envelopeFrame(transport, envelope) : undefined);
        }
        if (fault?.stallAfterEvents !== undefined && written >= fault.stallAfterEvents) {
          if (chunk) res.write(chunk);
          close();
          return;
        }
        next++;
        if (envelope.sequence === fault?.skipSequence) continue;
        if (threadId !== undefined && envelope.threadId !== threadId) continue;
        chunk += envelopeFrame(transport, envelope);
        written++;
        count++;
      }
      if (chunk && !res.write(chunk)) {
        waitingDrain = true;
        res.once("drain", () => {
          waitingDrain = false;
          pump();
        });
        return;
      }
    }
    if (isTerminalRun(stored.run)) {
      const terminal: RunStreamTerminal = { type: "end", runId: stored.run.runId, status: stored.run.status, lastSequence: stored.run.eventSequence };
      res.end(frameOf(transport, STREAM_CHANNELS.end, terminal));
      close();
      return;
    }
    armKeepalive();
  }

  stored.listeners.add(pump);
  pump();
}
