import type { Issue } from "../checks/issue.js";
import type { Task } from "../validate.js";

export interface ApflowClientOptions {
  /** The server, e.g. `http://localhost:8000`; requests go to `<baseUrl>/tasks` and `<baseUrl>/system`. */
  baseUrl: string;
  /** A bearer token, or a function called before each request that returns one. Sent only as `Authorization`. */
  token?: string | (() => string | undefined | Promise<string | undefined>);
  /** Extra headers on every request (e.g. `X-LLM-API-KEY`). */
  headers?: Record<string, string>;
  /** Per-call timeout in ms (default 30 000); blocking `tasks.execute` and streams have none unless the call gives one. */
  timeoutMs?: number;
  /** Check task dicts in responses in wire mode (default true): errors throw, warnings are returned. */
  validateResponses?: boolean;
  /** How often to poll `tasks.tree` after a stream ends (default 1000 ms). */
  pollIntervalMs?: number;
  /** The largest response body read, in bytes (default 16 MiB); a larger one fails with ResponseTooLargeError. */
  maxResponseBytes?: number;
  /** The largest event of a streaming `tasks.execute`, in bytes of data (default 16 MiB); a larger one ends the stream with ApflowStreamError. */
  maxEventBytes?: number;
  /** Follow a redirect to another origin (default false: a RedirectError); every header but the defaults is dropped on the way. */
  allowCrossOriginRedirects?: boolean;
  /** A fetch implementation (default the global one). */
  fetch?: typeof fetch;
}

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * Overrides the client's timeout for this call; `0` means none. For `streamExecute` it bounds only the opening of
   * the stream: the wait for the response headers and then for its first event (the JSON-RPC envelope, or an error
   * body); once that has arrived, later events may be any time apart. Either way the error is an ApflowTransportError
   * `"<method>: POST <url>: no answer within <ms> ms"` and the connection is released.
   */
  timeoutMs?: number;
}

/** Data from the server plus the wire-mode warnings about its task dicts. */
export interface Checked<T> {
  data: T;
  warnings: Issue[];
}

/** The definition fields `tasks.create` takes (execution state is stripped before sending). */
export type TaskDefinition = Pick<Task, "name"> &
  Partial<Pick<Task, "id" | "parent_id" | "user_id" | "priority" | "inputs" | "schemas" | "params" | "dependencies">>;

export interface ListTasksParams {
  user_id?: string;
  status?: Task["status"];
  /** The server defaults to true (roots only); pass false to see every task. */
  root_only?: boolean;
  limit?: number;
  offset?: number;
}

export interface UpdateTaskFields {
  name?: string;
  status?: Task["status"];
  progress?: number;
  error?: string | null;
  result?: Record<string, unknown> | null;
  priority?: number;
  inputs?: Record<string, unknown>;
  params?: Record<string, unknown> | null;
  schemas?: Record<string, unknown> | null;
  dependencies?: Task["dependencies"];
  started_at?: string | null;
  completed_at?: string | null;
  [field: string]: unknown;
}

export interface WebhookConfig {
  url: string;
  headers?: Record<string, string>;
  method?: "POST" | "PUT";
  timeout?: number;
  max_retries?: number;
}

export type ExecuteParams = ({ task_id: string } | { tasks: TaskDefinition[] }) & { webhook_config?: WebhookConfig; use_demo?: boolean };

export interface ExecuteResult {
  success: boolean;
  protocol?: string;
  root_task_id?: string;
  task_id?: string;
  status: string;
  message?: string;
  [key: string]: unknown;
}

export interface CancelResult {
  task_id: string;
  status: "cancelled" | "failed" | "error" | string;
  message?: string;
  force?: boolean;
  token_usage?: unknown;
  result?: unknown;
  [key: string]: unknown;
}

export interface RunningStatus {
  task_id: string;
  context_id?: string;
  status: string;
  progress?: number;
  error?: string | null;
  is_running?: boolean;
  started_at?: string | null;
  updated_at?: string | null;
  [key: string]: unknown;
}

export interface HealthResult {
  status: "healthy" | "unhealthy" | string;
  message?: string;
  version?: string;
  timestamp?: string;
  running_tasks_count?: number;
  [key: string]: unknown;
}

export interface ExecutorsResult {
  executors: { id: string; name?: string; extension?: string; description?: string }[];
  count: number;
  restricted?: boolean;
  allowed_ids?: string[];
  [key: string]: unknown;
}

/** One event of a streaming `tasks.execute` (notes §6.5); `started` is the JSON-RPC envelope's result. */
export interface StreamEvent {
  type: "started" | "task_start" | "progress" | "task_completed" | "task_failed" | "final" | "stream_end" | "timeout" | "error" | string;
  task_id?: string;
  root_task_id?: string;
  status?: string;
  progress?: number;
  message?: string;
  result?: unknown;
  error?: unknown;
  final?: boolean;
  timestamp?: string;
  [key: string]: unknown;
}

/** What a stream leaves once it has ended and the tree has settled. */
export interface StreamOutcome {
  rootTaskId: string | undefined;
  /** The final tree from `tasks.tree`, when there was an id to poll with. */
  tree: Checked<import("../validate.js").TaskTreeNode> | undefined;
  /** Pending tasks that can never run (a required dependency failed, was cancelled or is blocked). */
  blocked: string[];
}
