import type { Task, TaskTreeNode } from "../validate.js";

/**
 * The tasks of a tree in input order (depth-first pre-order: a node, then its children in array
 * order), without recursion. The tasks are the tree's own objects, not copies.
 */
export function taskTreeToList(node: TaskTreeNode): Task[] {
  const out: Task[] = [];
  const stack: TaskTreeNode[] = [node];
  while (stack.length > 0) {
    const next = stack.pop()!;
    out.push(next.task);
    const children = next.children ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return out;
}

/** The parent index of each task of a list (-1 for the root); throws unless it forms one tree. */
export function parentIndexes(tasks: readonly Task[]): Int32Array {
  const index = new Map<string, number>();
  tasks.forEach((task, i) => {
    if (index.has(task.id)) throw new Error(`duplicate task id ${JSON.stringify(task.id)} at /${i}`);
    index.set(task.id, i);
  });
  const parents = new Int32Array(tasks.length).fill(-1);
  let roots = 0;
  tasks.forEach((task, i) => {
    if (task.parent_id === undefined || task.parent_id === null) {
      roots++;
      return;
    }
    const parent = index.get(task.parent_id);
    if (parent === undefined) throw new Error(`/${i}/parent_id ${JSON.stringify(task.parent_id)} names no task in the list`);
    parents[i] = parent;
  });
  if (roots !== 1) throw new Error(`a task list needs exactly one root (a null parent_id); this one has ${roots}`);
  return parents;
}

/**
 * Builds the TaskTreeNode of a flat list: the root is the task with a null parent_id, children
 * keep list order, and every node carries `children` (`[]` for leaves). Tasks are not copied.
 * Throws on duplicate ids, several or no roots, or a parent_id that names no task; a parent loop
 * leaves tasks unreachable and throws too.
 */
export function taskListToTree(tasks: readonly Task[]): TaskTreeNode {
  return treeFromParents(tasks, parentIndexes(tasks));
}

export function treeFromParents(tasks: readonly Task[], parents: Int32Array): TaskTreeNode {
  const nodes: TaskTreeNode[] = tasks.map((task) => ({ task, children: [] }));
  let root: TaskTreeNode | undefined;
  nodes.forEach((node, i) => {
    const parent = parents[i]!;
    if (parent < 0) root = node;
    else nodes[parent]!.children!.push(node);
  });
  if (!root) throw new Error("the task list has no root");
  const reached = taskTreeToList(root).length;
  if (reached !== tasks.length) throw new Error(`${tasks.length - reached} task(s) are not reachable from the root (a parent_id loop)`);
  return root;
}
