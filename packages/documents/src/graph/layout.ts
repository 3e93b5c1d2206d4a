import type { Graph, GraphEdge } from "./model.js";
import { textWidth } from "./text.js";

/**
 * A layered drawing (Sugiyama's method, kept small): cycles broken by reversing DFS back edges,
 * longest-path ranks, a dummy vertex wherever an edge crosses a rank (the first one holds the
 * edge's label, so labels get room of their own), barycentre ordering with clusters kept
 * together, and positions that follow each vertex's neighbours without overlapping. Clusters get
 * bands of their own, so their boxes never overlap. All coordinates are pixels, origin top left.
 */
export interface Layout {
  width: number;
  height: number;
  title: { text: string; x: number; y: number };
  nodes: LayoutNode[];
  edges: LayoutEdge[];
  trunks: LayoutTrunk[];
  clusters: LayoutCluster[];
}

export interface LayoutNode {
  id: string;
  /** Top left corner. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LayoutEdge {
  edge: GraphEdge;
  /**
   * The points the edge passes, from its source to its target, consecutive points joined by a
   * curve: one run, or two for an edge that shares a trunk (to it, and from it to the target).
   */
  paths: Point[][];
  /** A self-loop: its one path is a cubic curve's start, two control points and end. */
  loop: boolean;
  label?: { x: number; y: number; anchor: "start" | "middle" };
}

/** The shared middle of long edges that leave one node with the same look (drawn once, under them). */
export interface LayoutTrunk {
  style: GraphEdge["style"];
  tone: GraphEdge["tone"];
  points: Point[];
}

export interface Point {
  x: number;
  y: number;
}

export interface LayoutCluster {
  id: string;
  label: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Sizes in pixels, shared with the SVG renderer. */
export const SIZES = { font: 12, line: 15, edgeFont: 10, edgeLine: 12, titleFont: 14, padX: 10, padY: 6, margin: 16 } as const;

const NODE_GAP = 24;
const DUMMY_GAP = 10;
const RANK_GAP = 14;
const CLUSTER_PAD = 12;
const CLUSTER_LABEL = 18;
const BAND_GAP = 16;
const TITLE = 30;
const ORDER_PASSES = 12;
const POSITION_PASSES = 8;

interface Vertex {
  /** Index into graph.nodes, or -1 for a dummy. */
  node: number;
  rank: number;
  /** Cluster index, or -1 outside any cluster. */
  group: number;
  /** Size along the order axis and across it (along the rank axis). */
  along: number;
  across: number;
  /** Set on the dummy holding an edge's label. */
  labelWidth?: number;
  /** Where edges pass, from the centre on the order axis (beside the label on a label's dummy). */
  anchor: number;
  up: number[];
  down: number[];
  /** Position in its layer, and centre on the order axis. */
  order: number;
  o: number;
}

export function layoutGraph(graph: Graph): Layout {
  const tb = graph.direction === "TB";
  const index = new Map(graph.nodes.map((node, i) => [node.id, i]));
  const clusterOf = new Map<string, number>();
  graph.clusters.forEach((cluster, c) => cluster.nodes.forEach((id) => clusterOf.has(id) || clusterOf.set(id, c)));

  const vertices: Vertex[] = graph.nodes.map((node, i) => {
    const height = node.label.length * SIZES.line + 2 * SIZES.padY;
    // Rounded ends (io) and hexagon points (missing) need room beside the text.
    const width = Math.max(...node.label.map((line) => textWidth(line, SIZES.font)), 20) + 2 * SIZES.padX + (node.tone === "step" ? 0 : height / 2);
    return { node: i, rank: 0, group: clusterOf.get(node.id) ?? -1, along: tb ? width : height, across: tb ? height : width, anchor: 0, up: [], down: [], order: 0, o: 0 };
  });

  const edges = graph.edges.flatMap((edge) => {
    const u = index.get(edge.from);
    const v = index.get(edge.to);
    return u === undefined || v === undefined ? [] : [{ edge, u, v }];
  });
  const loops = edges.filter((e) => e.u === e.v);
  const links = edges.filter((e) => e.u !== e.v);
  const reversed = backEdges(graph.nodes.length, links);
  const oriented = links.map((e, i) => (reversed.has(i) ? { ...e, from: e.v, to: e.u, reversed: true } : { ...e, from: e.u, to: e.v, reversed: false }));
  assignRanks(vertices, graph, oriented);

  // Ranks doubled: the odd ranks between node ranks hold edge dummies, labels among them.
  for (const vertex of vertices) vertex.rank *= 2;
  const { routes, trunks } = routeEdges(vertices, oriented, tb, graph.nodes.length + graph.edges.length);

  const layers = orderLayers(vertices);
  placeAlongOrder(vertices, layers, graph, tb);
  const rankStart = placeAlongRanks(vertices, layers);
  return assemble(graph, tb, vertices, rankStart, routes, trunks, loops);
}

interface Oriented {
  edge: GraphEdge;
  /** Vertices in rank order: the edge's source and target, swapped when `reversed`. */
  from: number;
  to: number;
  reversed: boolean;
}

/** An edge's vertices: `head` from its source; with a trunk, `tail` from the trunk to its target. */
interface Route {
  edge: GraphEdge;
  reversed: boolean;
  head: number[];
  tail?: number[];
}

/**
 * Each edge as a chain of vertices, one per rank it crosses: its label's dummy on the first, then
 * plain dummies. Long edges that leave one node with one look share their plain dummies as a trunk,
 * so a node referenced by every step costs one trunk, not a chain each; each such edge keeps its
 * own head (to the trunk) and tail (from the trunk to its target). Past a budget linear in the
 * graph's size, the longest edges get no dummies and are drawn direct.
 */
function routeEdges(vertices: Vertex[], oriented: Oriented[], tb: boolean, size: number): { routes: Route[]; trunks: { edge: GraphEdge; vertices: number[] }[] } {
  const rank = (v: number) => vertices[v]!.rank;
  const dummy = (r: number, group: number, label?: string) => {
    const labelWidth = label === undefined ? undefined : textWidth(label, SIZES.edgeFont);
    const along = labelWidth === undefined ? 6 : tb ? labelWidth + 12 : SIZES.edgeLine + 6;
    const across = labelWidth === undefined ? 0 : tb ? SIZES.edgeLine : labelWidth + 8;
    // The edge passes by the label's side: its left when drawn top to bottom, its bottom left to right.
    const anchor = labelWidth === undefined ? 0 : tb ? 3 - along / 2 : along / 2 - 2;
    return vertices.push({ node: -1, rank: r, group, along, across, ...(labelWidth === undefined ? {} : { labelWidth }), anchor, up: [], down: [], order: 0, o: 0 }) - 1;
  };
  const links = new Set<string>();
  const link = (chain: number[]) => {
    for (let k = 1; k < chain.length; k++) {
      const key = `${chain[k - 1]}>${chain[k]}`;
      if (links.has(key)) continue;
      links.add(key);
      vertices[chain[k - 1]!]!.down.push(chain[k]!);
      vertices[chain[k]!]!.up.push(chain[k - 1]!);
    }
  };
  const span = (e: Oriented) => rank(e.to) - rank(e.from);
  const bundleKey = (e: Oriented) => `${e.from}:${e.edge.style}:${e.edge.tone}:${e.reversed}`;
  const counts = new Map<string, number>();
  for (const e of oriented) if (span(e) > 2) counts.set(bundleKey(e), (counts.get(bundleKey(e)) ?? 0) + 1);
  const trunkOf = new Map<string, { edge: GraphEdge; byRank: Map<number, number>; low: number; high: number }>();
  let budget = 1000 + 4 * size;
  const routes: Route[] = [];
  const order = oriented.map((_, i) => i).sort((a, b) => span(oriented[a]!) - span(oriented[b]!) || a - b);
  for (const i of order) {
    const e = oriented[i]!;
    const { edge, from, to, reversed } = e;
    const label = edge.label === undefined || edge.label === "" ? undefined : edge.label;
    const group = vertices[from]!.group === vertices[to]!.group ? vertices[from]!.group : -1;
    const first = rank(from) + 1;
    const last = rank(to) - 1;
    const key = bundleKey(e);
    if (span(e) > 2 && counts.get(key)! >= 2) {
      // A trunk covers one run of ranks: its edges all start at the same node.
      const trunk = trunkOf.get(key) ?? trunkOf.set(key, { edge, byRank: new Map(), low: Infinity, high: -Infinity }).get(key)!;
      const joins = label === undefined ? first : first + 1;
      const grows = trunk.low > trunk.high ? last - joins + 1 : Math.max(0, trunk.low - joins) + Math.max(0, last - trunk.high);
      const cost = grows + (label === undefined ? 0 : 1);
      if (cost <= budget) {
        budget -= cost;
        for (let r = joins; r <= last; r++) {
          if (r >= trunk.low && r <= trunk.high) r = trunk.high;
          else trunk.byRank.set(r, dummy(r, vertices[from]!.group));
        }
        trunk.low = Math.min(trunk.low, joins);
        trunk.high = Math.max(trunk.high, last);
        const head = [from, ...(label === undefined ? [] : [dummy(first, group, label)]), trunk.byRank.get(joins)!];
        const tail = [trunk.byRank.get(last)!, to];
        link(head);
        link(tail);
        routes[i] = { edge, reversed, head, tail };
        continue;
      }
    } else if (span(e) - 1 <= budget) {
      budget -= span(e) - 1;
      const head = [from];
      for (let r = first; r <= last; r++) head.push(dummy(r, group, r === first ? label : undefined));
      head.push(to);
      link(head);
      routes[i] = { edge, reversed, head };
      continue;
    }
    // Over the budget: drawn direct, and left out of the ordering.
    routes[i] = { edge, reversed, head: [from, to] };
  }
  const trunks = [...trunkOf.values()].filter(({ byRank }) => byRank.size > 0).map(({ edge, byRank }) => {
    const chain = [...byRank].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
    link(chain);
    return { edge, vertices: chain };
  });
  return { routes, trunks };
}

/** The edges a depth-first search meets as back edges: reversing them leaves no cycle. */
function backEdges(count: number, links: { u: number; v: number }[]): Set<number> {
  const out: number[][] = Array.from({ length: count }, () => []);
  links.forEach((link, i) => out[link.u]!.push(i));
  const state = new Uint8Array(count); // 0 unseen, 1 on the stack, 2 done
  const reversed = new Set<number>();
  for (let start = 0; start < count; start++) {
    if (state[start] !== 0) continue;
    const stack: [node: number, next: number][] = [[start, 0]];
    state[start] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const edge = out[top[0]]![top[1]++];
      if (edge === undefined) {
        state[top[0]] = 2;
        stack.pop();
        continue;
      }
      const next = links[edge]!.v;
      if (state[next] === 1) reversed.add(edge);
      else if (state[next] === 0) {
        state[next] = 1;
        stack.push([next, 0]);
      }
    }
  }
  return reversed;
}

/** Longest-path ranks; then sources (other than a document's input) move down next to their first successor. */
function assignRanks(vertices: Vertex[], graph: Graph, oriented: { from: number; to: number }[]): void {
  const count = graph.nodes.length;
  const out: number[][] = Array.from({ length: count }, () => []);
  const inDegree = new Array<number>(count).fill(0);
  for (const { from, to } of oriented) {
    out[from]!.push(to);
    inDegree[to]!++;
  }
  const queue = [...Array(count).keys()].filter((i) => inDegree[i] === 0);
  const remaining = [...inDegree];
  for (let head = 0; head < queue.length; head++) {
    const u = queue[head]!;
    for (const v of out[u]!) {
      vertices[v]!.rank = Math.max(vertices[v]!.rank, vertices[u]!.rank + 1);
      if (--remaining[v]! === 0) queue.push(v);
    }
  }
  for (let u = 0; u < count; u++) {
    if (inDegree[u] !== 0 || out[u]!.length === 0 || graph.nodes[u]!.tone === "io") continue;
    vertices[u]!.rank = extent(out[u]!.map((v) => vertices[v]!.rank))[0] - 1;
  }
}

/** Layers ordered by barycentres over several sweeps, keeping the order with the fewest crossings. */
function orderLayers(vertices: Vertex[]): number[][] {
  const layers: number[][] = [];
  // Initial order: depth-first from each vertex in input order, so that chains start together.
  const seen = new Uint8Array(vertices.length);
  const visit = (start: number) => {
    const stack = [start];
    while (stack.length > 0) {
      const v = stack.pop()!;
      if (seen[v]) continue;
      seen[v] = 1;
      (layers[vertices[v]!.rank] ??= []).push(v);
      for (let k = vertices[v]!.down.length - 1; k >= 0; k--) stack.push(vertices[v]!.down[k]!);
    }
  };
  vertices.forEach((_, v) => visit(v));
  for (let r = 0; r < layers.length; r++) layers[r] ??= [];
  const byGroup = (layer: number[], key: Float64Array) => layer.sort((a, b) => vertices[a]!.group - vertices[b]!.group || key[a]! - key[b]! || vertices[a]!.order - vertices[b]!.order);
  const number = (layer: number[]) => layer.forEach((v, i) => (vertices[v]!.order = i));
  const key = new Float64Array(vertices.length);
  layers.forEach((layer) => {
    layer.forEach((v, i) => (key[v] = i));
    number(byGroup(layer, key));
  });

  let best = layers.map((layer) => [...layer]);
  let fewest = crossings(vertices, layers);
  // Stops when there is nothing left to gain, or when four passes in a row gained nothing.
  for (let pass = 0, stale = 0; pass < ORDER_PASSES && fewest > 0 && stale < 4; pass++) {
    const down = pass % 2 === 0;
    for (let k = 0; k < layers.length; k++) {
      const r = down ? k : layers.length - 1 - k;
      const layer = layers[r]!;
      for (const v of layer) {
        const neighbours = down ? vertices[v]!.up : vertices[v]!.down;
        key[v] = neighbours.length === 0 ? vertices[v]!.order : neighbours.reduce((sum, n) => sum + vertices[n]!.order, 0) / neighbours.length;
      }
      number(byGroup(layer, key));
    }
    const count = crossings(vertices, layers);
    stale++;
    if (count < fewest) {
      fewest = count;
      stale = 0;
      best = layers.map((layer) => [...layer]);
    }
  }
  best.forEach(number);
  return best;
}

/** Edge crossings between consecutive layers, counted as inversions (a Fenwick tree per layer pair). */
function crossings(vertices: Vertex[], layers: number[][]): number {
  let total = 0;
  for (let r = 0; r + 1 < layers.length; r++) {
    const pairs: [number, number][] = [];
    for (const v of layers[r]!) for (const w of vertices[v]!.down) pairs.push([vertices[v]!.order, vertices[w]!.order]);
    pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const size = layers[r + 1]!.length;
    const tree = new Int32Array(size + 1);
    pairs.forEach(([, to], seen) => {
      let below = 0;
      for (let i = to + 1; i > 0; i -= i & -i) below += tree[i]!;
      total += seen - below;
      for (let i = to + 1; i <= size; i += i & -i) tree[i]!++;
    });
  }
  return total;
}

/**
 * Order-axis centres. Each group (a cluster, or the vertices outside clusters) is placed in a band
 * of its own; inside it, each vertex moves towards the mean of its neighbours' centres, with
 * overlaps resolved at the least total movement (isotonic regression on the layer).
 */
function placeAlongOrder(vertices: Vertex[], layers: number[][], graph: Graph, tb: boolean): void {
  const groups = [...new Set(vertices.map((v) => v.group))].sort((a, b) => a - b);
  let offset = 0;
  for (const group of groups) {
    const rows = layers.map((layer) => layer.filter((v) => vertices[v]!.group === group));
    const gap = (a: number, b: number) => (vertices[a]!.node >= 0 && vertices[b]!.node >= 0 ? NODE_GAP : DUMMY_GAP);
    for (const row of rows) {
      let at = 0;
      row.forEach((v, i) => {
        if (i > 0) at += (vertices[row[i - 1]!]!.along + vertices[v]!.along) / 2 + gap(row[i - 1]!, v);
        vertices[v]!.o = at;
      });
    }
    const inGroup = (n: number) => vertices[n]!.group === group;
    for (let pass = 0; pass < POSITION_PASSES; pass++) {
      const direction = pass === POSITION_PASSES - 1 ? "both" : pass % 2 === 0 ? "up" : "down";
      const order = direction === "down" ? [...rows].reverse() : rows;
      for (const row of order) {
        const desired = row.map((v) => {
          const vertex = vertices[v]!;
          const neighbours = (direction === "up" ? vertex.up : direction === "down" ? vertex.down : [...vertex.up, ...vertex.down]).filter(inGroup);
          if (neighbours.length === 0) return vertex.o;
          return neighbours.reduce((sum, n) => sum + vertices[n]!.o + vertices[n]!.anchor, 0) / neighbours.length - vertex.anchor;
        });
        // Dummies weigh more: long edges stay straight, and nodes move to them.
        const weights = row.map((v) => (vertices[v]!.node < 0 ? 2 : 1));
        const separations = row.slice(1).map((v, i) => (vertices[row[i]!]!.along + vertices[v]!.along) / 2 + gap(row[i]!, v));
        isotonic(desired, weights, separations).forEach((o, i) => (vertices[row[i]!]!.o = o));
      }
    }
    const members = rows.flat();
    if (members.length === 0) continue;
    const [left, right] = extent(members.flatMap((v) => [vertices[v]!.o - vertices[v]!.along / 2, vertices[v]!.o + vertices[v]!.along / 2]));
    // A cluster's band has room for its box, and its label (above the nodes when drawn top to bottom).
    const cluster = group >= 0 ? graph.clusters[group]! : undefined;
    const before = cluster ? CLUSTER_PAD + (tb ? 0 : CLUSTER_LABEL) : 0;
    const after = cluster ? CLUSTER_PAD : 0;
    const content = right - left;
    const inner = cluster && tb ? Math.max(content, textWidth(cluster.label, SIZES.font)) : content;
    for (const v of members) vertices[v]!.o += offset + before + (inner - content) / 2 - left;
    offset += before + inner + after + BAND_GAP;
  }
}

/** Positions x (in order) minimising Σ w (x − d)² with x[i+1] − x[i] ≥ s[i]: pool-adjacent-violators on x − cumulative s. */
function isotonic(desired: number[], weights: number[], separations: number[]): number[] {
  const offsets = [0];
  for (const s of separations) offsets.push(offsets[offsets.length - 1]! + s);
  const blocks: { weight: number; sum: number; count: number }[] = [];
  desired.forEach((d, i) => {
    let block = { weight: weights[i]!, sum: weights[i]! * (d - offsets[i]!), count: 1 };
    while (blocks.length > 0 && blocks[blocks.length - 1]!.sum / blocks[blocks.length - 1]!.weight > block.sum / block.weight) {
      const previous = blocks.pop()!;
      block = { weight: previous.weight + block.weight, sum: previous.sum + block.sum, count: previous.count + block.count };
    }
    blocks.push(block);
  });
  const out: number[] = [];
  for (const block of blocks) for (let k = 0; k < block.count; k++) out.push(block.sum / block.weight + offsets[out.length]!);
  return out;
}

/** Where each rank starts on the rank axis: each rank is as thick as its thickest vertex. */
function placeAlongRanks(vertices: Vertex[], layers: number[][]): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const layer of layers) {
    starts.push(at);
    at += Math.max(0, ...layer.map((v) => vertices[v]!.across)) + RANK_GAP;
  }
  starts.push(at);
  return starts;
}

/**
 * Where each route leaves its first node and enters its last, on the order axis: the edges at one
 * side of a node are spread along the middle of that side, in the order of where they go (edges
 * to one vertex share a port), so that they neither start in one point nor cross there.
 */
function spreadPorts(vertices: Vertex[], routes: Route[]): { start: number[]; end: number[] } {
  const start: number[] = [];
  const end: number[] = [];
  const sides = new Map<string, { route: number; towards: number; set: number[] }[]>();
  const add = (v: number, side: string, towards: number, route: number, set: number[]) => {
    const key = `${v}:${side}`;
    (sides.get(key) ?? sides.set(key, []).get(key)!).push({ route, towards, set });
  };
  routes.forEach(({ head, tail }, r) => {
    const last = tail ?? head;
    add(head[0]!, "out", head[1]!, r, start);
    add(last[last.length - 1]!, "in", last[last.length - 2]!, r, end);
  });
  for (const [key, list] of sides) {
    const vertex = vertices[Number(key.slice(0, key.indexOf(":")))]!;
    const place = (v: number) => vertices[v]!.o + vertices[v]!.anchor;
    const targets = [...new Set(list.map((p) => p.towards))].sort((a, b) => place(a) - place(b) || a - b);
    const span = Math.min(vertex.along * 0.6, 14 * (targets.length - 1));
    const port = new Map(targets.map((t, i) => [t, vertex.o + (targets.length === 1 ? 0 : -span / 2 + (span * i) / (targets.length - 1))]));
    for (const { route, towards, set } of list) set[route] = port.get(towards)!;
  }
  return { start, end };
}

function assemble(
  graph: Graph,
  tb: boolean,
  vertices: Vertex[],
  rankStart: number[],
  routes: Route[],
  trunkRoutes: { edge: GraphEdge; vertices: number[] }[],
  loops: { edge: GraphEdge; u: number }[],
): Layout {
  const thickness = (rank: number) => rankStart[rank + 1]! - rankStart[rank]! - RANK_GAP;
  const centre = (v: number) => rankStart[vertices[v]!.rank]! + thickness(vertices[v]!.rank) / 2;
  const at = (o: number, r: number): Point => (tb ? { x: o, y: r } : { x: r, y: o });
  const nodes: LayoutNode[] = graph.nodes.map((node, i) => {
    const v = vertices[i]!;
    const corner = at(v.o - v.along / 2, centre(i) - v.across / 2);
    return { id: node.id, ...corner, width: tb ? v.along : v.across, height: tb ? v.across : v.along };
  });

  const ports = spreadPorts(vertices, routes);
  // A run of vertices as points: a node at its port, a dummy straight through its rank (past the
  // label, and past the nodes beside a long edge).
  const run = (chain: number[], route: number, onLabel: (label: LayoutEdge["label"]) => void): Point[] => {
    const points: Point[] = [];
    chain.forEach((v, k) => {
      const vertex = vertices[v]!;
      if (vertex.node >= 0) {
        const leaving = k === 0;
        const port = route < 0 ? vertex.o : leaving ? ports.start[route]! : ports.end[route]!;
        points.push(at(port, centre(v) + (leaving ? vertex.across / 2 : -vertex.across / 2)));
        return;
      }
      const lineAt = vertex.o + vertex.anchor;
      const top = rankStart[vertex.rank]!;
      const bottom = top + thickness(vertex.rank);
      points.push(at(lineAt, top));
      if (bottom > top) points.push(at(lineAt, bottom));
      if (vertex.labelWidth !== undefined) {
        onLabel(tb ? { x: lineAt + 6, y: centre(v) + SIZES.edgeFont * 0.35, anchor: "start" } : { x: centre(v), y: lineAt - 4, anchor: "middle" });
      }
    });
    return points;
  };
  const edges: LayoutEdge[] = routes.map(({ edge, reversed, head, tail }, r) => {
    let label: LayoutEdge["label"];
    const paths = [run(head, r, (l) => (label = l)), ...(tail ? [run(tail, r, () => {})] : [])];
    // A reversed edge runs against the ranks: its paths, and the points in them, are turned round.
    if (reversed) paths.reverse().forEach((path) => path.reverse());
    return { edge, paths, loop: false, ...(label ? { label } : {}) };
  });
  const trunks: LayoutTrunk[] = trunkRoutes.map(({ edge, vertices: chain }) => ({ style: edge.style, tone: edge.tone, points: run(chain, -1, () => {}) }));
  for (const { edge, u } of loops) {
    const n = nodes[u]!;
    const points = tb
      ? [{ x: n.x + n.width, y: n.y + n.height * 0.3 }, { x: n.x + n.width + 36, y: n.y - 6 }, { x: n.x + n.width + 36, y: n.y + n.height + 6 }, { x: n.x + n.width, y: n.y + n.height * 0.7 }]
      : [{ x: n.x + n.width * 0.3, y: n.y + n.height }, { x: n.x - 6, y: n.y + n.height + 36 }, { x: n.x + n.width + 6, y: n.y + n.height + 36 }, { x: n.x + n.width * 0.7, y: n.y + n.height }];
    const label = edge.label ? { label: tb ? { x: n.x + n.width + 34, y: n.y + n.height / 2 + 4, anchor: "start" as const } : { x: n.x + n.width / 2, y: n.y + n.height + 40, anchor: "middle" as const } } : {};
    edges.push({ edge, paths: [points], loop: true, ...label });
  }

  const clusters: LayoutCluster[] = graph.clusters.flatMap((cluster, c) => {
    const members = vertices.map((v, i) => ({ v, i })).filter(({ v }) => v.group === c);
    if (members.length === 0) return [];
    const boxes = members.map(({ v, i }) => ({ o0: v.o - v.along / 2, o1: v.o + v.along / 2, r0: centre(i) - v.across / 2, r1: centre(i) + v.across / 2 }));
    const [oMin, oMax] = extent(boxes.flatMap((b) => [b.o0, b.o1]));
    const [rMin, rMax] = extent(boxes.flatMap((b) => [b.r0, b.r1]));
    let o0 = oMin - CLUSTER_PAD - (tb ? 0 : CLUSTER_LABEL);
    let o1 = oMax + CLUSTER_PAD;
    const r0 = rMin - CLUSTER_PAD - (tb ? CLUSTER_LABEL : 0);
    let r1 = rMax + CLUSTER_PAD;
    const labelWidth = textWidth(cluster.label, SIZES.font) + 2 * CLUSTER_PAD;
    if (tb && o1 - o0 < labelWidth) [o0, o1] = [(o0 + o1 - labelWidth) / 2, (o0 + o1 + labelWidth) / 2];
    if (!tb && r1 - r0 < labelWidth) r1 = r0 + labelWidth;
    const corner = at(o0, r0);
    return [{ id: cluster.id, label: cluster.label, ...corner, width: tb ? o1 - o0 : r1 - r0, height: tb ? r1 - r0 : o1 - o0 }];
  });

  // Everything moves so that the drawing starts at the margin, below the title.
  const xs: number[] = [];
  const ys: number[] = [];
  for (const box of [...nodes, ...clusters]) xs.push(box.x, box.x + box.width), ys.push(box.y, box.y + box.height);
  for (const p of trunks.flatMap((t) => t.points)) xs.push(p.x), ys.push(p.y);
  for (const e of edges) {
    for (const p of e.paths.flat()) xs.push(p.x), ys.push(p.y);
    if (e.label) {
      const width = textWidth(e.edge.label ?? "", SIZES.edgeFont);
      const x0 = e.label.anchor === "start" ? e.label.x : e.label.x - width / 2;
      xs.push(x0, x0 + width), ys.push(e.label.y - SIZES.edgeFont, e.label.y + 2);
    }
  }
  const titleWidth = textWidth(graph.title, SIZES.titleFont);
  const [xMin, xMax] = extent(xs);
  const [yMin, yMax] = extent(ys);
  const dx = SIZES.margin - xMin;
  const dy = SIZES.margin + TITLE - yMin;
  const move = (p: { x: number; y: number }) => ((p.x += dx), (p.y += dy));
  nodes.forEach(move);
  clusters.forEach(move);
  trunks.forEach((t) => t.points.forEach(move));
  for (const e of edges) {
    e.paths.flat().forEach(move);
    if (e.label) move(e.label);
  }
  const width = Math.max(xMax + dx, SIZES.margin + titleWidth) + SIZES.margin;
  const height = yMax + dy + SIZES.margin;
  return { width: round(width), height: round(height), title: { text: graph.title, x: SIZES.margin, y: SIZES.margin + SIZES.titleFont }, nodes, edges, trunks, clusters };
}

const round = (n: number) => Math.ceil(n);

/** The least and greatest of `values` (a loop: spreading a large array into Math.min overflows the stack). */
function extent(values: number[]): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (const value of values) {
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return [min, max];
}
