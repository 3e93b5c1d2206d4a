import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, type CliIo } from "@flowspec/cli";
import { digestFlow as flow, corpusDir } from "../../../test/support.js";

function capture(cwd: string): CliIo & { out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, cwd, env: {}, out: () => out, err: () => err };
}

const dir = mkdtempSync(join(tmpdir(), "flowspec-graph-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, value: unknown) => {
  writeFileSync(join(dir, name), typeof value === "string" ? value : JSON.stringify(value, null, 2));
  return join(dir, name);
};


describe("flowspec graph", () => {
  const skipFlow = join(corpusDir("stepflow"), "tests/mock/conditional_skip_use_default.yaml");
  const giphy = join(corpusDir("agents-json"), "agents_json__giphy__agents.json");

  it("draws a StepFlow corpus flow as Mermaid, skipIf dashed", async () => {
    const io = capture(dir);
    expect(await runCli(["graph", skipFlow], io)).toBe(0);
    expect(io.out()).toContain("flowchart TB");
    expect(io.out()).toMatch(/n0 -\.->\|"skipIf shouldSkip"\| n1/);
    expect(io.out()).toMatch(/linkStyle 1 stroke:#d35400,stroke-dasharray:8 4/);
  });

  it("draws one agents.json flow as DOT", async () => {
    const io = capture(dir);
    expect(await runCli(["graph", giphy, "--flow", "search_gifs_flow", "--format", "dot"], io)).toBe(0);
    expect(io.out()).toMatch(/^digraph "agents.json flow search_gifs_flow" \{/);
    expect(io.out()).toContain('"flow1:input" -> "flow1:action:search_gifs" [label="parameters.q → parameters.q"');
    expect(io.out()).not.toContain("get_trending_gifs_flow");
  });

  it("renders SVG and writes it with --output, warning about missing references", async () => {
    const io = capture(dir);
    const input = file("flow.json", flow);
    expect(await runCli(["graph", input, "--format", "svg", "-o", "flow.svg"], io)).toBe(0);
    const svg = readFileSync(join(dir, "flow.svg"), "utf8");
    expect(svg).toMatch(/^<\?xml[\s\S]*<svg[\s\S]*>summarise<\/text>[\s\S]*<\/svg>\s*$/);
    expect(svg).toContain("stroke-dasharray");
    expect(io.err()).toMatch(/warning .*flow\.json:\d+:\d+ \/steps\/2\/input\/extra\/\$from\/step: references step "ghost"/);
    expect(io.err()).toContain("wrote flow.svg (stepflow:Flow, 6 nodes, 8 edges)");
  });

  it.each([
    { name: "an unknown format", args: () => [skipFlow, "--format", "png"], message: /--format must be one of mermaid, dot, svg, not "png"/ },
    { name: "a kind it does not draw", args: () => [file("run.json", { resourceType: "run", runId: "r1" })], message: /run\.json: a agent-service:Run document; graph draws/ },
    { name: "an unrecognised document", args: () => [file("x.json", { hello: 1 })], message: /x\.json: a document of no kind flowspec recognises/ },
    { name: "--flow on a StepFlow flow", args: () => [skipFlow, "--flow", "x"], message: /--flow only applies to agents\.json documents/ },
    { name: "a flow whose steps cannot be drawn", args: () => [file("bad.json", { steps: [{ id: 1 }] })], message: /bad\.json:\d+:\d+ \/steps\/0\/id: every step needs a string id/ },
    { name: "an unparsable file", args: () => [file("broken.json", "{ nope")], message: /broken\.json/ },
    { name: "an --output it cannot write (a missing folder)", args: () => [skipFlow, "-o", "no-such-dir/flow.mmd"], message: /^flowspec: no-such-dir\/flow\.mmd: cannot write: ENOENT\n$/ },
    { name: "an --output that is a folder", args: () => [skipFlow, "-o", "."], message: /^flowspec: \.: cannot write: EISDIR\n$/ },
  ])("exits 2 on $name", async ({ args, message }) => {
    const io = capture(dir);
    expect(await runCli(["graph", ...args()], io)).toBe(2);
    expect(io.err()).toMatch(message);
  });
});
