import { isErrorInstance } from "@flowspec/runtime";

/** A drawing of a document: boxes, arrows and groups, independent of the output format. */
export interface Graph {
  title: string;
  direction: "TB" | "LR";
  nodes: GraphNode[];
  edges: GraphEdge[];
  clusters: GraphCluster[];
  /** Things drawn but wrong (a reference to a missing step...), with the JSON Pointer of the cause. */
  warnings: { pointer: string; message: string }[];
}

export interface GraphNode {
  id: string;
  /** Lines of the label. */
  label: string[];
  /** `io`: a document's input or output; `missing`: referenced but not defined. */
  tone: "step" | "io" | "missing";
  /** The JSON Pointer of what the node stands for (a step, an action, a task), when it is in the document. */
  pointer?: string;
}

export interface GraphEdge {
  from: string;
  to: string;
  label?: string;
  style: "solid" | "dashed" | "dotted";
  /** `skip`: taken only when something is skipped; `error`: only on a failure; `muted`: structure, not data. */
  tone: "data" | "skip" | "error" | "muted";
}

export interface GraphCluster {
  id: string;
  label: string;
  nodes: string[];
}

/** The colour of each edge tone, shared by every output format. */
export const COLOURS: Record<GraphEdge["tone"], string> = { data: "#333333", skip: "#d35400", error: "#c0392b", muted: "#999999" };

/** Bad input that stops a drawing: where (JSON Pointer) and what. */
export class GraphInputError extends Error {
  static readonly "~brand": string = "@flowspec/documents:GraphInputError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "GraphInputError";
  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(message);
  }
}

/** Collects nodes and edges, ignoring repeats, so builders can add what they meet. */
export function graphBuilder(title: string, direction: Graph["direction"]) {
  const graph: Graph = { title, direction, nodes: [], edges: [], clusters: [], warnings: [] };
  const nodeIds = new Set<string>();
  const edgeKeys = new Set<string>();
  return {
    graph,
    hasNode: (id: string) => nodeIds.has(id),
    node(node: GraphNode) {
      if (nodeIds.has(node.id)) return;
      nodeIds.add(node.id);
      graph.nodes.push(node);
    },
    edge(edge: GraphEdge) {
      const key = JSON.stringify([edge.from, edge.to, edge.label ?? "", edge.style, edge.tone]);
      if (edgeKeys.has(key)) return;
      edgeKeys.add(key);
      graph.edges.push(edge);
    },
    warn(pointer: string, message: string) {
      graph.warnings.push({ pointer, message });
    },
  };
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** JSON Pointer token escaping (RFC 6901). */
export const token = (key: string | number) => String(key).replace(/~/g, "~0").replace(/\//g, "~1");
