import type { IssueSink } from "./issue.js";
import { isObject } from "./task.js";
import { DEPTH, NEXT, STACK, STATE, type Scratch } from "./scratch.js";

/** The tasks of one scope (a tree or a list) in input order, with a way to name where each one is. */
export interface TaskScope {
  readonly kind: "tree" | "list";
  readonly tasks: readonly unknown[];
  /** JSON Pointer of task `i` inside the checked value (built on demand: most tasks never need one). */
  pointer(i: number): string;
  /** A tree's: each task's enclosing task index, -1 for the root (or when that node has no task). */
  readonly parents?: ArrayLike<number>;
  /**
   * A tree's ids, indexed as the walk met them (one pass over the tasks fewer): each id to its last
   * task index, and how many tasks had an id.
   */
  readonly walkedIds?: { readonly index: Map<string, number>; readonly count: number };
}

export const idOf = (task: unknown): string | undefined =>
  isObject(task) && typeof task.id === "string" && task.id !== "" ? task.id : undefined;

/** Each id to its first task index, and the indexes of the later tasks that repeat an id. */
export function indexIds(scope: TaskScope): { index: Map<string, number>; repeats: number[] } {
  const { tasks } = scope;
  // One map operation per task while the ids are unique (nearly always): only if the map ends up
  // smaller than the ids it was given is it built again, keeping first indexes and noting repeats.
  let index: Map<string, number>;
  let ids = 0;
  if (scope.walkedIds !== undefined) ({ index, count: ids } = scope.walkedIds);
  else {
    index = new Map<string, number>();
    for (let i = 0; i < tasks.length; i++) {
      const id = idOf(tasks[i]);
      if (id === undefined) continue;
      index.set(id, i);
      ids++;
    }
  }
  const repeats: number[] = [];
  if (index.size === ids) return { index, repeats };
  index.clear();
  for (let i = 0; i < tasks.length; i++) {
    const id = idOf(tasks[i]);
    if (id === undefined) continue;
    if (index.has(id)) repeats.push(i);
    else index.set(id, i);
  }
  return { index, repeats };
}

/** Reports `duplicate-id` for each repeated id found by `indexIds`. */
export function reportDuplicateIds(sink: IssueSink, scope: TaskScope, index: Map<string, number>, repeats: readonly number[]): void {
  for (const i of repeats) {
    const id = idOf(scope.tasks[i])!;
    sink.error("duplicate-id", `${scope.pointer(i)}/id`, `task id ${JSON.stringify(id)} appears more than once (first at ${scope.pointer(index.get(id)!) || "/"})`, { taskId: id });
  }
}

/**
 * The dependency edges of a scope laid out flat (CSR): `offsets[i]` to `offsets[i + 1]` are task
 * i's dependencies in listed order (none for a task that is not an object or has no array);
 * `targets[k]` is the task edge k names, or one of the negative codes below. The per-task checks
 * resolve them as they go, and take each dependency id's UUID verdict from the task it names
 * (runTaskTree then reuses them for its own edges).
 */
export interface DependencyEdges {
  offsets: Int32Array;
  targets: number[];
}

/** `targets[k]` when the entry is not an object with a string id, or names its own task. */
export const NO_TARGET = -1;
/** `targets[k]` when the id names no task of the scope (`dangling-dependency`). */
export const DANGLING = -2;

/**
 * Dependency references and cycles (notes §3.3): `dangling-dependency` for each edge naming no
 * task, then one iterative depth-first walk in input order finds every back edge in
 * O(tasks + dependencies). Its work arrays are borrowed from `scratch`.
 */
export function checkDependencyGraph(sink: IssueSink, scope: TaskScope, edges: DependencyEdges, scratch: Scratch): void {
  const { tasks } = scope;
  const n = tasks.length;
  const { offsets, targets } = edges;
  for (let i = 0; i < n; i++) {
    for (let k = offsets[i]!; k < offsets[i + 1]!; k++) {
      if (targets[k] !== DANGLING) continue;
      const task = tasks[i] as Record<string, unknown>;
      const id = ((task.dependencies as unknown[])[k - offsets[i]!] as { id: string }).id;
      const ownId = idOf(task);
      sink.error("dangling-dependency", `${scope.pointer(i)}/dependencies/${k - offsets[i]!}`, `dependency ${JSON.stringify(id)} names no task in this ${scope.kind}`, ownId === undefined ? undefined : { taskId: ownId });
    }
  }

  // 0 unvisited, 1 on the current path, 2 done.
  const state = scratch.zeroedBytes(STATE, n);
  const next = scratch.int(NEXT, n);
  next.set(offsets.subarray(0, n));
  const stack = scratch.int(STACK, n);
  const depth = scratch.int(DEPTH, n);
  for (let start = 0; start < n; start++) {
    if (state[start] !== 0) continue;
    let sp = 0;
    state[start] = 1;
    depth[start] = 0;
    stack[sp++] = start;
    while (sp > 0) {
      const top = stack[sp - 1]!;
      const k = next[top]!;
      if (k === offsets[top + 1]) {
        state[top] = 2;
        sp--;
        continue;
      }
      next[top] = k + 1;
      const t = targets[k]!;
      if (t < 0) continue; // NO_TARGET or DANGLING
      const s = state[t];
      if (s === 0) {
        state[t] = 1;
        depth[t] = sp;
        stack[sp++] = t;
      } else if (s === 1) {
        const cycle: string[] = [];
        for (let j = depth[t]!; j < sp; j++) cycle.push(idOf(tasks[stack[j]!])!);
        cycle.push(idOf(tasks[t])!);
        sink.error("dependency-cycle", `${scope.pointer(top)}/dependencies/${k - offsets[top]!}`, `circular dependency: ${cycle.join(" → ")}`, { taskId: idOf(tasks[top])!, cycle });
      }
    }
  }
}

/** Flat-list rules (notes §3.4): exactly one root, parents that exist, no parent loops. Returns each task's parent index (-1 for none). */
export function checkListParents(sink: IssueSink, scope: TaskScope, index: Map<string, number>, scratch: Scratch): Int32Array {
  const { tasks } = scope;
  const n = tasks.length;
  const parent = new Int32Array(n).fill(-1);
  const roots: number[] = [];
  for (let i = 0; i < n; i++) {
    const task = tasks[i];
    if (!isObject(task)) continue;
    const parentId = task.parent_id;
    if (parentId === undefined || parentId === null) {
      roots.push(i);
      continue;
    }
    if (typeof parentId !== "string") continue;
    const found = index.get(parentId);
    if (found === undefined) {
      sink.error("dangling-parent", `${scope.pointer(i)}/parent_id`, `parent_id ${JSON.stringify(parentId)} names no task in this list`, withId(task));
    } else parent[i] = found;
  }
  if (roots.length !== 1) {
    const names = roots.map((i) => JSON.stringify(idOf(tasks[i]) ?? `#${i}`)).join(", ");
    sink.error(
      "root-count",
      "",
      roots.length === 0
        ? "no root task: every task has a parent_id (a task list needs exactly one root)"
        : `${roots.length} root tasks (${names}); a task list needs exactly one task with a null parent_id`,
    );
  }
  // Each task has at most one parent, so a walk up from each unvisited task finds every loop once.
  const state = scratch.zeroedBytes(STATE, n);
  const path: number[] = [];
  for (let start = 0; start < n; start++) {
    if (state[start] !== 0) continue;
    path.length = 0;
    let at = start;
    while (at >= 0 && state[at] === 0) {
      state[at] = 1;
      path.push(at);
      at = parent[at]!;
    }
    if (at >= 0 && state[at] === 1) {
      const from = path.indexOf(at);
      const cycle = path.slice(from).map((i) => idOf(tasks[i])!);
      cycle.push(idOf(tasks[at])!);
      const closing = path[path.length - 1]!;
      sink.error("parent-cycle", `${scope.pointer(closing)}/parent_id`, `parent_id loop: ${cycle.join(" → ")}`, { taskId: idOf(tasks[closing])!, cycle });
    }
    for (const i of path) state[i] = 2;
  }
  return parent;
}

/**
 * `mixed-user-id`: tasks of one tree or list carry different non-null user_ids. An error in a flat
 * list, which v1's `tasks.create` rejects; a warning in a tree (notes §3.4). The per-task pass finds
 * them (`first`, the first task's user_id, and the later tasks whose user_id differs); they are
 * reported here, after the graph's issues.
 */
export function reportMixedUserIds(sink: IssueSink, scope: TaskScope, isList: boolean, first: string | undefined, differing: readonly number[]): void {
  for (const i of differing) {
    const task = scope.tasks[i] as Record<string, unknown>;
    const message = `user_id ${JSON.stringify(task.user_id)} differs from ${JSON.stringify(first)}; a v1 server rejects trees of mixed users`;
    if (isList) sink.error("mixed-user-id", `${scope.pointer(i)}/user_id`, message, withId(task));
    else sink.warn("mixed-user-id", `${scope.pointer(i)}/user_id`, message, withId(task));
  }
}

function withId(task: Record<string, unknown>): { taskId: string } | undefined {
  return typeof task.id === "string" ? { taskId: task.id } : undefined;
}
