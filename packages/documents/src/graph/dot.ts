import { COLOURS, type Graph, type GraphNode } from "./model.js";

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
