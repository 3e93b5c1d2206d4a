/**
 * Draws every scale curve of `bench/results.json` (the figures with a `series`, as `npm run bench`
 * wrote them) as one SVG, `bench/scale.svg`: cost per unit against size on the left, peak RSS on the
 * right, both with size on a log scale. Hand-written SVG: no chart library for a dozen lines.
 *   node --import tsx bench/scale-chart.ts [results.json] [scale.svg]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Figure } from "./support/report.js";

interface Curve {
  label: string;
  points: { x: number; y: number; rssMb?: number }[];
}

const WIDTH = 960;
const PANEL = { width: 400, height: 260, top: 50, left: [70, 550] };
const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"];

/** The scale curves of a results file, labelled with their bench, name and units. */
export function curves(figures: readonly Figure[]): Curve[] {
  return figures
    .filter((figure) => (figure.series?.length ?? 0) > 0)
    .map((figure) => {
      const units = figure.seriesUnits ? ` (${figure.seriesUnits.y} by ${figure.seriesUnits.x})` : "";
      return { label: `${figure.bench}: ${figure.name}${units}`, points: figure.series! };
    });
}

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const label = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));

/** Powers of ten from below `min` to above `max` (at least two). */
function decades(min: number, max: number): number[] {
  const low = Math.floor(Math.log10(min));
  const high = Math.max(low + 1, Math.ceil(Math.log10(max)));
  return Array.from({ length: high - low + 1 }, (_, i) => 10 ** (low + i));
}

/** One panel: axes, grid, and a polyline per curve; `value` picks what is drawn upward. */
function panel(left: number, title: string, all: Curve[], value: (point: Curve["points"][number]) => number | undefined, logY: boolean): string {
  const xs = all.flatMap((curve) => curve.points.map((point) => point.x));
  const ys = all.flatMap((curve) => curve.points.map(value)).filter((y): y is number => y !== undefined && y > 0);
  if (ys.length === 0) return "";
  const xTicks = decades(Math.min(...xs), Math.max(...xs));
  const yTicks = logY ? decades(Math.min(...ys), Math.max(...ys)) : niceTicks(Math.max(...ys));
  const [x0, x1] = [Math.log10(xTicks[0]!), Math.log10(xTicks.at(-1)!)];
  const [y0, y1] = logY ? [Math.log10(yTicks[0]!), Math.log10(yTicks.at(-1)!)] : [0, yTicks.at(-1)!];
  const px = (x: number) => left + ((Math.log10(x) - x0) / (x1 - x0)) * PANEL.width;
  const py = (y: number) => PANEL.top + PANEL.height - (((logY ? Math.log10(y) : y) - y0) / (y1 - y0)) * PANEL.height;
  const bottom = PANEL.top + PANEL.height;
  const out = [`<text x="${left + PANEL.width / 2}" y="${PANEL.top - 14}" text-anchor="middle" font-weight="bold">${escape(title)}</text>`];
  for (const x of xTicks) {
    out.push(`<line x1="${px(x).toFixed(1)}" y1="${PANEL.top}" x2="${px(x).toFixed(1)}" y2="${bottom}" stroke="#ddd"/>`);
    out.push(`<text x="${px(x).toFixed(1)}" y="${bottom + 16}" text-anchor="middle">${label(x)}</text>`);
  }
  for (const y of yTicks) {
    out.push(`<line x1="${left}" y1="${py(y).toFixed(1)}" x2="${left + PANEL.width}" y2="${py(y).toFixed(1)}" stroke="#ddd"/>`);
    out.push(`<text x="${left - 6}" y="${(py(y) + 4).toFixed(1)}" text-anchor="end">${label(y)}</text>`);
  }
  out.push(`<rect x="${left}" y="${PANEL.top}" width="${PANEL.width}" height="${PANEL.height}" fill="none" stroke="#888"/>`);
  out.push(`<text x="${left + PANEL.width / 2}" y="${bottom + 34}" text-anchor="middle">size (steps, tasks, files), log scale</text>`);
  all.forEach((curve, i) => {
    const points = curve.points.filter((point) => (value(point) ?? 0) > 0).map((point) => `${px(point.x).toFixed(1)},${py(value(point)!).toFixed(1)}`);
    if (points.length === 0) return;
    out.push(`<polyline points="${points.join(" ")}" fill="none" stroke="${COLOURS[i % COLOURS.length]}" stroke-width="2"/>`);
    for (const point of points) out.push(`<circle cx="${point.split(",")[0]}" cy="${point.split(",")[1]}" r="3" fill="${COLOURS[i % COLOURS.length]}"/>`);
  });
  return out.join("\n");
}

/** 0 and about five round steps up to at least `max`. */
function niceTicks(max: number): number[] {
  const raw = max / 5;
  const step = [1, 2, 5, 10].map((m) => m * 10 ** Math.floor(Math.log10(raw))).find((s) => s >= raw)!;
  return Array.from({ length: Math.ceil(max / step) + 1 }, (_, i) => i * step);
}

export function scaleChart(figures: readonly Figure[], node: string): string {
  const all = curves(figures);
  const legendTop = PANEL.top + PANEL.height + 60;
  const height = legendTop + all.length * 18 + 24;
  const legend = all.map(
    (curve, i) =>
      `<line x1="70" y1="${legendTop + i * 18 - 4}" x2="94" y2="${legendTop + i * 18 - 4}" stroke="${COLOURS[i % COLOURS.length]}" stroke-width="2"/><text x="100" y="${legendTop + i * 18}">${escape(curve.label)}</text>`,
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    panel(PANEL.left[0]!, "cost per unit (log scale)", all, (point) => point.y, true),
    panel(PANEL.left[1]!, "peak RSS, MB", all, (point) => point.rssMb, false),
    ...legend,
    `<text x="70" y="${height - 8}" fill="#666">From bench/results.json (npm run bench, Node ${escape(node)}); a flat curve on the left is linear cost.</text>`,
    `</svg>`,
    "",
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const here = import.meta.dirname;
  const [input = join(here, "results.json"), output = join(here, "scale.svg")] = process.argv.slice(2);
  const results = JSON.parse(readFileSync(input, "utf8")) as { node: string; figures: Figure[] };
  writeFileSync(output, scaleChart(results.figures, results.node));
  console.log(`${output}: ${curves(results.figures).length} scale curves`);
}
