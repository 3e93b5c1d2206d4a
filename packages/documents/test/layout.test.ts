import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseSourceDocument } from "@flowspec/runtime";
import { describe, expect, it } from "vitest";
import { documentGraph, layoutGraph, stepflowGraph, toSvg, type Graph, type Layout } from "@flowspec/documents/graph";
import { corpusDir, repoRoot, seededRandom } from "../../../test/support.js";

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (inner: Box, outer: Box) => inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
const onBorder = (p: { x: number; y: number }, b: Box) =>
  p.x >= b.x - 0.01 && p.x <= b.x + b.width + 0.01 && p.y >= b.y - 0.01 && p.y <= b.y + b.height + 0.01 && (Math.abs(p.y - b.y) < 0.01 || Math.abs(p.y - b.y - b.height) < 0.01 || Math.abs(p.x - b.x) < 0.01 || Math.abs(p.x - b.x - b.width) < 0.01);

/** What makes a layout readable and correct, whatever the document. */
function expectSound(graph: Graph, layout: Layout) {
  const byId = new Map(layout.nodes.map((n) => [n.id, n]));
  layout.nodes.forEach((a, i) => layout.nodes.slice(i + 1).forEach((b) => expect(overlap(a, b), `${a.id} overlaps ${b.id}`).toBe(false)));
  layout.clusters.forEach((a, i) => layout.clusters.slice(i + 1).forEach((b) => expect(overlap(a, b), `cluster ${a.id} overlaps ${b.id}`).toBe(false)));
  graph.clusters.forEach((cluster, c) => cluster.nodes.forEach((id) => expect(inside(byId.get(id)!, layout.clusters[c]!), `${id} in ${cluster.id}`).toBe(true)));
  for (const { edge, paths, loop } of layout.edges) {
    if (loop) continue;
    // Each edge leaves its source's border and ends on its target's border.
    expect(onBorder(paths[0]![0]!, byId.get(edge.from)!), `${edge.from} -> ${edge.to} starts on ${edge.from}`).toBe(true);
    expect(onBorder(paths.at(-1)!.at(-1)!, byId.get(edge.to)!), `${edge.from} -> ${edge.to} ends on ${edge.to}`).toBe(true);
  }
  for (const box of [...layout.nodes, ...layout.clusters]) expect(inside(box, { x: 0, y: 0, width: layout.width, height: layout.height })).toBe(true);
}

const read = (file: string) => parseSourceDocument(readFileSync(file, "utf8"), { file }).value;
const stepflowCorpus = corpusDir("stepflow");
const agentsCorpus = corpusDir("agents-json");
const documents: [string, string, unknown][] = [
  ...(readdirSync(stepflowCorpus, { recursive: true }) as string[])
    .filter((p) => /\.ya?ml$/.test(p) && !/stepflow[-_]config/.test(p))
    .map((p): [string, string, unknown] => [`stepflow ${p}`, "stepflow:Flow", read(join(stepflowCorpus, p))]),
  ...readdirSync(agentsCorpus)
    .filter((p) => p.endsWith("__agents.json"))
    .map((p): [string, string, unknown] => [`agents-json ${p}`, "agents-json:AgentsJson", read(join(agentsCorpus, p))]),
  ["the example task tree", "apflow:TaskTreeNode", read(join(repoRoot, "examples/documents/weather-report.tree.json"))],
  ["the CLI's task tree", "apflow:TaskTreeNode", read(join(repoRoot, "packages/cli/docs/graph/apflow-tree.json"))],
];

describe("layoutGraph", () => {
  it.each(documents)("%s: no overlaps, nodes in their clusters, edges from border to border", (_name, kind, value) => {
    const graph = documentGraph(kind, value);
    expectSound(graph, layoutGraph(graph));
  });

  it("draws a cycle with every arrow pointing at its real target, and a self-loop beside its node", () => {
    const graph: Graph = {
      title: "cycle",
      direction: "TB",
      nodes: ["a", "b", "c"].map((id) => ({ id, label: [id], tone: "step" as const })),
      edges: [
        { from: "a", to: "b", style: "solid", tone: "data" },
        { from: "b", to: "c", style: "solid", tone: "data" },
        { from: "c", to: "a", label: "back", style: "dashed", tone: "skip" },
        { from: "b", to: "b", label: "self", style: "solid", tone: "data" },
      ],
      clusters: [],
      warnings: [],
    };
    const layout = layoutGraph(graph);
    expectSound(graph, layout);
    const loop = layout.edges.find((e) => e.loop)!;
    expect(loop.edge.to).toBe("b");
    expect(loop.paths[0]).toHaveLength(4);
  });

  it("stays linear in size for a few hundred steps that all read the input (one trunk, not a chain each)", () => {
    const random = seededRandom(7);
    for (const count of [100, 400]) {
      const steps = Array.from({ length: count }, (_, i) => ({
        id: `s${i}`,
        component: "/builtin/eval",
        input: { previous: i > 0 ? { $from: { step: `s${i - 1}` } } : null, text: { $from: { workflow: "input" }, path: "text" }, any: i > 2 ? { $from: { step: `s${random(i)}` } } : 1 },
      }));
      const graph = stepflowGraph({ steps, output: { $from: { step: `s${count - 1}` } } });
      const layout = layoutGraph(graph);
      const points = layout.edges.reduce((sum, e) => sum + e.paths.flat().length, 0) + layout.trunks.reduce((sum, t) => sum + t.points.length, 0);
      expect(points, `${count} steps`).toBeLessThan(40 * (graph.nodes.length + graph.edges.length));
      expect(layout.trunks.length).toBeGreaterThan(0);
    }
  });

  it("is deterministic", () => {
    const [, kind, value] = documents[0]!;
    expect(toSvg(documentGraph(kind, value))).toBe(toSvg(documentGraph(kind, value)));
  });
});

describe("toSvg", () => {
  const graph: Graph = {
    title: 'a <flow> & "quotes"',
    direction: "LR",
    nodes: [
      { id: "in", label: ["input"], tone: "io" },
      { id: "x", label: ["x & <y>", "line\u0001two"], tone: "step", pointer: "/steps/0" },
      { id: "ghost", label: ["ghost", "(no such step)"], tone: "missing" },
    ],
    edges: [
      { from: "in", to: "x", label: "a → b", style: "solid", tone: "data" },
      { from: "ghost", to: "x", style: "dotted", tone: "error" },
    ],
    clusters: [{ id: "c0", label: "flow f", nodes: ["in", "x"] }],
    warnings: [],
  };
  const svg = toSvg(graph);

  it("is one standalone SVG document with a group per node, edge and cluster", () => {
    expect(svg).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="\d+" height="\d+" viewBox="0 0 \d+ \d+"/);
    expect(svg.match(/<g class="node" /g)).toHaveLength(3);
    expect(svg.match(/<g class="edge" /g)).toHaveLength(2);
    expect(svg.match(/<g class="cluster" /g)).toHaveLength(1);
    expect(svg).toContain('<g class="node" data-id="x" data-tone="step" data-pointer="/steps/0">');
    expect(svg).toContain('<g class="edge" data-from="ghost" data-to="x">');
    expect(svg).toContain('stroke-dasharray="2 3" marker-end="url(#flowspec-arrow-error)"');
    expect(svg).toContain("<polygon ");
  });

  it("escapes text and replaces characters XML does not allow", () => {
    expect(svg).toContain("<title>a &lt;flow&gt; &amp; &quot;quotes&quot;</title>");
    expect(svg).toContain(">x &amp; &lt;y&gt;</text>");
    expect(svg).toContain(">line\ufffdtwo</text>");
    expect(svg).not.toMatch(/[\u0000-\u0008]/);
  });

  it("uses presentation attributes only, so a page with a strict CSP can show it inline", () => {
    expect(svg).not.toMatch(/\bstyle=|<style|<script|\bon\w+=/);
  });
});
