/**
 * What a run does on the test server: a script, run after create, that emits events through a
 * small context. The default script echoes the input; tests pass their own.
 */
import type {
  CreateRunCommand,
  RespondToInteractionCommand,
  Run,
  SequencedOutputEnvelope,
  TaskBlockedReason,
  TaskStatus,
} from "../generated/index.js";
import type { NewEvent, Store, StoredRun } from "./store.js";

export interface RunScriptContext {
  readonly run: Readonly<Run>;
  readonly command: CreateRunCommand;
  /** Aborted when the run is cancelled. */
  readonly signal: AbortSignal;
  /** Appends an event to the run's log (and to every open stream). */
  emit(event: NewEvent): SequencedOutputEnvelope;
  /** Sets the status and emits `run.status.changed`. */
  setStatus(status: TaskStatus, details?: { blockedReason?: TaskBlockedReason; statusMessage?: string }): void;
  /** Opens an interaction, blocks the run, and resolves with the caller's response. */
  requestInteraction(request: unknown, blockedReason?: TaskBlockedReason): Promise<RespondToInteractionCommand>;
  /** Waits one tick of the server's `tickMs` (lets streams see events arrive live). */
  tick(): Promise<void>;
}

/** A run's behaviour; resolves with its final status (default `completed`). */
export type RunScript = (context: RunScriptContext) => Promise<TaskStatus | void>;

/** Echoes the input: agent → one `message.delta` per word of the last message, then `message.completed`; tool → `tool_result`; mcp_server → `state.updated`. */
export const echoScript: RunScript = async (ctx) => {
  if (ctx.run.status !== "running") ctx.setStatus("running");
  await ctx.tick();
  const input = ctx.command.input;
  if (input.mode === "agent") {
    const last = input.messages.at(-1);
    const text = typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "");
    const messageId = `${ctx.run.runId}-msg-1`;
    for (const word of text.split(/(?<=\s)/)) {
      if (word === "") continue;
      ctx.emit({ type: "message.delta", messageId, delta: word });
      await ctx.tick();
    }
    ctx.emit({ type: "message.completed", messageId, content: text });
  } else if (input.mode === "tool") {
    ctx.emit({ type: "tool_result", toolCallId: `${ctx.run.runId}-call-1`, result: { echo: input.arguments } });
  } else {
    ctx.emit({ type: "state.updated", payload: { clientInfo: input.clientInfo } });
  }
  await ctx.tick();
};

/** Starts a stored run's script; the run ends with the script's status, or `failed` if it throws. */
export function startScript(store: Store, stored: StoredRun, script: RunScript, tickMs: number): void {
  const signal = stored.abort.signal;
  let interactions = 0;
  const guard = () => {
    if (signal.aborted) throw signal.reason;
  };
  const ctx: RunScriptContext = {
    run: stored.run,
    command: stored.command,
    signal,
    emit: (event) => (guard(), store.emit(stored, event)),
    setStatus: (status, details) => (guard(), store.setStatus(stored, status, details)),
    tick: () =>
      new Promise<void>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason);
        const done = () => (signal.aborted ? reject(signal.reason) : resolve());
        if (tickMs <= 0) setImmediate(done);
        else setTimeout(done, tickMs);
      }),
    requestInteraction(request, blockedReason = "interaction_required") {
      guard();
      const interactionId = `${stored.run.runId}-int-${++interactions}`;
      return new Promise((resolve, reject) => {
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        stored.interactions.set(interactionId, { interactionId, open: true, request, answer: resolve });
        stored.run.openInteractionCount = (stored.run.openInteractionCount ?? 0) + 1;
        store.emit(stored, { type: "interaction.requested", interactionId, payload: request });
        store.setStatus(stored, "blocked", { blockedReason });
        stored.run.blockingInteractionId = interactionId;
      });
    },
  };
  stored.run.attempts.push({ attemptId: `${stored.run.runId}-attempt-1`, attemptNo: 1, status: "queued", startedAt: new Date().toISOString() });
  stored.run.currentAttemptId = `${stored.run.runId}-attempt-1`;
  setImmediate(() => {
    script(ctx).then(
      (status) => {
        if (!signal.aborted) store.setStatus(stored, status ?? "completed");
      },
      (error: unknown) => {
        if (!signal.aborted) store.setStatus(stored, "failed", { statusMessage: error instanceof Error ? error.message : String(error) });
      },
    );
  });
}
