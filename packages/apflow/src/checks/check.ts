import { schemaIssues } from "../validate.js";
import { isUuidV4 } from "./formats.js";
import { checkDependencyGraph, checkListParents, checkUserIds, indexIds, reportDuplicateIds, type TaskScope } from "./graph.js";
import { createIssueSink, resultOf, type CheckOptions, type CheckResult, type IssueSink } from "./issue.js";
import { checkId, checkOneTask, isObject, type UuidTest } from "./task.js";
import { walkTree } from "./tree.js";

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
  return checkTaskTreeIndexed(node, options).result;
}

/** What a check found, with the tasks in input order and their ids indexed, for a run to reuse. */
export interface IndexedCheck {
  result: CheckResult;
  /** The checked tasks (the input's own objects) in input order: pre-order for a tree. */
  tasks: readonly unknown[];
  /** Each id to its first task index. */
  index: ReadonlyMap<string, number>;
}

/** `checkTaskTree`, also handing back the tasks and the id index it built (runTaskTree reuses them). */
export function checkTaskTreeIndexed(node: unknown, options: CheckOptions = {}): IndexedCheck {
  const sink = createIssueSink(options.mode ?? "strict");
  const scope = walkTree(sink, node);
  const index = checkScope(sink, scope, options);
  return { result: resultOf(sink), tasks: scope.tasks, index };
}

/**
 * Checks a flat task list (the shape `tasks.create` sends): every task, unique ids, exactly one
 * root, parents that exist and do not loop, dependency references inside the list, no cycles.
 */
export function checkTaskList(tasks: unknown, options: CheckOptions = {}): CheckResult {
  return checkTaskListIndexed(tasks, options).result;
}

/** `checkTaskList`, also handing back the tasks and the id index it built (runTaskTree reuses them). */
export function checkTaskListIndexed(tasks: unknown, options: CheckOptions = {}): IndexedCheck {
  const sink = createIssueSink(options.mode ?? "strict");
  if (!Array.isArray(tasks)) {
    sink.error("schema", "", "must be an array of tasks", { keyword: "type", params: { type: "array" } });
    return { result: resultOf(sink), tasks: [], index: new Map() };
  }
  const scope: TaskScope = { kind: "list", tasks, pointer: (i) => `/${i}` };
  const index = checkScope(sink, scope, options, true);
  return { result: resultOf(sink), tasks, index };
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

function checkScope(sink: IssueSink, scope: TaskScope, options: CheckOptions, isList = false): Map<string, number> {
  const checkInputs = options.checkInputs ?? false;
  const { tasks, pointer } = scope;
  // Indexed first (its issues are still reported after the tasks' own), so that each id is tested
  // against the UUID pattern once: parent_ids and dependency ids repeat the ids of the scope.
  const { index, repeats } = indexIds(scope);
  const isUuid = uuidTestOnce(tasks.length, index);
  for (let i = 0; i < tasks.length; i++) checkOneTask(sink, tasks[i], () => pointer(i), checkInputs, isUuid);
  reportDuplicateIds(sink, scope, index, repeats);
  if (isList) checkListParents(sink, scope, index);
  checkDependencyGraph(sink, scope, index);
  checkUserIds(sink, scope, isList);
  return index;
}

/**
 * `isUuidV4`, remembered per task id of the scope: a map lookup costs a fraction of the pattern,
 * which was the largest cost of a check (one id, one parent_id and ~1.5 dependency ids per task).
 */
function uuidTestOnce(n: number, index: ReadonlyMap<string, number>): UuidTest {
  const verdicts = new Uint8Array(n); // 0 not tested yet, 1 a UUID v4, 2 not
  return (id) => {
    const i = index.get(id);
    if (i === undefined) return isUuidV4(id);
    let verdict = verdicts[i]!;
    if (verdict === 0) verdicts[i] = verdict = isUuidV4(id) ? 1 : 2;
    return verdict === 1;
  };
}
