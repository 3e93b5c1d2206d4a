import { checkTaskTree } from "../checks/check.js";
import type { Issue } from "../checks/issue.js";
import { isoNow } from "../lifecycle.js";
import { taskTreeToList } from "../tree/convert.js";
import type { Task, TaskTreeNode } from "../validate.js";
import { isErrorInstance } from "@flowspec/runtime";

/** 0 urgent, 1 high, 2 normal (the default), 3 low. */
export type Priority = 0 | 1 | 2 | 3;

/** What a task is, as the builder takes it; everything else (ids, status, timestamps) it fills in. */
export interface TaskSpec {
  /** The executor id (`schemas.method`); without it the scheduler resolves the executor by name. */
  method?: string;
  /** `schemas.type`: where the executor runs. */
  type?: "local" | "remote" | "external";
  /** A draft-07 JSON Schema the inputs must match (`schemas.input_schema`). */
  inputSchema?: Record<string, unknown>;
  inputs?: Record<string, unknown>;
  params?: Record<string, unknown>;
  priority?: Priority;
  /** Overrides the builder's `userId` for this task. */
  userId?: string;
}

/** A task in the tree being built; refer to tasks by handle, never by id string. */
export interface TaskHandle {
  /** The task's UUID v4, generated when the handle is made. */
  readonly id: string;
  readonly name: string;
  /** Adds a child task (organisational only: it does not order execution). */
  child(name: string, spec?: TaskSpec): TaskHandle;
  /** Runs this task only after each given task has completed (required dependencies). */
  after(...tasks: TaskHandle[]): TaskHandle;
  /** Runs this task after each given task is terminal, whatever its outcome (optional dependencies). */
  afterSettled(...tasks: TaskHandle[]): TaskHandle;
}

export interface TaskTreeBuilderOptions {
  /** `user_id` of every task (default null). */
  userId?: string;
  /** The clock for `created_at`/`updated_at` (default `new Date().toISOString()`). */
  now?: () => string;
  /** The id generator (default `crypto.randomUUID`); it must produce UUID v4s. */
  newId?: () => string;
}

export interface TaskTreeBuilder {
  /** Creates the root task; a tree has exactly one. */
  root(name: string, spec?: TaskSpec): TaskHandle;
  /** The tree, every task complete (all 17 fields), checked by the strict validator and semantic checks. */
  build(): TaskTreeNode;
  /** The same tasks as a flat list in pre-order (the shape `tasks.create` takes). */
  toTaskList(): Task[];
}

/** Thrown by `build()` when the tree would not pass the checks (a dependency cycle, bad inputs…). */
export class TaskTreeBuildError extends Error {
  static readonly "~brand": string = "@flowspec/apflow:TaskTreeBuildError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "TaskTreeBuildError";
  constructor(readonly issues: readonly Issue[]) {
    super(`the task tree is invalid:\n${issues.map((i) => `  ${i.path || "/"}: [${i.code}] ${i.message}`).join("\n")}`);
  }
}

interface Entry {
  handle: TaskHandle;
  spec: TaskSpec;
  parent: Entry | undefined;
  children: Entry[];
  dependencies: { entry: Entry; required: boolean }[];
}

/** A fluent builder of task trees: `const t = createTaskTree(); const root = t.root("report"); root.child("fetch")…` */
export function createTaskTree(options: TaskTreeBuilderOptions = {}): TaskTreeBuilder {
  const now = options.now ?? isoNow;
  const newId = options.newId ?? (() => crypto.randomUUID());
  const entries = new Map<TaskHandle, Entry>();
  let rootEntry: Entry | undefined;

  const entryOf = (handle: TaskHandle, role: string): Entry => {
    const entry = entries.get(handle);
    if (!entry) throw new Error(`${role} must be a handle made by this builder`);
    return entry;
  };

  const addDependencies = (entry: Entry, tasks: TaskHandle[], required: boolean) => {
    for (const task of tasks) {
      const target = entryOf(task, "a dependency");
      if (target === entry) throw new Error(`task "${entry.handle.name}" cannot depend on itself`);
      entry.dependencies.push({ entry: target, required });
    }
  };

  const makeEntry = (name: string, spec: TaskSpec, parent: Entry | undefined): Entry => {
    // The schema's maxLength counts characters (code points), not UTF-16 units: "😀" is one.
    if (typeof name !== "string" || name.length === 0 || (name.length > 255 && [...name].length > 255)) throw new Error(`a task name must have 1 to 255 characters, not ${JSON.stringify(name)}`);
    const entry = { spec: { ...spec }, parent, children: [], dependencies: [] } as unknown as Entry;
    const handle: TaskHandle = {
      id: newId(),
      name,
      child: (childName, childSpec = {}) => {
        const child = makeEntry(childName, childSpec, entry);
        entry.children.push(child);
        return child.handle;
      },
      after: (...tasks) => (addDependencies(entry, tasks, true), handle),
      afterSettled: (...tasks) => (addDependencies(entry, tasks, false), handle),
    };
    entry.handle = handle;
    entries.set(handle, entry);
    return entry;
  };

  const taskOf = (entry: Entry, at: string): Task => {
    const { spec } = entry;
    // Once schemas is written its method is required (strict checks); without one, the name is the
    // key the scheduler would look up anyway.
    const schemas: Record<string, unknown> | null =
      spec.method === undefined && spec.type === undefined && spec.inputSchema === undefined
        ? null
        : { method: spec.method ?? entry.handle.name, ...(spec.type ? { type: spec.type } : {}), ...(spec.inputSchema ? { input_schema: structuredClone(spec.inputSchema) } : {}) };
    return {
      id: entry.handle.id,
      parent_id: entry.parent?.handle.id ?? null,
      user_id: spec.userId ?? options.userId ?? null,
      name: entry.handle.name,
      status: "pending",
      priority: spec.priority ?? 2,
      inputs: structuredClone(spec.inputs ?? {}),
      schemas,
      params: spec.params === undefined ? null : structuredClone(spec.params),
      result: null,
      error: null,
      dependencies: entry.dependencies.map((d) => ({ id: d.entry.handle.id, required: d.required })),
      progress: 0,
      created_at: at,
      started_at: null,
      updated_at: at,
      completed_at: null,
    };
  };

  const build = (): TaskTreeNode => {
    if (!rootEntry) throw new Error("the tree has no root yet: call root(name) first");
    const at = now();
    const toNode = (entry: Entry): TaskTreeNode => ({ task: taskOf(entry, at), children: [] });
    const rootNode = toNode(rootEntry);
    const stack: [Entry, TaskTreeNode][] = [[rootEntry, rootNode]];
    while (stack.length > 0) {
      const [entry, node] = stack.pop()!;
      for (const child of entry.children) {
        const childNode = toNode(child);
        node.children!.push(childNode);
        stack.push([child, childNode]);
      }
    }
    const result = checkTaskTree(rootNode, { mode: "strict", checkInputs: true });
    if (!result.ok) throw new TaskTreeBuildError(result.errors);
    return rootNode;
  };

  return {
    root(name, spec = {}) {
      if (rootEntry) throw new Error(`the tree already has a root ("${rootEntry.handle.name}"); add children to it instead`);
      rootEntry = makeEntry(name, spec, undefined);
      return rootEntry.handle;
    },
    build,
    toTaskList: () => taskTreeToList(build()),
  };
}
