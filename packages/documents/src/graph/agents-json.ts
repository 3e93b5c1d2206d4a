import { graphBuilder, GraphInputError, isObject, type Graph } from "./model.js";

/**
 * An agents.json document: one group per flow (or only `flowId`), its actions (id, source and
 * operation) and an arrow per link, from the flow's input to its output. A link end with no
 * `actionId`, `null` or the flow's own id is the flow itself (protocol notes §1).
 */
export function agentsJsonGraph(doc: unknown, flowId?: string): Graph {
  if (!isObject(doc) || !Array.isArray(doc.flows)) throw new GraphInputError("/flows", "an agents.json document needs a flows array");
  const flows = doc.flows.map((flow, i) => {
    if (!isObject(flow) || typeof flow.id !== "string") throw new GraphInputError(`/flows/${i}/id`, "every flow needs a string id");
    return { flow, i };
  });
  const chosen = flowId === undefined ? flows : flows.filter(({ flow }) => flow.id === flowId);
  if (chosen.length === 0) {
    throw new GraphInputError("/flows", `no flow "${flowId}"; the flows are: ${flows.map(({ flow }) => flow.id).join(", ") || "(none)"}`);
  }
  const title = isObject(doc.info) && typeof doc.info.title === "string" ? doc.info.title : "agents.json";
  const g = graphBuilder(chosen.length === 1 ? `agents.json flow ${chosen[0]!.flow.id as string}` : `agents.json ${title}`, "LR");
  for (const { flow, i } of chosen) {
    const fid = flow.id as string;
    const prefix = `flow${i}`;
    const members: string[] = [];
    const add = (id: string, label: string[], tone: "step" | "io" | "missing", pointer?: string) => {
      g.node({ id, label, tone, ...(pointer === undefined ? {} : { pointer }) });
      if (!members.includes(id)) members.push(id);
      return id;
    };
    // The flow's own ends are drawn only when a link uses them.
    const input = () => add(`${prefix}:input`, [`${fid} input`], "io");
    const actions = new Set<string>();
    (Array.isArray(flow.actions) ? flow.actions : []).forEach((action, j) => {
      if (!isObject(action) || typeof action.id !== "string") throw new GraphInputError(`/flows/${i}/actions/${j}/id`, "every action needs a string id");
      actions.add(action.id);
      const operation = [action.sourceId, action.operationId].filter((v) => typeof v === "string").join(": ");
      add(`${prefix}:action:${action.id}`, [action.id, ...(operation ? [operation] : [])], "step", `/flows/${i}/actions/${j}`);
    });
    const output = () => add(`${prefix}:output`, [`${fid} output`], "io");
    const end = (value: unknown, pointer: string, flowEnd: () => string): string => {
      if (value === undefined || value === null || value === fid) return flowEnd();
      if (typeof value !== "string") throw new GraphInputError(pointer, "actionId must be a string or null");
      if (!actions.has(value)) {
        g.warn(pointer, `names action "${value}", which flow "${fid}" does not define`);
        return add(`${prefix}:action:${value}`, [value, "(no such action)"], "missing");
      }
      return `${prefix}:action:${value}`;
    };
    (Array.isArray(flow.links) ? flow.links : []).forEach((link, j) => {
      const at = `/flows/${i}/links/${j}`;
      if (!isObject(link) || !isObject(link.origin) || !isObject(link.target)) throw new GraphInputError(at, "a link needs an origin and a target object");
      const from = end(link.origin.actionId, `${at}/origin/actionId`, input);
      const to = end(link.target.actionId, `${at}/target/actionId`, output);
      const label = [link.origin.fieldPath, link.target.fieldPath].map((p) => (typeof p === "string" ? p : "?")).join(" → ");
      g.edge({ from, to, label, style: "solid", tone: "data" });
    });
    g.graph.clusters.push({ id: prefix, label: `flow ${fid}`, nodes: members });
  }
  return g.graph;
}
