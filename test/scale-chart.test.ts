import { describe, expect, it } from "vitest";
import { curves, scaleChart } from "../bench/scale-chart.js";
import type { Figure } from "../bench/support/report.js";

const figure = (bench: string, series?: Figure["series"]): Figure => ({ bench, name: `${bench} curve`, value: 1, unit: "×", target: { op: "<=", value: 2 }, series, seriesUnits: { x: "files", y: "ms per file" } });

describe("the scale chart (bench/scale-chart.ts)", () => {
  it("draws one curve per figure with a series, in each panel, with a legend line each", () => {
    const figures = [
      figure("cli", [
        { x: 1, y: 100, rssMb: 50 },
        { x: 100, y: 1, rssMb: 60 },
        { x: 10_000, y: 0.5, rssMb: 90 },
      ]),
      figure("versions"),
      figure("apflow", [
        { x: 1000, y: 2, rssMb: 70 },
        { x: 100_000, y: 2.5 },
      ]),
    ];
    expect(curves(figures).map((curve) => curve.label)).toEqual(["cli: cli curve (ms per file by files)", "apflow: apflow curve (ms per file by files)"]);
    const svg = scaleChart(figures, "v20.0.0");
    expect(svg).toMatch(/^<svg [^>]*>/);
    // Two curves in two panels; the RSS panel skips the point without an RSS.
    expect(svg.match(/<polyline /g)).toHaveLength(4);
    expect(svg.match(/<circle /g)).toHaveLength(3 + 2 + 3 + 1);
    expect(svg).toContain(">cli: cli curve (ms per file by files)</text>");
    // Log size axis from 1 to 100k: 1 at the panel's left edge (x = 70), 100k at its right (x = 470).
    const costLine = /<polyline points="([^"]+)"/.exec(svg)![1]!.split(" ");
    expect(costLine[0]).toMatch(/^70\.0,/);
    expect(costLine.at(-1)).toMatch(/^390\.0,/); // 10k: four decades of five
  });

  it("escapes what it prints", () => {
    expect(scaleChart([figure("a<b&c", [{ x: 1, y: 1 }])], "v20")).toContain(">a&lt;b&amp;c: a&lt;b&amp;c curve");
  });
});
