import { createBoundedSseParser } from "@flowspec/runtime";
import { ApflowStreamError } from "./errors.js";
import { redact } from "../redact.js";
import { readEnvelope, type Exchange } from "./transport.js";
import type { StreamEvent } from "./types.js";

/** What the stream has learnt so far, shared with the caller for error reports and polling. */
export interface StreamState {
  rootTaskId: string | undefined;
  /** The first real task id an event carried ({tasks} mode gives a temporary root id). */
  firstTaskId: string | undefined;
}

/**
 * Reads the SSE body of a streaming `tasks.execute` (notes §6.5). The first event is the
 * JSON-RPC envelope (an error envelope throws ApflowRpcError); it is yielded as `type: "started"`.
 * Only `stream_end` or a clean end of the body ends the stream, never `final: true`. A broken
 * connection or unparseable `data:` throws ApflowStreamError with the root task id seen so far;
 * the call's timeout firing before the first event throws the ApflowTransportError of `stream.failure`.
 * Errors mask the request's credentials (`stream.secrets`, asked for only when one is built). An event
 * over `maxEventBytes` (its data, in bytes) ends the stream with ApflowStreamError as soon as that
 * much has arrived; the non-stream body is read up to the client's `maxResponseBytes`.
 */
export async function* readExecutionStream(method: string, stream: Exchange, state: StreamState, maxEventBytes: number): AsyncGenerator<StreamEvent, void> {
  const { response, secrets } = stream;
  const type = response.headers.get("content-type") ?? "";
  if (!/text\/event-stream/i.test(type)) {
    // Not a stream: an error envelope (or something worse) in a plain body, read under the timeout.
    readEnvelope(method, await stream.readText(), response.status, secrets);
    throw new ApflowStreamError(`${method}: expected an event stream, got ${type || "no content type"} (HTTP ${response.status})`, undefined);
  }
  if (!response.body) throw new ApflowStreamError(`${method}: the event stream has no body`, undefined);

  const pending: string[] = [];
  const parser = createBoundedSseParser(maxEventBytes, (event) => pending.push(event.data));
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let first = true;
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (first && stream.timedOut()) throw stream.failure(error);
        throw new ApflowStreamError(redact(`${method}: the event stream broke off: ${(error as Error).message}`, secrets()), state.rootTaskId, { cause: error });
      }
      if (chunk.done) parser.feed(decoder.decode() + "\n\n");
      else parser.feed(decoder.decode(chunk.value, { stream: true }));
      const oversize = parser.oversize;
      if (oversize) {
        const size = `${oversize.whole ? "" : "at least "}${oversize.bytes} bytes > ${maxEventBytes}`;
        throw new ApflowStreamError(`${method}: an event exceeds maxEventBytes (${size}); the stream was closed`, state.rootTaskId);
      }
      while (pending.length > 0) {
        const data = pending.shift()!;
        let payload: unknown;
        try {
          payload = JSON.parse(data);
        } catch (error) {
          throw new ApflowStreamError(`${method}: an event's data is not JSON: ${JSON.stringify(redact(data, secrets()).slice(0, 120))}`, state.rootTaskId, { cause: error });
        }
        if (first) {
          first = false;
          stream.stopTimer(); // the stream is open: later events may be far apart
          const result = readEnvelope(method, data, response.status, secrets) as Record<string, unknown>;
          state.rootTaskId = typeof result?.root_task_id === "string" ? result.root_task_id : undefined;
          yield { ...result, type: "started" };
          continue;
        }
        if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
          throw new ApflowStreamError(`${method}: an event is not a JSON object: ${JSON.stringify(redact(data, secrets()).slice(0, 120))}`, state.rootTaskId);
        }
        const event = payload as StreamEvent;
        if (typeof event.task_id === "string" && state.firstTaskId === undefined && event.task_id !== state.rootTaskId) state.firstTaskId = event.task_id;
        yield event;
        if (event.type === "stream_end") return;
      }
      if (chunk.done) {
        if (first) throw new ApflowStreamError(`${method}: the event stream ended before its first event`, undefined);
        return;
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
