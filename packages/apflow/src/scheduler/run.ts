import { isThenable } from "@flowspec/runtime/validation";
import { checkTaskListIndexed, checkTaskTreeIndexed, type IndexedCheck } from "../checks/check.js";
import { validateInputs } from "../checks/inputs.js";
import { isoNow, type TaskStatus } from "../lifecycle.js";
import type { Task, TaskTreeNode } from "../validate.js";
import { TASK_FIELD_ORDER, TASK_FIELDS } from "../checks/fields.js";
import { layoutDependencies } from "./edges.js";
import { createIntHeap } from "./heap.js";
import { executorKeyOf, type ExecutorContext, type ExecutorObject } from "./registry.js";
import { TaskTreeRunError, type RunHandle, type RunOptions, type RunResult } from "./types.js";
import { cloneJson, deepFreeze, errorMessageOf, mergeFlat, setKey, toStoredResult } from "./values.js";

const DEFAULT_REASON = "Cancelled by user";
const NO_RESULTS: Readonly<Record<string, Record<string, unknown>>> = Object.freeze({});

/** Why `inputs` fail a schema (`<pointer> <message>; …`), or undefined when they pass or there is no schema. */
function inputProblem(inputs: unknown, schema: unknown): string | undefined {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return undefined;
  const verdict = validateInputs(inputs, schema);
  if (verdict.ok) return undefined;
  if ("schemaError" in verdict) return `the schema does not compile: ${verdict.schemaError}`;
  return verdict.issues.map((issue) => `${issue.path || "/"} ${issue.message}`).join("; ");
}

/**
 * Runs a task tree (or flat list) locally, following the Spec's lifecycle and the project rules
 * of notes §4–§5. Works on copies: the caller's objects are never touched.
 */
export function runTaskTree(input: TaskTreeNode | readonly Task[], options: RunOptions): RunHandle {
  const mode = options.mode ?? "strict";
  const indexed = Array.isArray(input) ? checkTaskListIndexed(input, { mode }) : checkTaskTreeIndexed(input, { mode });
  const check = indexed.result;
  if (!check.ok) {
    const detail = check.errors.slice(0, 10).map((i) => `  ${i.path || "/"}: [${i.code}] ${i.message}`).join("\n");
    const more = check.errors.length > 10 ? `\n  … and ${check.errors.length - 10} more` : "";
    return rejected(new TaskTreeRunError(`the task tree is invalid (${check.errors.length} error(s)):\n${detail}${more}`, check.errors));
  }
  // The check walked the tree in the same pre-order as taskTreeToList and indexed every (unique) id.
  const original = indexed.tasks as readonly Task[];
  if (indexed.firstInProgress >= 0) {
    const running = original[indexed.firstInProgress]!;
    return rejected(new TaskTreeRunError(`task ${running.id} is in_progress; a run can only start from pending, completed, failed or cancelled tasks`));
  }
  return startRun(original, indexed, options);
}

function rejected(error: Error): RunHandle {
  const done = Promise.reject(error);
  done.catch(() => {}); // the caller sees it through `done`; never an unhandled rejection
  return {
    done,
    cancel: (taskId) => {
      throw new Error(`unknown task id ${JSON.stringify(taskId)} (the run did not start: ${error.message.split("\n")[0]})`);
    },
    cancelAll: () => {},
  };
}

/** Runs valid tasks, with what their check found: each id's index in `original`, the edges, the parents. */
function startRun(original: readonly Task[], checked: IndexedCheck, options: RunOptions): RunHandle {
  const { index: indexById, edges, parents } = checked;
  const now = options.now ?? isoNow;
  const concurrency = options.concurrency ?? Infinity;
  if (!(concurrency >= 1)) throw new RangeError(`concurrency must be at least 1, not ${concurrency}`);
  const flat = options.mergeDependencyResults === "flat";
  const { registry, onStatusChange, onProgress } = options;
  const startedAt = now();

  const n = original.length;
  const tasks: Task[] = new Array(n);
  const status: TaskStatus[] = new Array(n);
  // Read while each copy is fresh in the cache: at 50k tasks, reading them again at start missed it.
  const executorKeys: string[] = new Array(n);
  const inputSchemas: unknown[] = new Array(n);
  const readyKeys = new Float64Array(n); // priority * n + input index: the ready queue's order
  const depRequired = new Uint8Array(edges.offsets[n]!);
  for (let i = 0; i < n; i++) {
    const task = (tasks[i] = copyTask(original[i]!, startedAt));
    status[i] = task.status;
    executorKeys[i] = executorKeyOf(task);
    inputSchemas[i] = task.schemas?.input_schema;
    readyKeys[i] = task.priority! * n + i;
    const deps = task.dependencies!;
    const first = edges.offsets[i]!;
    for (let k = 0; k < deps.length; k++) depRequired[first + k] = deps[k]!.required === false ? 0 : 1;
  }

  const { depStart, depTarget, dependentStart, dependentOf, dependentEdge } = layoutDependencies(edges, depRequired);

  const waiting = new Int32Array(n);
  const ready = createIntHeap();
  // Made on first use (a task's signal read, a cancel): most runs need neither, and each is an
  // array of every task.
  let controllers: (AbortController | undefined)[] | undefined;
  const executors: (ExecutorObject | undefined)[] = new Array(n);
  let cancelReason: (string | undefined)[] | undefined;
  // Tasks that became terminal, for pump to release their dependents: entries [terminalHead,
  // terminalEnd). Emptied by resetting both, never the array's length: once per settled task,
  // shrinking and growing it again was measurable.
  const terminalQueue: number[] = [];
  let terminalHead = 0;
  let terminalEnd = 0;
  let terminalCount = 0;
  let runningCount = 0;
  let pumping = false;
  let holdDispatch = false;
  let callbackError: unknown;
  let finished = false;
  let resolveDone!: (result: RunResult) => void;
  let rejectDone!: (error: unknown) => void;
  const done = new Promise<RunResult>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });

  const signalOf = (i: number): AbortSignal => {
    controllers ??= new Array(n);
    let controller = controllers[i];
    if (!controller) {
      controller = controllers[i] = new AbortController();
      const reason = cancelReason?.[i];
      if (reason !== undefined) controller.abort(reason);
    }
    return controller.signal;
  };

  const isTerminal = (s: TaskStatus) => s === "completed" || s === "failed" || s === "cancelled";

  const emit = (i: number, from: TaskStatus, to: TaskStatus) => {
    if (!onStatusChange) return;
    const task = tasks[i]!;
    try {
      onStatusChange({ taskId: task.id, from, to, task: { ...task } });
    } catch (error) {
      callbackError ??= error;
    }
  };

  const move = (i: number, to: TaskStatus, at: string) => {
    const task = tasks[i]!;
    const from = status[i]!;
    status[i] = to;
    task.status = to;
    task.updated_at = at;
    if (to === "in_progress") task.started_at = at;
    if (isTerminal(to)) {
      task.completed_at = at;
      terminalCount++;
      terminalQueue[terminalEnd++] = i;
    }
    emit(i, from, to);
  };

  const firstBrokenRequired = (i: number): string => {
    for (let k = depStart[i]!; k < depStart[i + 1]!; k++) {
      const s = status[depTarget[k]!]!;
      if (depRequired[k] && (s === "failed" || s === "cancelled")) return tasks[depTarget[k]!]!.id;
    }
    return "?";
  };

  // Rule (d): a pending task whose required dependency failed or was cancelled is cancelled.
  const cancelForDependency = (i: number) => {
    const task = tasks[i]!;
    task.error = `dependency ${firstBrokenRequired(i)} failed`;
    task.result = null;
    move(i, "cancelled", now());
  };

  const afterTerminal = (t: number) => {
    const s = status[t]!;
    for (let slot = dependentStart[t]!; slot < dependentStart[t + 1]!; slot++) {
      const d = dependentOf[slot]!;
      if (status[d] !== "pending") continue;
      if (s === "completed" || !depRequired[dependentEdge[slot]!]) {
        if (--waiting[d]! === 0) ready.push(readyKeys[d]!);
      } else cancelForDependency(d);
    }
  };

  const fail = (i: number, message: string, at = now()) => {
    const task = tasks[i]!;
    task.error = message;
    task.result = null;
    move(i, "failed", at);
  };

  const pump = () => {
    if (pumping) return;
    pumping = true;
    try {
      for (;;) {
        if (terminalHead < terminalEnd) {
          while (terminalHead < terminalEnd) afterTerminal(terminalQueue[terminalHead++]!);
          terminalHead = terminalEnd = 0;
        }
        if (holdDispatch || runningCount >= concurrency || ready.size === 0) break;
        const i = ready.pop()! % n; // keys are priority * n + input index
        if (status[i] === "pending") start(i);
      }
    } finally {
      pumping = false;
    }
    if (!finished && terminalCount === n) finish();
  };

  /** The final tasks arranged by parent (already validated: one root, no loops), children in input order. */
  const finalTree = (): TaskTreeNode => {
    const nodes: TaskTreeNode[] = tasks.map((task) => ({ task, children: [] }));
    let root = nodes[0]!;
    for (let i = 0; i < n; i++) {
      const parent = parents![i]!;
      if (parent < 0) root = nodes[i]!;
      else nodes[parent]!.children!.push(nodes[i]!);
    }
    return root;
  };

  const finish = () => {
    finished = true;
    options.signal?.removeEventListener("abort", onAbort);
    if (callbackError !== undefined) {
      rejectDone(callbackError);
      return;
    }
    const runStatus = status.every((s) => s === "completed") ? "completed" : status.includes("failed") ? "failed" : "cancelled";
    resolveDone(runResult(runStatus, finalTree(), tasks));
  };

  const start = (i: number) => {
    const task = tasks[i]!;
    const at = now();
    move(i, "in_progress", at);
    const key = executorKeys[i]!;
    const executor = registry.get(key);
    if (!executor) {
      fail(i, `Executor '${key}' not found in registry`, at);
      return;
    }
    const inputs = flat ? mergeFlat(task.inputs ?? {}, completedDependencies(i) ?? []) : cloneJson(task.inputs ?? {});
    const why = inputProblem(inputs, inputSchemas[i]) ?? inputProblem(inputs, executor.inputSchema);
    if (why !== undefined) {
      fail(i, `inputs do not conform to input_schema: ${why}`, at);
      return;
    }
    executors[i] = executor;
    runningCount++;
    const ctx = new TaskContext(runHooks, i, task);
    let value: unknown;
    let thenable: boolean;
    try {
      value = executor.execute(inputs, ctx);
      // Reading `then` can run the executor's code too (a getter, a proxy): a throw there fails
      // the task, as Promise.resolve would, instead of escaping the dispatch loop.
      thenable = isThenable(value);
    } catch (error) {
      settleLater(i, false, error);
      return;
    }
    if (thenable) {
      Promise.resolve(value).then(
        (result) => settle(i, true, result),
        (error) => settle(i, false, error),
      );
    } else settleLater(i, true, value);
  };

  // Executors that return at once are settled on one shared microtask, in order, as their
  // promises would be: a run of no-op executors allocates no promise per task. Each entry is the
  // task index (~index when the executor threw) and its value. Settling a batch starts other
  // tasks, whose entries go into the other batch: a batch holds the tasks that were ready at
  // once, where one queue read from its head grew to every task of the run.
  let laterTask: number[] = [];
  let laterValue: unknown[] = [];
  let laterCount = 0;
  let spareTask: number[] = [];
  let spareValue: unknown[] = [];
  let draining = false;
  const drainLater = () => {
    draining = true;
    while (laterCount > 0) {
      const batchTask = laterTask;
      const batchValue = laterValue;
      const count = laterCount;
      laterTask = spareTask;
      laterValue = spareValue;
      laterCount = 0;
      spareTask = batchTask;
      spareValue = batchValue;
      for (let k = 0; k < count; k++) {
        const entry = batchTask[k]!;
        const value = batchValue[k];
        batchValue[k] = undefined;
        if (entry >= 0) settle(entry, true, value);
        else settle(~entry, false, value);
      }
    }
    draining = false;
  };
  const settleLater = (i: number, resolved: boolean, value: unknown) => {
    laterTask[laterCount] = resolved ? i : ~i;
    laterValue[laterCount] = value;
    if (laterCount++ === 0 && !draining) queueMicrotask(drainLater);
  };

  const reportProgressOf = (i: number) => (p: number) => {
    if (status[i] !== "in_progress" || typeof p !== "number" || !Number.isFinite(p)) return;
    const task = tasks[i]!;
    const clamped = Math.min(1, Math.max(0, p));
    task.progress = clamped;
    task.updated_at = now();
    if (onProgress) {
      try {
        onProgress(task.id, clamped);
      } catch (error) {
        callbackError ??= error;
      }
    }
  };

  // A task starts once every dependency is terminal, and terminal tasks never change: read at any
  // time after the start, this is what it was at the start (so only executors that ask pay for it).
  const completedDependencies = (i: number): [string, Record<string, unknown>][] | undefined => {
    let completed: [string, Record<string, unknown>][] | undefined;
    for (let k = depStart[i]!; k < depStart[i + 1]!; k++) {
      const dep = tasks[depTarget[k]!]!;
      if (status[depTarget[k]!] === "completed" && dep.result) (completed ??= []).push([dep.id, dep.result]);
    }
    return completed;
  };

  const runHooks: RunHooks = { signalOf, reportProgressOf, completedDependencies };

  const settle = (i: number, resolved: boolean, value: unknown) => {
    runningCount--;
    if (controllers !== undefined) controllers[i] = undefined;
    executors[i] = undefined;
    const task = tasks[i]!;
    const reason = cancelReason?.[i];
    if (reason !== undefined) {
      task.error = reason;
      task.result = null;
      move(i, "cancelled", now());
    } else if (resolved) {
      const stored = toStoredResult(value);
      if (typeof stored === "string") fail(i, `result is not JSON-serializable: ${stored}`);
      else {
        task.result = stored;
        task.error = null;
        task.progress = 1;
        move(i, "completed", now());
      }
    } else fail(i, errorMessageOf(value, executorKeys[i]!));
    pump();
  };

  const cancel = (taskId: string, reason: string = DEFAULT_REASON): boolean => {
    const i = indexById.get(taskId);
    if (i === undefined) throw new Error(`unknown task id ${JSON.stringify(taskId)}`);
    // `error` must be a non-empty string (notes §2.4 empty-error), whatever the caller passed
    if (typeof reason !== "string" || reason === "") reason = DEFAULT_REASON;
    const s = status[i]!;
    if (isTerminal(s)) return false;
    if (s === "pending") {
      const task = tasks[i]!;
      task.error = reason;
      task.result = null;
      move(i, "cancelled", now());
      pump();
      return true;
    }
    cancelReason ??= new Array(n);
    if (cancelReason[i] === undefined) {
      cancelReason[i] = reason;
      controllers?.[i]?.abort(reason);
      try {
        const pending = executors[i]?.cancel?.();
        if (pending && typeof (pending as Promise<unknown>).catch === "function") (pending as Promise<unknown>).catch(() => {});
      } catch {
        // an executor's cancel() failing changes nothing: the task still ends cancelled
      }
    }
    return true;
  };

  const cancelAll = (reason: string = DEFAULT_REASON) => {
    holdDispatch = true;
    try {
      for (let i = 0; i < n; i++) if (!isTerminal(status[i]!)) cancel(tasks[i]!.id, reason);
    } finally {
      holdDispatch = false;
    }
    pump();
  };

  const onAbort = () => {
    const reason = options.signal?.reason;
    cancelAll(typeof reason === "string" && reason !== "" ? reason : DEFAULT_REASON);
  };

  // Settle the states the input already has (step 2), then start on the next microtask so the
  // caller holds the handle (and can cancel) before any executor runs.
  for (let i = 0; i < n; i++) {
    if (isTerminal(status[i]!)) terminalCount++;
    if (status[i] !== "pending") continue;
    for (let k = depStart[i]!; k < depStart[i + 1]!; k++) {
      const s = status[depTarget[k]!]!;
      if (s === "completed" || (!depRequired[k] && isTerminal(s))) continue;
      if (s === "pending" || s === "in_progress") waiting[i]!++;
    }
  }
  for (let i = 0; i < n; i++) {
    if (status[i] !== "pending") continue;
    let broken = false;
    for (let k = depStart[i]!; k < depStart[i + 1]!; k++) {
      const s = status[depTarget[k]!]!;
      if (depRequired[k] && (s === "failed" || s === "cancelled")) broken = true;
    }
    if (broken) cancelForDependency(i);
    else if (waiting[i] === 0) ready.push(readyKeys[i]!);
  }
  if (options.signal?.aborted) queueMicrotask(onAbort);
  else options.signal?.addEventListener("abort", onAbort, { once: true });
  queueMicrotask(pump);
  return { done, cancel, cancelAll };
}

/**
 * The result of a run. `tasks` (the final tasks by id) is built when first read: filling a
 * dictionary of every id cost about 5% of a run of no-op tasks, and many callers read only `status`
 * or `tree`. Read or assigned, it then becomes a plain data property.
 */
function runResult(status: RunResult["status"], tree: TaskTreeNode, tasks: readonly Task[]): RunResult {
  const result = { status, tree } as RunResult;
  const settle = (value: Record<string, Task>) => {
    Object.defineProperty(result, "tasks", { value, writable: true, enumerable: true, configurable: true });
    return value;
  };
  Object.defineProperty(result, "tasks", {
    get: () => {
      const byId: Record<string, Task> = Object.create(null); // keyed by id: see dependencyResults
      for (const task of tasks) byId[task.id] = task;
      return settle(byId);
    },
    set: settle,
    enumerable: true,
    configurable: true,
  });
  return result;
}

/**
 * A deep copy with every one of the 17 fields (the defaults of notes §2.1 where the input left
 * one out), then any extra fields untouched. Written as one object literal so every copy shares
 * one fast hidden class: adding 17 keys one by one would leave V8 with a slow dictionary object.
 */
function copyTask(task: Task, at: string): Task {
  const copy: Task = {
    id: task.id,
    parent_id: task.parent_id ?? null,
    user_id: task.user_id ?? null,
    name: task.name,
    status: task.status,
    priority: task.priority ?? 2,
    inputs: cloneJson(task.inputs ?? {}),
    schemas: cloneJson(task.schemas ?? null),
    params: cloneJson(task.params ?? null),
    result: cloneJson(task.result ?? null),
    error: task.error ?? null,
    dependencies: cloneJson(task.dependencies ?? []),
    progress: task.progress ?? 0,
    created_at: task.created_at ?? at,
    started_at: task.started_at ?? null,
    updated_at: task.updated_at ?? at,
    completed_at: task.completed_at ?? null,
  };
  // Keys in the Spec's order (the common case) each cost one comparison, as in the checks.
  let next = 0;
  for (const key in task) {
    if (key === TASK_FIELD_ORDER[next]) next++;
    else if (!TASK_FIELDS.has(key)) setKey(copy, key, cloneJson(task[key]));
  }
  return copy;
}

/** What a task's `ctx` needs from its run. */
interface RunHooks {
  signalOf(index: number): AbortSignal;
  reportProgressOf(index: number): (progress: number) => void;
  /** The completed dependencies with a result, as [id, stored result], in listed order. */
  completedDependencies(index: number): readonly (readonly [string, Record<string, unknown>])[] | undefined;
}

/**
 * The executor's `ctx`. Defined once, not per run: a class made inside each run starts cold and
 * V8 never optimizes its constructor. `task`, `signal` and `dependencyResults` are made on first
 * use (most executors never read them); the fields that change after the start are kept as they
 * were then, so a `task` made late (after progress, or once the task has settled) is still the task
 * as it started. Dependency results are final once their task completed, so copying them late
 * copies the same values.
 */
class TaskContext implements ExecutorContext {
  readonly taskId: string;
  private frozen: Readonly<Task> | undefined;
  private progressReporter: ((progress: number) => void) | undefined;
  private results: Readonly<Record<string, Record<string, unknown>>> | undefined;
  private readonly startProgress: number | undefined;
  private readonly startUpdatedAt: string | undefined;
  private readonly startResult: Task["result"];
  private readonly startError: Task["error"];
  constructor(
    private readonly run: RunHooks,
    private readonly index: number,
    private readonly live: Task,
  ) {
    this.taskId = live.id;
    this.startProgress = live.progress;
    this.startUpdatedAt = live.updated_at;
    this.startResult = live.result;
    this.startError = live.error;
  }
  // A getter returning a bound function, so `const { reportProgress } = ctx` works too.
  get reportProgress(): (progress: number) => void {
    return (this.progressReporter ??= this.run.reportProgressOf(this.index));
  }
  get dependencyResults(): Readonly<Record<string, Record<string, unknown>>> {
    if (this.results === undefined) {
      const completed = this.run.completedDependencies(this.index);
      if (completed === undefined) this.results = NO_RESULTS;
      else {
        // Null-prototype objects start in dictionary mode: keys that are task ids (all different)
        // would otherwise grow V8's hidden-class tree by one class per task.
        const results = Object.create(null) as Record<string, Record<string, unknown>>;
        for (const [id, result] of completed) results[id] = cloneJson(result);
        this.results = results;
      }
    }
    return this.results;
  }
  get task(): Readonly<Task> {
    if (this.frozen === undefined) {
      const copy = cloneJson(this.live);
      copy.status = "in_progress";
      copy.progress = this.startProgress;
      copy.updated_at = this.startUpdatedAt;
      copy.completed_at = null;
      copy.result = cloneJson(this.startResult);
      copy.error = this.startError;
      this.frozen = deepFreeze(copy);
    }
    return this.frozen;
  }
  get signal(): AbortSignal {
    return this.run.signalOf(this.index);
  }
}
