import type { IssueSink } from "./issue.js";
import { idOf, type TaskScope } from "./graph.js";
import { isObject } from "./task.js";
import { CHILD_INDEX, PARENT_SLOT, PARENTS, TASK_NODE, TASK_SLOT, type Scratch } from "./scratch.js";

/**
 * Walks a TaskTreeNode without recursion (depth is unbounded), checking each node's own shape
 * (`{task, children?}`, nothing else, as the TaskTreeNode schema says) and the tree rules
 * `root-parent` and `parent-mismatch`. Returns the tasks in pre-order: node, then its children.
 * The integer lists live in `scratch`; the returned `parents` is a copy of its own only when
 * `keepParents` (a run keeps it), else a view that the next check overwrites.
 */
export function walkTree(sink: IssueSink, root: unknown, scratch: Scratch, keepParents: boolean): TaskScope {
  const tasks: unknown[] = [];
  // Per visited node: its parent node's slot and its index among the parent's children. The
  // integer lists keep their items outside the JS heap: as arrays, growing them to every node of
  // a large tree was a good part of the garbage of a check, and of a run.
  const parentSlot = new IntList(scratch, PARENT_SLOT);
  const childIndex = new IntList(scratch, CHILD_INDEX);
  const taskSlot = new IntList(scratch, TASK_SLOT); // node slot → task index, or -1 when the node has no task
  const nodePointers = new Map<number, string>();
  const nodePointer = (slot: number): string => {
    const chain: number[] = [];
    let at = slot;
    while (at > 0 && !nodePointers.has(at)) {
      chain.push(at);
      at = parentSlot.items[at]!;
    }
    let pointer = at > 0 ? nodePointers.get(at)! : "";
    for (let j = chain.length - 1; j >= 0; j--) {
      const s = chain[j]!;
      pointer += `/children/${childIndex.items[s]}`;
      nodePointers.set(s, pointer);
    }
    return pointer;
  };
  const taskNode = new IntList(scratch, TASK_NODE);
  const parents = new IntList(scratch, PARENTS);
  const walkedIds = { index: new Map<string, number>(), count: 0 };
  const pointer = (i: number) => `${nodePointer(taskNode.items[i]!)}/task`;

  // Node objects with children seen so far, each with its first slot: a JS object can contain
  // itself, and a walk down such a tree would never end. Only a repeated node is looked for among
  // its ancestors.
  const seen = new Map<object, number>();
  const slotNode: unknown[] = [];
  // The nodes still to visit, each with its parent's slot and its index among the parent's
  // children, as three parallel stacks (an object per entry was garbage for every node).
  const stackNode: unknown[] = [root];
  const stackParent: number[] = [-1];
  const stackIndex: number[] = [0];
  while (stackNode.length > 0) {
    const node = stackNode.pop();
    const parent = stackParent.pop()!;
    const index = stackIndex.pop()!;
    const slot = parentSlot.length;
    parentSlot.push(parent);
    childIndex.push(index);
    taskSlot.push(-1);
    slotNode.push(node);
    if (!isObject(node)) {
      sink.error("schema", nodePointer(slot), "must be an object (a TaskTreeNode)", { keyword: "type", params: { type: "object" } });
      continue;
    }
    const children = node.children;
    // Only a node with children can lead back to itself, so leaves (most nodes) are not recorded.
    const first = Array.isArray(children) && children.length > 0 ? seen.get(node) : -1;
    if (first === undefined) seen.set(node, slot);
    else if (first >= 0 && isAncestor(parentSlot, slotNode, parent, node)) {
      sink.error("schema", nodePointer(slot), `this node contains itself: it is the node at ${nodePointer(first) || "/"} (a TaskTreeNode must be a tree)`, {
        keyword: "type",
        params: { type: "object" },
      });
      continue;
    }
    for (const key in node) {
      if (key !== "task" && key !== "children") {
        sink.error("schema", `${nodePointer(slot)}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`, `unexpected property "${key}" (not allowed here)`, {
          keyword: "additionalProperties",
          params: { additionalProperty: key },
        });
      }
    }
    if (!("task" in node)) {
      sink.error("schema", `${nodePointer(slot)}/task`, 'missing required property "task"', { keyword: "required", params: { missingProperty: "task" } });
    } else {
      const id = idOf(node.task);
      if (id !== undefined) {
        walkedIds.index.set(id, tasks.length);
        walkedIds.count++;
      }
      const at = tasks.length;
      const parentTask = parent < 0 ? -1 : taskSlot.items[parent]!;
      taskSlot.items[slot] = at;
      taskNode.push(slot);
      parents.push(parentTask);
      tasks.push(node.task);
      checkParentLink(sink, node.task, parentTask < 0 ? undefined : tasks[parentTask], parent < 0, pointer, at);
    }
    if (children === undefined) continue;
    if (!Array.isArray(children)) {
      sink.error("schema", `${nodePointer(slot)}/children`, "must be an array", { keyword: "type", params: { type: "array" } });
      continue;
    }
    for (let i = children.length - 1; i >= 0; i--) {
      stackNode.push(children[i]);
      stackParent.push(slot);
      stackIndex.push(i);
    }
  }
  const parentIndexes = keepParents ? parents.items.slice(0, parents.length) : parents.items.subarray(0, parents.length);
  return { kind: "tree", tasks, pointer, parents: parentIndexes, walkedIds };
}

/**
 * A list of int32s in one slot of the scratch space, grown by doubling (the grown array is kept
 * there for the next check); `items[0, length)` are the values.
 */
class IntList {
  items: Int32Array;
  length = 0;
  constructor(
    private readonly scratch: Scratch,
    private readonly slot: number,
  ) {
    this.items = scratch.int(slot, 64);
  }
  push(value: number): void {
    if (this.length === this.items.length) {
      const grown = new Int32Array(this.length * 2);
      grown.set(this.items);
      this.items = grown;
      this.scratch.keepInt(this.slot, grown);
    }
    this.items[this.length++] = value;
  }
}

/** Whether `node` is the node at slot `from` or one of its ancestors. */
function isAncestor(parentSlot: IntList, slotNode: readonly unknown[], from: number, node: object): boolean {
  for (let at = from; at >= 0; at = parentSlot.items[at]!) if (slotNode[at] === node) return true;
  return false;
}

/** `root-parent` and `parent-mismatch` for the task at index `at` of the scope. */
function checkParentLink(sink: IssueSink, task: unknown, parentTask: unknown, isRoot: boolean, pointer: (i: number) => string, at: number): void {
  if (!isObject(task)) return;
  const parentId = task.parent_id;
  if (isRoot) {
    if (parentId !== undefined && parentId !== null) {
      sink.error("root-parent", `${pointer(at)}/parent_id`, `the root task's parent_id must be null, not ${JSON.stringify(parentId)}`, withTaskId(task));
    }
    return;
  }
  const expected = isObject(parentTask) && typeof parentTask.id === "string" ? parentTask.id : undefined;
  if (expected === undefined) return; // the enclosing task has no usable id; its own issues say so
  if (parentId !== expected) {
    const what = parentId === undefined || parentId === null ? "is missing" : `is ${JSON.stringify(parentId)}`;
    sink.error("parent-mismatch", `${pointer(at)}/parent_id`, `parent_id ${what}; the enclosing node's task id is ${JSON.stringify(expected)}`, withTaskId(task));
  }
}

function withTaskId(task: Record<string, unknown>): { taskId: string } | undefined {
  return typeof task.id === "string" ? { taskId: task.id } : undefined;
}
