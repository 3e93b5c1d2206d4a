import { schemaIssues } from "../validate.js";
import { isUuidV4 } from "./formats.js";
import {
  checkDependencyGraph,
  checkListParents,
  DANGLING,
  indexIds,
  NO_TARGET,
  reportDuplicateIds,
  reportMixedUserIds,
  type DependencyEdges,
  type TaskScope,
} from "./graph.js";
import { createIssueSink, resultOf, type CheckOptions, type CheckResult, type IssueSink } from "./issue.js";
import { checkId, checkOneTask, isObject, type IdTests } from "./task.js";
import { walkTree } from "./tree.js";
import { acquireScratch, OFFSETS, releaseScratch, VERDICTS, type Scratch } from "./scratch.js";

/**
 * Checks one Task: the JSON Schema (layer 1) and the per-task rules of notes §3.2. Dependency
 * references cannot be resolved from one task; use `checkTaskTree` or `checkTaskList` for those.
 */
export function checkTask(value: unknown, options: CheckOptions = {}): CheckResult {
  const sink = createIssueSink(options.mode ?? "strict");
  checkOneTask(sink, value, "", options.checkInputs ?? false);
  return resultOf(sink);
}

/**
 * Checks a TaskTreeNode: every task as `checkTask` does, the node shapes, one root with a null
 * parent_id, each child's parent_id equal to its parent's id, unique ids, dependency references
 * inside the tree and no dependency cycles. Every issue is reported, never only the first.
 */
export function checkTaskTree(node: unknown, options: CheckOptions = {}): CheckResult {
  return checkTree(node, options, false).result;
}

/** What a check found, with the tasks in input order and their ids indexed, for a run to reuse. */
export interface IndexedCheck {
  result: CheckResult;
  /** The checked tasks (the input's own objects) in input order: pre-order for a tree. */
  tasks: readonly unknown[];
  /** Each id to its first task index. */
  index: ReadonlyMap<string, number>;
  /** The dependency edges, resolved to task indexes. */
  edges: DependencyEdges;
  /** Each task's parent task index (-1 for none), when the check found them: always for a valid input. */
  parents: ArrayLike<number> | undefined;
  /** The index of the first task whose status is "in_progress" (a run refuses those), or -1. */
  firstInProgress: number;
}

/** `checkTaskTree`, also handing back the tasks and the id index it built (runTaskTree reuses them). */
export function checkTaskTreeIndexed(node: unknown, options: CheckOptions = {}): IndexedCheck {
  return checkTree(node, options, true);
}

/**
 * A tree check; `keep`: the edges and parent indexes are handed back for a run, so they get arrays
 * of their own. Without it they are views of the scratch space, which the next check overwrites.
 */
function checkTree(node: unknown, options: CheckOptions, keep: boolean): IndexedCheck {
  const scratch = acquireScratch();
  try {
    const sink = createIssueSink(options.mode ?? "strict");
    const scope = walkTree(sink, node, scratch, keep);
    const { index, edges, firstInProgress } = checkScope(sink, scope, options, scratch, keep);
    return { result: resultOf(sink), tasks: scope.tasks, index, edges, parents: scope.parents, firstInProgress };
  } finally {
    releaseScratch(scratch);
  }
}

/**
 * Checks a flat task list (the shape `tasks.create` sends): every task, unique ids, exactly one
 * root, parents that exist and do not loop, dependency references inside the list, no cycles.
 */
export function checkTaskList(tasks: unknown, options: CheckOptions = {}): CheckResult {
  return checkList(tasks, options, false).result;
}

/** `checkTaskList`, also handing back the tasks and the id index it built (runTaskTree reuses them). */
export function checkTaskListIndexed(tasks: unknown, options: CheckOptions = {}): IndexedCheck {
  return checkList(tasks, options, true);
}

/** A list check; `keep` as for `checkTree`. */
function checkList(tasks: unknown, options: CheckOptions, keep: boolean): IndexedCheck {
  const sink = createIssueSink(options.mode ?? "strict");
  if (!Array.isArray(tasks)) {
    sink.error("schema", "", "must be an array of tasks", { keyword: "type", params: { type: "array" } });
    return { result: resultOf(sink), tasks: [], index: new Map(), edges: { offsets: new Int32Array(1), targets: [] }, parents: undefined, firstInProgress: -1 };
  }
  const scope: TaskScope = { kind: "list", tasks, pointer: (i) => `/${i}` };
  const scratch = acquireScratch();
  try {
    const { index, edges, parents, firstInProgress } = checkScope(sink, scope, options, scratch, keep, true);
    return { result: resultOf(sink), tasks, index, edges, parents, firstInProgress };
  } finally {
    releaseScratch(scratch);
  }
}

/** Checks one Dependency object: its schema, a UUID v4 `id` (strict) and unknown keys. */
export function checkDependency(value: unknown, options: Pick<CheckOptions, "mode"> = {}): CheckResult {
  const mode = options.mode ?? "strict";
  const sink = createIssueSink(mode);
  for (const issue of schemaIssues("Dependency", value)) {
    sink.error("schema", issue.path, issue.message, { keyword: issue.keyword, params: issue.params });
  }
  if (isObject(value)) {
    for (const key in value) if (key !== "id" && key !== "required") sink.warn("unknown-field", `/${key}`, `unknown Dependency field "${key}" (kept as it is)`);
    checkId(sink, value.id, () => "", "/id", undefined);
  }
  return resultOf(sink);
}

function checkScope(
  sink: IssueSink,
  scope: TaskScope,
  options: CheckOptions,
  scratch: Scratch,
  keep: boolean,
  isList = false,
): { index: Map<string, number>; edges: DependencyEdges; parents: ArrayLike<number> | undefined; firstInProgress: number } {
  const checkInputs = options.checkInputs ?? false;
  const { tasks, pointer } = scope;
  const n = tasks.length;
  // Ids are indexed first (their issues are still reported after the tasks' own), so the per-task
  // checks can resolve each dependency as they read it and test each id against the UUID pattern once.
  const { index, repeats } = indexIds(scope);
  // Task i's edges are [offsets[i], offsets[i + 1]); only a kept array must be exactly n + 1 long.
  const offsets = keep ? new Int32Array(n + 1) : scratch.int(OFFSETS, n + 1);
  offsets[0] = 0;
  const targets: number[] = [];
  // One pointer function and one IdTests for all tasks, both about the current task: two closures
  // per task (one to call, one to remember) were a good part of the check's garbage.
  let current = 0;
  let currentPointer: string | undefined;
  const at = () => (currentPointer ??= pointer(current));
  const verdicts = scratch.zeroedBytes(VERDICTS, n); // per task index: 0 its id not tested yet, 1 a UUID v4, 2 not
  const testedAt = (i: number, id: string): boolean => {
    let verdict = verdicts[i]!;
    if (verdict === 0) verdicts[i] = verdict = isUuidV4(id) ? 1 : 2;
    return verdict === 1;
  };
  const { parents } = scope;
  const ids: IdTests = {
    own: (id) => testedAt(current, id),
    // The same id as the enclosing task's (a tree's parent_id, mostly): the same verdict.
    parent: (id) => {
      const p = parents === undefined ? -1 : parents[current]!;
      const parentTask = p >= 0 ? tasks[p] : undefined;
      return isObject(parentTask) && id === parentTask.id ? testedAt(p, id) : isUuidV4(id);
    },
    dependency: (k, id, self) => {
      const target = self ? NO_TARGET : (index.get(id) ?? DANGLING);
      const edge = offsets[current]! + k;
      if (edge >= offsets[current + 1]!) return isUuidV4(id); // a list that changed length between reads (a getter)
      targets[edge] = target;
      return target >= 0 ? testedAt(target, id) : isUuidV4(id);
    },
  };
  // mixed-user-id, found in this pass while each task is at hand and reported last.
  let firstUserId: string | undefined;
  const otherUserIds: number[] = [];
  // For a run (`keep`), which refuses in_progress tasks: read here, while each task is at hand,
  // instead of in a pass of its own over every task (at 50k tasks, each one a cache miss).
  let firstInProgress = -1;
  for (; current < n; current++) {
    currentPointer = undefined;
    const task = tasks[current];
    const object = isObject(task);
    const deps = object && Array.isArray(task.dependencies) ? task.dependencies.length : 0;
    offsets[current + 1] = offsets[current]! + deps;
    for (let k = 0; k < deps; k++) targets.push(NO_TARGET); // entries that are not objects with a string id stay so
    checkOneTask(sink, task, at, checkInputs, ids);
    const userId = object ? task.user_id : undefined;
    if (typeof userId === "string") {
      if (firstUserId === undefined) firstUserId = userId;
      else if (userId !== firstUserId) otherUserIds.push(current);
    }
    if (keep && firstInProgress < 0 && object && task.status === "in_progress") firstInProgress = current;
  }
  const edges: DependencyEdges = { offsets, targets };
  reportDuplicateIds(sink, scope, index, repeats);
  const listParents = isList ? checkListParents(sink, scope, index, scratch) : undefined;
  checkDependencyGraph(sink, scope, edges, scratch);
  reportMixedUserIds(sink, scope, isList, firstUserId, otherUserIds);
  return { index, edges, parents: listParents ?? parents, firstInProgress };
}
