import { importPeer } from "../optional.js";
import type { Graph, GraphEdge, GraphNode } from "./model.js";

const COLOURS: Record<GraphEdge["tone"], string> = { data: "#333333", skip: "#d35400", error: "#c0392b", muted: "#999999" };

/** Mermaid `flowchart` text (GitHub renders it in Markdown). Node ids are renamed n0, n1... to stay valid. */
export function toMermaid(graph: Graph): string {
  const ids = new Map(graph.nodes.map((node, i) => [node.id, `n${i}`]));
  const text = (value: string) => value.replace(/"/g, "#quot;").replace(/</g, "#lt;").replace(/>/g, "#gt;");
  const label = (node: GraphNode) => `"${node.label.map(text).join("<br/>")}"`;
  const shape = (node: GraphNode) => (node.tone === "io" ? `([${label(node)}])` : node.tone === "missing" ? `{{${label(node)}}}` : `[${label(node)}]`);
  const lines = [`---`, `title: ${graph.title.replace(/\n/g, " ")}`, `---`, `flowchart ${graph.direction}`];
  const clustered = new Set(graph.clusters.flatMap((c) => c.nodes));
  graph.clusters.forEach((cluster, i) => {
    lines.push(`  subgraph c${i}["${text(cluster.label)}"]`);
    for (const id of cluster.nodes) {
      const node = graph.nodes.find((n) => n.id === id);
      if (node) lines.push(`    ${ids.get(id)}${shape(node)}`);
    }
    lines.push("  end");
  });
  for (const node of graph.nodes) if (!clustered.has(node.id)) lines.push(`  ${ids.get(node.id)}${shape(node)}`);
  const styles: string[] = [];
  graph.edges.forEach((edge, i) => {
    const arrow = edge.style === "solid" ? "-->" : "-.->";
    lines.push(`  ${ids.get(edge.from)} ${arrow}${edge.label ? `|"${text(edge.label)}"|` : ""} ${ids.get(edge.to)}`);
    const css = [`stroke:${COLOURS[edge.tone]}`, ...(edge.style === "dashed" ? ["stroke-dasharray:8 4"] : [])];
    if (edge.tone !== "data" || edge.style === "dashed") styles.push(`  linkStyle ${i} ${css.join(",")}`);
  });
  for (const style of styles) lines.push(style);
  const missing = graph.nodes.filter((n) => n.tone === "missing").map((n) => ids.get(n.id));
  if (missing.length > 0) lines.push("  classDef missing fill:#fdecea,stroke:#c0392b,color:#c0392b", `  class ${missing.join(",")} missing`);
  return lines.join("\n") + "\n";
}

/** Graphviz DOT text. */
export function toDot(graph: Graph): string {
  const quote = (value: string) => `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
  const nodeLine = (node: GraphNode) => {
    const attrs = [`label=${quote(node.label.join("\n"))}`];
    if (node.tone === "io") attrs.push("shape=ellipse", 'style="filled"', 'fillcolor="#eef5ff"');
    if (node.tone === "missing") attrs.push("shape=hexagon", 'color="#c0392b"', 'fontcolor="#c0392b"');
    return `${quote(node.id)} [${attrs.join(", ")}];`;
  };
  const lines = [
    `digraph ${quote(graph.title)} {`,
    `  rankdir=${graph.direction};`,
    `  label=${quote(graph.title)}; labelloc=t; fontname="Helvetica";`,
    '  node [shape=box, style="rounded", fontname="Helvetica", fontsize=11, margin="0.25,0.08"];',
    '  edge [fontname="Helvetica", fontsize=9];',
  ];
  const clustered = new Set(graph.clusters.flatMap((c) => c.nodes));
  graph.clusters.forEach((cluster, i) => {
    lines.push(`  subgraph cluster_${i} {`, `    label=${quote(cluster.label)}; style="rounded"; color="#bbbbbb";`);
    for (const id of cluster.nodes) {
      const node = graph.nodes.find((n) => n.id === id);
      if (node) lines.push(`    ${nodeLine(node)}`);
    }
    lines.push("  }");
  });
  for (const node of graph.nodes) if (!clustered.has(node.id)) lines.push(`  ${nodeLine(node)}`);
  for (const edge of graph.edges) {
    const attrs = [`color=${quote(COLOURS[edge.tone])}`, `fontcolor=${quote(COLOURS[edge.tone])}`];
    if (edge.label) attrs.unshift(`label=${quote(edge.label)}`);
    if (edge.style !== "solid") attrs.push(`style=${edge.style}`);
    lines.push(`  ${quote(edge.from)} -> ${quote(edge.to)} [${attrs.join(", ")}];`);
  }
  lines.push("}");
  return lines.join("\n") + "\n";
}

/**
 * SVG through Graphviz (compiled to WebAssembly by @viz-js/viz: no native binary, nothing
 * downloaded). An optional peer, loaded on first use: 5 MB of wasm that the other formats do not need.
 */
export async function toSvg(graph: Graph): Promise<string> {
  const { instance } = await importPeer("@viz-js/viz", "--format svg", () => import("@viz-js/viz"));
  const viz = await instance();
  const result = viz.render(toDot(graph), { format: "svg", engine: "dot" });
  if (result.status !== "success") {
    throw new Error(`Graphviz could not lay out the graph: ${result.errors.map((e) => e.message).join("; ")}`);
  }
  return result.output;
}
