import { layoutGraph, SIZES, type LayoutEdge, type Point } from "./layout.js";
import { COLOURS, type Graph, type GraphNode } from "./model.js";
import { FONT_FAMILY } from "./text.js";

const SHAPES: Record<GraphNode["tone"], { fill: string; stroke: string; text: string }> = {
  step: { fill: "#ffffff", stroke: "#555555", text: "#222222" },
  io: { fill: "#eef5ff", stroke: "#5b7db1", text: "#222222" },
  missing: { fill: "#fdecea", stroke: "#c0392b", text: "#c0392b" },
};
const DASHES: Record<string, string> = { dashed: "6 4", dotted: "2 3" };

/**
 * A standalone SVG picture of a graph, laid out by `layoutGraph`: no Graphviz, no WebAssembly, no
 * DOM. It uses presentation attributes only (no `style`), so it can be put inline in a page whose
 * Content-Security-Policy forbids inline styles. Nodes, edges and clusters are `<g>` elements
 * with `class` and `data-*` attributes (`data-id`, `data-pointer`, `data-from`, `data-to`).
 */
export function toSvg(graph: Graph): string {
  const layout = layoutGraph(graph);
  const tones = [...new Set(graph.edges.map((edge) => edge.tone))];
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${layout.width}" height="${layout.height}" viewBox="0 0 ${layout.width} ${layout.height}" font-family="${xml(FONT_FAMILY)}" font-size="${SIZES.font}" role="img" aria-label="${xml(graph.title)}">`,
    `<title>${xml(graph.title)}</title>`,
    "<defs>",
    ...tones.map(
      (tone) =>
        `<marker id="flowspec-arrow-${tone}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="${COLOURS[tone]}"/></marker>`,
    ),
    "</defs>",
    `<rect width="${layout.width}" height="${layout.height}" fill="#ffffff"/>`,
    `<text x="${n(layout.title.x)}" y="${n(layout.title.y)}" font-size="${SIZES.titleFont}" fill="#222222">${xml(layout.title.text)}</text>`,
  ];
  for (const cluster of layout.clusters) {
    out.push(
      `<g class="cluster" data-id="${xml(cluster.id)}">`,
      `<rect x="${n(cluster.x)}" y="${n(cluster.y)}" width="${n(cluster.width)}" height="${n(cluster.height)}" rx="8" fill="#fafafa" stroke="#bbbbbb"/>`,
      `<text x="${n(cluster.x + 12)}" y="${n(cluster.y + 16)}" fill="#555555">${xml(cluster.label)}</text>`,
      "</g>",
    );
  }
  const tb = graph.direction === "TB";
  for (const trunk of layout.trunks) out.push(`<path class="trunk" d="${curve(trunk.points, tb)}" fill="none" stroke="${COLOURS[trunk.tone]}" stroke-width="1.2"${dash(trunk.style)}/>`);
  for (const edge of layout.edges) out.push(...edgeSvg(edge, tb));
  graph.nodes.forEach((node, i) => {
    const box = layout.nodes[i]!;
    const shape = SHAPES[node.tone];
    const paint = `fill="${shape.fill}" stroke="${shape.stroke}" stroke-width="1.2"`;
    const { x, y, width: w, height: h } = box;
    const outline =
      node.tone === "missing"
        ? `<polygon points="${[[x + h / 2, y], [x + w - h / 2, y], [x + w, y + h / 2], [x + w - h / 2, y + h], [x + h / 2, y + h], [x, y + h / 2]].map(([px, py]) => `${n(px!)},${n(py!)}`).join(" ")}" ${paint}/>`
        : `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" rx="${node.tone === "io" ? n(h / 2) : 6}" ${paint}/>`;
    out.push(`<g class="node" data-id="${xml(node.id)}" data-tone="${node.tone}"${node.pointer === undefined ? "" : ` data-pointer="${xml(node.pointer)}"`}>`, outline);
    node.label.forEach((line, k) => {
      const baseline = y + SIZES.padY + SIZES.line * k + SIZES.font;
      // The first line names the node; the others (component, status, …) are quieter.
      out.push(`<text x="${n(x + w / 2)}" y="${n(baseline)}" text-anchor="middle" fill="${k === 0 ? shape.text : "#666666"}">${xml(line)}</text>`);
    });
    out.push("</g>");
  });
  out.push("</svg>");
  return out.join("\n") + "\n";
}

function edgeSvg({ edge, paths, loop, label }: LayoutEdge, tb: boolean): string[] {
  const colour = COLOURS[edge.tone];
  const d = loop ? `M${pair(paths[0]![0]!)}C${paths[0]!.slice(1).map(pair).join(" ")}` : paths.map((path) => curve(path, tb)).join("");
  return [
    `<g class="edge" data-from="${xml(edge.from)}" data-to="${xml(edge.to)}">`,
    `<path d="${d}" fill="none" stroke="${colour}" stroke-width="1.2"${dash(edge.style)} marker-end="url(#flowspec-arrow-${edge.tone})"/>`,
    ...(label && edge.label ? [`<text x="${n(label.x)}" y="${n(label.y)}" text-anchor="${label.anchor}" font-size="${SIZES.edgeFont}" fill="${colour}">${xml(edge.label)}</text>`] : []),
    "</g>",
  ];
}

/** A path through `points`: curves that leave and enter along the rank axis, so runs of dummies join smoothly. */
function curve(points: Point[], tb: boolean): string {
  let d = `M${pair(points[0]!)}`;
  for (let k = 1; k < points.length; k++) {
    const [a, b] = [points[k - 1]!, points[k]!];
    const mid = tb ? (a.y + b.y) / 2 : (a.x + b.x) / 2;
    d += tb ? `C${n(a.x)},${n(mid)} ${n(b.x)},${n(mid)} ${pair(b)}` : `C${n(mid)},${n(a.y)} ${n(mid)},${n(b.y)} ${pair(b)}`;
  }
  return d;
}

const dash = (style: string) => (DASHES[style] ? ` stroke-dasharray="${DASHES[style]}"` : "");
const pair = (p: Point) => `${n(p.x)},${n(p.y)}`;

const n = (value: number) => String(Math.round(value * 10) / 10);

function xml(text: string): string {
  // Control characters are not allowed in XML at all: shown as U+FFFD rather than breaking the file.
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "\ufffd").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
