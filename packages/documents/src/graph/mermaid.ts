import { COLOURS, type Graph, type GraphNode } from "./model.js";

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
  for (const style of styles) lines.push(style); // not push(...styles): one per edge, and a spread of many overflows the stack
  const missing = graph.nodes.filter((n) => n.tone === "missing").map((n) => ids.get(n.id));
  if (missing.length > 0) lines.push("  classDef missing fill:#fdecea,stroke:#c0392b,color:#c0392b", `  class ${missing.join(",")} missing`);
  return lines.join("\n") + "\n";
}
