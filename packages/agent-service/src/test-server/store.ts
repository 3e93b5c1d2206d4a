/**
 * The test server's in-memory state: runs, their event logs, open interactions and idempotency keys.
 * Every change to a run goes through here, so `version`, `updatedAt` and `eventSequence` stay right.
 */
import type {
  CreateRunCommand,
  OutputEvent,
  RespondToInteractionCommand,
  Run,
  SequencedOutputEnvelope,
  TaskBlockedReason,
  TaskStatus,
} from "../generated/index.js";
import { isTerminalRun } from "../routes.js";

export interface Interaction {
  interactionId: string;
  open: boolean;
  request: unknown;
  response?: RespondToInteractionCommand;
  answer?: (response: RespondToInteractionCommand) => void;
}

export interface StoredRun {
  run: Run;
  command: CreateRunCommand;
  events: SequencedOutputEnvelope[];
  interactions: Map<string, Interaction>;
  /** Called on every new event and when the run becomes terminal. */
  listeners: Set<() => void>;
  /** Aborted when the run is cancelled, to stop its script. */
  abort: AbortController;
  order: number;
}

/** What a new event needs; `eventId` and `createdAt` are filled in. */
export type NewEvent = Omit<OutputEvent, "eventId" | "createdAt"> & { eventId?: string; createdAt?: string };

const now = () => new Date().toISOString();

export function createStore(orgId: string, onEvent?: (stored: StoredRun, envelope: SequencedOutputEnvelope) => void) {
  const runs = new Map<string, StoredRun>();
  const idempotency = new Map<string, { body: string; runId?: string }>();
  let counter = 0;

  function touch(stored: StoredRun): void {
    stored.run.version = (stored.run.version ?? 0) + 1;
    stored.run.updatedAt = now();
  }

  function notify(stored: StoredRun): void {
    for (const listener of [...stored.listeners]) listener();
  }

  function emit(stored: StoredRun, event: NewEvent): SequencedOutputEnvelope {
    const sequence = stored.events.length + 1;
    const envelope: SequencedOutputEnvelope = {
      runId: stored.run.runId,
      threadId: stored.run.threadId!,
      sequence,
      event: { ...event, eventId: event.eventId ?? `${stored.run.runId}-ev-${sequence}`, createdAt: event.createdAt ?? now() } as OutputEvent,
    };
    stored.events.push(envelope);
    stored.run.eventSequence = sequence;
    touch(stored);
    onEvent?.(stored, envelope);
    notify(stored);
    return envelope;
  }

  function setStatus(stored: StoredRun, status: TaskStatus, details: { blockedReason?: TaskBlockedReason; statusMessage?: string } = {}): void {
    const run = stored.run;
    run.status = status;
    if (status === "blocked") {
      run.blockedReason = details.blockedReason ?? "interaction_required";
      run.waitingSince = now();
    } else {
      delete run.blockedReason;
      delete run.waitingSince;
      delete run.blockingInteractionId;
    }
    if (details.statusMessage !== undefined) run.statusMessage = details.statusMessage;
    const attempt = run.attempts[0];
    if (attempt) attempt.status = status;
    if (isTerminalRun({ status })) {
      // An ended run waits for nothing: its open interactions close (a late response gets 409).
      for (const interaction of stored.interactions.values()) interaction.open = false;
      run.openInteractionCount = 0;
      run.finishedAt = now();
      if (attempt) attempt.finishedAt = run.finishedAt;
    }
    emit(stored, {
      type: "run.status.changed",
      status,
      ...(details.blockedReason || details.statusMessage ? { payload: { blockedReason: details.blockedReason, statusMessage: details.statusMessage } } : {}),
    });
  }

  function create(command: CreateRunCommand): StoredRun {
    counter++;
    const runId = `run-${counter}`;
    const at = now();
    const run: Run = {
      runId,
      orgId,
      resourceType: command.resourceType,
      resourceId: command.resourceId,
      ...(command.resourceRevisionId !== undefined && { resourceRevisionId: command.resourceRevisionId }),
      ...(command.releaseChannelId !== undefined && { releaseChannelId: command.releaseChannelId }),
      threadId: command.threadId ?? `thread-${counter}`,
      ...(command.contextId !== undefined && { contextId: command.contextId }),
      status: "queued",
      input: command.input,
      ...(command.executionProfile !== undefined && { executionProfileSnapshot: command.executionProfile }),
      ...(command.runPolicy !== undefined && { runPolicySnapshot: command.runPolicy }),
      attempts: [],
      openInteractionCount: 0,
      ...(command.deadlineAt !== undefined && { deadlineAt: command.deadlineAt }),
      eventSequence: 0,
      version: 0,
      ...(command.webhook !== undefined && { webhook: command.webhook }),
      createdAt: at,
      updatedAt: at,
    };
    const stored: StoredRun = { run, command, events: [], interactions: new Map(), listeners: new Set(), abort: new AbortController(), order: counter };
    runs.set(runId, stored);
    return stored;
  }

  return { runs, idempotency, create, emit, setStatus, touch, notify };
}
export type Store = ReturnType<typeof createStore>;
