import { graphBuilder, GraphInputError, isObject, type Graph } from "./model.js";

/**
 * An apflow task tree: a box per task (name and status), dotted grey arrows from parent to child,
 * and an arrow from each dependency to its dependent: solid when required (the default), dashed
 * when `required: false` (the dependent runs whatever the dependency's outcome).
 */
export function apflowGraph(doc: unknown): Graph {
  if (!isObject(doc) || !isObject(doc.task)) throw new GraphInputError("/task", "an apflow task tree node needs a task object");
  const rootName = typeof doc.task.name === "string" ? doc.task.name : "tree";
  const g = graphBuilder(`apflow task tree ${rootName}`, "TB");
  const tasks: { task: Record<string, unknown>; pointer: string }[] = [];
  const visit = (node: unknown, pointer: string, parent?: string) => {
    if (!isObject(node) || !isObject(node.task)) throw new GraphInputError(`${pointer}/task`, "a task tree node needs a task object");
    const task = node.task;
    if (typeof task.id !== "string") throw new GraphInputError(`${pointer}/task/id`, "every task needs a string id");
    if (g.hasNode(`task:${task.id}`)) throw new GraphInputError(`${pointer}/task/id`, `task id "${task.id}" is used twice`);
    const label = [typeof task.name === "string" ? task.name : task.id, ...(typeof task.status === "string" ? [task.status] : [])];
    g.node({ id: `task:${task.id}`, label, tone: "step", pointer: `${pointer}/task` });
    tasks.push({ task, pointer: `${pointer}/task` });
    if (parent) g.edge({ from: parent, to: `task:${task.id}`, style: "dotted", tone: "muted" });
    if (node.children !== undefined && !Array.isArray(node.children)) throw new GraphInputError(`${pointer}/children`, "children must be an array");
    (node.children ?? []).forEach((child: unknown, i: number) => visit(child, `${pointer}/children/${i}`, `task:${task.id}`));
  };
  visit(doc, "");
  for (const { task, pointer } of tasks) {
    (Array.isArray(task.dependencies) ? task.dependencies : []).forEach((dep, i) => {
      const at = `${pointer}/dependencies/${i}`;
      if (!isObject(dep) || typeof dep.id !== "string") throw new GraphInputError(`${at}/id`, "a dependency needs a string id");
      const from = `task:${dep.id}`;
      if (!g.hasNode(from)) {
        g.node({ id: from, label: [dep.id, "(not in this tree)"], tone: "missing" });
        g.warn(`${at}/id`, `depends on task "${dep.id}", which is not in this tree`);
      }
      const required = dep.required !== false;
      g.edge({ from, to: `task:${task.id as string}`, label: required ? "requires" : "optional", style: required ? "solid" : "dashed", tone: "data" });
    });
  }
  return g.graph;
}
