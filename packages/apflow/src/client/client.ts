import { byteLimit, startTimer } from "@flowspec/runtime";
import { checkTask, checkTaskTree } from "../checks/check.js";
import type { Issue } from "../checks/issue.js";
import type { Task, TaskTreeNode } from "../validate.js";
import { ApflowResponseError, ApflowStreamError, ApflowTransportError } from "./errors.js";
import { readExecutionStream, type StreamState } from "./stream.js";
import { checkTimeoutMs, createTransport, shown } from "./transport.js";
import type {
  ApflowClientOptions,
  CallOptions,
  CancelResult,
  Checked,
  ExecuteParams,
  ExecuteResult,
  ExecutorsResult,
  HealthResult,
  ListTasksParams,
  RunningStatus,
  StreamEvent,
  StreamOutcome,
  TaskDefinition,
  UpdateTaskFields,
} from "./types.js";

/** The fields `tasks.create` is sent (notes §6.8); execution state is stripped. */
const DEFINITION_FIELDS = ["id", "name", "parent_id", "user_id", "priority", "inputs", "schemas", "params", "dependencies"] as const;

export interface ApflowClient {
  /** Any method, for those without a typed wrapper (`tasks.scheduled.*`, `tasks.webhook.trigger`…). */
  call(method: string, params?: unknown, options?: CallOptions & { endpoint?: "/tasks" | "/system" }): Promise<unknown>;
  createTasks(tasks: readonly (TaskDefinition | Task)[], options?: CallOptions): Promise<Checked<Task[]>>;
  getTask(taskId: string, options?: CallOptions): Promise<Checked<Task | null>>;
  getTaskDetail(taskId: string, options?: CallOptions): Promise<Checked<Task | null>>;
  getTree(taskId: string, options?: CallOptions): Promise<Checked<TaskTreeNode>>;
  getChildren(parentId: string, options?: CallOptions): Promise<Checked<Task[]>>;
  listTasks(params?: ListTasksParams, options?: CallOptions): Promise<Checked<Task[]>>;
  countTasks(filters?: Record<string, unknown>, options?: CallOptions): Promise<unknown>;
  updateTask(taskId: string, fields: UpdateTaskFields, options?: CallOptions): Promise<Checked<Task>>;
  deleteTask(taskId: string, options?: CallOptions): Promise<Record<string, unknown>>;
  /** Blocking `tasks.execute`: answers when the tree has finished; no timeout unless one is given. */
  executeTasks(params: ExecuteParams, options?: CallOptions): Promise<ExecuteResult>;
  /**
   * Streaming `tasks.execute`: iterate its events; `result` settles once the stream ends and the tree has settled.
   * `options.timeoutMs` (none by default; the client's does not apply) bounds the opening of the stream: until the
   * first event (the JSON-RPC envelope) has arrived; the events after it have no timeout.
   */
  streamExecute(params: ExecuteParams, options?: CallOptions): ExecutionStream;
  cancelTasks(taskIds: readonly string[], options?: CallOptions & { force?: boolean; errorMessage?: string }): Promise<CancelResult[]>;
  cloneTask(taskId: string, params?: { origin_type?: "copy" | "link" | "archive" | "mixed"; recursive?: boolean; link_task_ids?: string[]; reset_fields?: string[]; save?: boolean }, options?: CallOptions): Promise<unknown>;
  generateTasks(params: { requirement: string; user_id?: string; llm_provider?: string; model?: string; temperature?: number; max_tokens?: number; save?: boolean }, options?: CallOptions): Promise<Record<string, unknown>>;
  listRunningTasks(params?: { user_id?: string; limit?: number }, options?: CallOptions): Promise<Checked<Task[]>>;
  runningStatus(taskIds: readonly string[], options?: CallOptions): Promise<RunningStatus[]>;
  countRunningTasks(params?: { user_id?: string }, options?: CallOptions): Promise<{ count: number; user_id?: string }>;
  health(options?: CallOptions): Promise<HealthResult>;
  executors(options?: CallOptions): Promise<ExecutorsResult>;
  setLlmKey(params: { api_key: string; user_id?: string; provider?: string }, options?: CallOptions): Promise<Record<string, unknown>>;
  getLlmKey(params?: { user_id?: string; provider?: string }, options?: CallOptions): Promise<Record<string, unknown>>;
  deleteLlmKey(params?: { user_id?: string; provider?: string }, options?: CallOptions): Promise<Record<string, unknown>>;
}

export interface ExecutionStream extends AsyncIterable<StreamEvent> {
  /** Settles after the events are read to the end and `tasks.tree` shows every task settled. */
  readonly result: Promise<StreamOutcome>;
}

/** A thin typed client for a v1 apflow server's JSON-RPC endpoints (`POST /tasks`, `POST /system`). */
export function createApflowClient(options: ApflowClientOptions): ApflowClient {
  // Checked here, not at first use: a NaN, negative or string delay reaches setTimeout as 1 ms,
  // a poll loop every millisecond or a timeout that never applies.
  if (options.timeoutMs !== undefined) checkTimeoutMs(options.timeoutMs);
  const pollInterval = options.pollIntervalMs === undefined ? 1000 : options.pollIntervalMs;
  if (typeof pollInterval !== "number" || !(pollInterval >= 1)) {
    throw new RangeError(`pollIntervalMs must be a number of milliseconds ≥ 1 (or Infinity), got ${shown(pollInterval)}`);
  }
  const transport = createTransport(options);
  const maxEventBytes = byteLimit("maxEventBytes", options.maxEventBytes);
  const validate = options.validateResponses ?? true;

  const tasksCall = (method: string, params: unknown, callOptions: CallOptions = {}) => transport.call("/tasks", method, params, callOptions);
  const systemCall = (method: string, params: unknown, callOptions: CallOptions = {}) => transport.call("/system", method, params, callOptions);

  const checkedTask = (method: string, value: unknown, at = ""): Issue[] => {
    if (!validate) return [];
    const result = checkTask(value, { mode: "wire" });
    const shift = (issues: Issue[]) => issues.map((i) => ({ ...i, path: at + i.path }));
    if (!result.ok) throw new ApflowResponseError(method, shift(result.errors));
    return shift(result.warnings);
  };
  const checkedTasks = (method: string, value: unknown): Checked<Task[]> => {
    if (!Array.isArray(value)) throw new ApflowTransportError(`${method}: expected an array of tasks, got ${describe(value)}`);
    const warnings = value.flatMap((task, i) => checkedTask(method, task, `/${i}`));
    return { data: value as Task[], warnings };
  };
  const checkedOptionalTask = (method: string, value: unknown): Checked<Task | null> => {
    if (value === null) return { data: null, warnings: [] };
    return { data: value as Task, warnings: checkedTask(method, value) };
  };
  const checkedTree = (method: string, value: unknown): Checked<TaskTreeNode> => {
    const tree = toTreeNode(method, value);
    if (!validate) return { data: tree, warnings: [] };
    const result = checkTaskTree(tree, { mode: "wire" });
    if (!result.ok) throw new ApflowResponseError(method, result.errors);
    return { data: tree, warnings: result.warnings };
  };

  const client: ApflowClient = {
    call: (method, params, callOptions = {}) => transport.call(callOptions.endpoint ?? "/tasks", method, params ?? {}, callOptions),
    async createTasks(tasks, callOptions) {
      const definitions = tasks.map((task) => {
        const out: Record<string, unknown> = {};
        for (const field of DEFINITION_FIELDS) if ((task as Record<string, unknown>)[field] !== undefined) out[field] = (task as Record<string, unknown>)[field];
        return out;
      });
      const result = await tasksCall("tasks.create", definitions, callOptions);
      return checkedTasks("tasks.create", Array.isArray(result) ? result : [result]);
    },
    getTask: async (taskId, callOptions) => checkedOptionalTask("tasks.get", await tasksCall("tasks.get", { task_id: taskId }, callOptions)),
    getTaskDetail: async (taskId, callOptions) => checkedOptionalTask("tasks.detail", await tasksCall("tasks.detail", { task_id: taskId }, callOptions)),
    getTree: async (taskId, callOptions) => checkedTree("tasks.tree", await tasksCall("tasks.tree", { task_id: taskId }, callOptions)),
    getChildren: async (parentId, callOptions) => checkedTasks("tasks.children", await tasksCall("tasks.children", { parent_id: parentId }, callOptions)),
    listTasks: async (params = {}, callOptions) => checkedTasks("tasks.list", await tasksCall("tasks.list", params, callOptions)),
    countTasks: (filters = {}, callOptions) => tasksCall("tasks.count", filters, callOptions),
    async updateTask(taskId, fields, callOptions) {
      const result = await tasksCall("tasks.update", { ...fields, task_id: taskId }, callOptions);
      return { data: result as Task, warnings: checkedTask("tasks.update", result) };
    },
    deleteTask: async (taskId, callOptions) => objectResult("tasks.delete", await tasksCall("tasks.delete", { task_id: taskId }, callOptions)),
    executeTasks: async (params, callOptions = {}) => objectResult("tasks.execute", await transport.call("/tasks", "tasks.execute", stripExecute(params), { ...callOptions, noTimeout: true })) as ExecuteResult,
    streamExecute(params, callOptions = {}) {
      const state: StreamState = { rootTaskId: undefined, firstTaskId: undefined };
      let settle!: { resolve(outcome: StreamOutcome): void; reject(error: unknown): void };
      const result = new Promise<StreamOutcome>((resolve, reject) => (settle = { resolve, reject }));
      result.catch(() => {}); // the iterator reports failures; `result` repeats them for whoever awaits it
      let started = false;
      const pollId = "task_id" in params ? params.task_id : undefined;
      let settled = false;
      const finish = (outcome: { ok: true; value: StreamOutcome } | { ok: false; error: unknown }) => {
        settled = true;
        if (outcome.ok) settle.resolve(outcome.value);
        else settle.reject(outcome.error);
      };
      async function* events(): AsyncGenerator<StreamEvent, void> {
        try {
          try {
            const exchange = await transport.open("/tasks", "tasks.execute", { ...stripExecute(params), use_streaming: true }, callOptions);
            try {
              yield* readExecutionStream("tasks.execute", exchange, state, maxEventBytes);
            } finally {
              exchange.stopTimer(); // no timer outlives the stream, however it ended
            }
          } catch (error) {
            finish({ ok: false, error });
            throw error;
          }
          try {
            finish({ ok: true, value: await settleTree(pollId ?? state.firstTaskId ?? state.rootTaskId, state.rootTaskId, callOptions.signal) });
          } catch (error) {
            finish({ ok: false, error });
            throw error;
          }
        } finally {
          // The consumer stopped early (break/return): `result` must not wait forever.
          if (!settled) finish({ ok: false, error: new ApflowStreamError("tasks.execute: the stream was closed before its end", state.rootTaskId) });
        }
      }
      return {
        result,
        [Symbol.asyncIterator]() {
          if (started) throw new Error("an execution stream can be iterated only once");
          started = true;
          return events();
        },
      };
    },
    async cancelTasks(taskIds, callOptions = {}) {
      const params: Record<string, unknown> = { task_ids: [...taskIds] };
      if (callOptions.force !== undefined) params.force = callOptions.force;
      if (callOptions.errorMessage !== undefined) params.error_message = callOptions.errorMessage;
      const result = await tasksCall("tasks.cancel", params, callOptions);
      if (!Array.isArray(result)) throw new ApflowTransportError(`tasks.cancel: expected an array, got ${describe(result)}`);
      return result as CancelResult[];
    },
    cloneTask: (taskId, params = {}, callOptions) => tasksCall("tasks.clone", { ...params, task_id: taskId }, callOptions),
    generateTasks: async (params, callOptions) => objectResult("tasks.generate", await tasksCall("tasks.generate", params, callOptions)),
    listRunningTasks: async (params = {}, callOptions) => checkedTasks("tasks.running.list", await tasksCall("tasks.running.list", params, callOptions)),
    async runningStatus(taskIds, callOptions) {
      const result = await tasksCall("tasks.running.status", { task_ids: [...taskIds] }, callOptions);
      if (!Array.isArray(result)) throw new ApflowTransportError(`tasks.running.status: expected an array, got ${describe(result)}`);
      return result as RunningStatus[];
    },
    countRunningTasks: async (params = {}, callOptions) => objectResult("tasks.running.count", await tasksCall("tasks.running.count", params, callOptions)) as { count: number },
    health: async (callOptions) => objectResult("system.health", await systemCall("system.health", {}, callOptions)) as HealthResult,
    executors: async (callOptions) => objectResult("system.executors", await systemCall("system.executors", {}, callOptions)) as ExecutorsResult,
    setLlmKey: async (params, callOptions) => objectResult("config.llm_key.set", await systemCall("config.llm_key.set", params, callOptions)),
    getLlmKey: async (params = {}, callOptions) => objectResult("config.llm_key.get", await systemCall("config.llm_key.get", params, callOptions)),
    deleteLlmKey: async (params = {}, callOptions) => objectResult("config.llm_key.delete", await systemCall("config.llm_key.delete", params, callOptions)),
  };

  /** Polls `tasks.tree` until every task is settled (notes §6.5). */
  async function settleTree(taskId: string | undefined, rootTaskId: string | undefined, signal: AbortSignal | undefined): Promise<StreamOutcome> {
    if (taskId === undefined) return { rootTaskId, tree: undefined, blocked: [] };
    for (;;) {
      const tree = await client.getTree(taskId, { signal });
      const { settled, blocked } = settledState(tree.data);
      if (settled) return { rootTaskId: tree.data.task.id, tree, blocked };
      await sleep(pollInterval, signal);
    }
  }

  return client;
}

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/** Every task terminal, or pending behind a required dependency that failed, was cancelled or is itself blocked. */
export function settledState(tree: TaskTreeNode): { settled: boolean; blocked: string[] } {
  const tasks: Task[] = [];
  const stack = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    tasks.push(node.task);
    const children = node.children ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  const byId = new Map(tasks.map((task) => [task.id, task]));
  // Spread "blocked" forward along reverse edges from the failed and cancelled tasks, once per
  // edge: rescanning every task until nothing changes is quadratic on a long chain listed in
  // reverse, and a server's 100,000-task tree would then stall every poll.
  const blocked = new Set<string>();
  const waitingOn = new Map<string, Task[]>(); // pending task id → pending tasks that require it
  const queue: Task[] = [];
  for (const task of tasks) {
    if (task.status !== "pending") continue;
    for (const dep of task.dependencies ?? []) {
      if (dep.required === false) continue;
      const target = byId.get(dep.id);
      if (target === undefined) continue;
      if (target.status === "failed" || target.status === "cancelled") {
        if (!blocked.has(task.id)) {
          blocked.add(task.id);
          queue.push(task);
        }
      } else if (target.status === "pending") {
        let list = waitingOn.get(target.id);
        if (!list) waitingOn.set(target.id, (list = []));
        list.push(task);
      }
    }
  }
  for (let head = 0; head < queue.length; head++) {
    for (const task of waitingOn.get(queue[head]!.id) ?? []) {
      if (blocked.has(task.id)) continue;
      blocked.add(task.id);
      queue.push(task);
    }
  }
  const settled = tasks.every((task) => TERMINAL.has(task.status) || blocked.has(task.id));
  return { settled, blocked: tasks.filter((task) => blocked.has(task.id)).map((task) => task.id) };
}

/**
 * Accepts both tree shapes a v1 server or its docs use: `{task, children}` and a task with nested
 * `children`. Iterative, with an explicit stack: a server's tree can be nested deeper than the call
 * stack allows, and must then convert (or fail with a clear error), not overflow.
 */
export function toTreeNode(method: string, value: unknown): TaskTreeNode {
  // Each pending node keeps the children array it goes into and a link to its parent, so the
  // JSON Pointer of a bad node is built only when one is found.
  type Place = { parent: Place | undefined; index: number };
  const pointerOf = (place: Place | undefined): string => {
    const parts: string[] = [];
    for (let at = place; at?.parent; at = at.parent) parts.push(`/children/${at.index}`);
    return parts.reverse().join("");
  };
  const root: TaskTreeNode[] = [];
  const stack: { value: unknown; into: TaskTreeNode[]; place: Place }[] = [{ value, into: root, place: { parent: undefined, index: 0 } }];
  while (stack.length > 0) {
    const { value: item, into, place } = stack.pop()!;
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      const where = place.parent ? ` at ${pointerOf(place)}` : "";
      throw new ApflowTransportError(`${method}: expected a task tree${where}, got ${describe(item)}`);
    }
    const record = item as Record<string, unknown>;
    let task: Task;
    if ("task" in record && typeof record.task === "object" && record.task !== null) task = record.task as Task;
    else {
      const { children: _ignored, ...rest } = record;
      task = rest as unknown as Task;
    }
    const node: TaskTreeNode = { task, children: [] };
    into.push(node); // children are popped in order, so each array fills in order
    const children = Array.isArray(record.children) ? record.children : [];
    for (let i = children.length - 1; i >= 0; i--) stack.push({ value: children[i], into: node.children!, place: { parent: place, index: i } });
  }
  return root[0]!;
}

function stripExecute(params: ExecuteParams): Record<string, unknown> {
  if ("tasks" in params) {
    return { ...params, tasks: params.tasks.map((task) => Object.fromEntries(DEFINITION_FIELDS.filter((f) => (task as Record<string, unknown>)[f] !== undefined).map((f) => [f, (task as Record<string, unknown>)[f]]))) };
  }
  return { ...params };
}

function objectResult(method: string, value: unknown): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new ApflowTransportError(`${method}: expected an object result, got ${describe(value)}`);
  return value as Record<string, unknown>;
}

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ApflowTransportError(`polling aborted`));
    // startTimer, not setTimeout: setTimeout runs a delay past 2^31 − 1 ms (or Infinity) after
    // 1 ms, which would turn a caller's long poll interval into a busy loop.
    const stop = startTimer(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      stop();
      reject(new ApflowTransportError(`polling aborted`));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
