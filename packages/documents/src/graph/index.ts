/**
 * Pictures of documents: one graph model, built from a StepFlow flow, an agents.json document or an
 * apflow task tree, and rendered as Mermaid, Graphviz DOT or SVG (laid out here, in TypeScript).
 * Depends on no protocol package: `@flowspec/documents/graph` is this module alone.
 */
import { agentsJsonGraph } from "./agents-json.js";
import { apflowGraph } from "./apflow.js";
import type { Graph } from "./model.js";
import { stepflowGraph } from "./stepflow.js";

export { agentsJsonGraph, apflowGraph, stepflowGraph };
export { GraphInputError, COLOURS, type Graph, type GraphCluster, type GraphEdge, type GraphNode } from "./model.js";
export { toMermaid } from "./mermaid.js";
export { toDot } from "./dot.js";
export { toSvg } from "./svg.js";
export { layoutGraph, type Layout, type LayoutCluster, type LayoutEdge, type LayoutNode, type LayoutTrunk, type Point } from "./layout.js";

const DRAWERS: Record<string, (doc: unknown, flowId?: string) => Graph> = {
  "stepflow:Flow": stepflowGraph,
  "agents-json:AgentsJson": agentsJsonGraph,
  "apflow:TaskTreeNode": apflowGraph,
};

/** The document kinds (`spec:Root`, as `detectKind` names them) that `documentGraph` draws. */
export const DRAWABLE_KINDS: readonly string[] = Object.keys(DRAWERS);

/**
 * The graph of a document of `kind`. `flow` picks one flow of an agents.json document. Throws
 * `GraphInputError` (with a JSON Pointer) for a document that cannot be drawn, and a `TypeError`
 * for a kind it does not draw or a `flow` given for another kind.
 */
export function documentGraph(kind: string, value: unknown, options: { flow?: string } = {}): Graph {
  const draw = DRAWERS[kind];
  if (!draw) throw new TypeError(`cannot draw a ${kind} document; documentGraph draws ${DRAWABLE_KINDS.join(", ")}`);
  if (options.flow !== undefined && kind !== "agents-json:AgentsJson") throw new TypeError("the flow option only applies to agents.json documents");
  return draw(value, options.flow);
}
