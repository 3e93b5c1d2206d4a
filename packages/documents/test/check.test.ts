import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkDocument, detectKind, findKind, KINDS } from "@flowspec/documents";
import { repoRoot } from "../../../test/support.js";

const example = (name: string) => readFileSync(join(repoRoot, "examples/documents", name), "utf8");
const at = (d: { source: string; code: string; path: string; line: number; column: number }) => `${d.line}:${d.column} ${d.source}/${d.code} ${d.path}`;

describe("checkDocument", () => {
  it.each([
    ["summarise.flow.yaml", "stepflow:Flow"],
    ["notes.agents.json", "agents-json:AgentsJson"],
    ["weather-report.tree.json", "apflow:TaskTreeNode"],
    ["support-question.run.json", "agent-service:CreateRunCommand"],
  ])("finds nothing wrong in examples/documents/%s, detected as %s", async (file, kind) => {
    const check = await checkDocument(example(file), { file });
    expect(check.diagnostics).toEqual([]);
    expect({ ok: check.ok, kind: check.kind?.id, detected: check.detected, variant: check.variant }).toEqual({ ok: true, kind, detected: true, variant: "strict" });
  });

  it("runs StepFlow's checkFlow: a reference to a step that does not exist, at its line and column", async () => {
    const text = example("summarise.flow.yaml").replace("{ step: prompt }, path: $.messages }", "{ step: promt }, path: $.messages }");
    const check = await checkDocument(text);
    expect(check.ok).toBe(false);
    expect(check.diagnostics.map(at)).toEqual(["22:36 stepflow-check/undefined-step /steps/2/input/data/messages/$from/step"]);
    expect(check.diagnostics[0]!.message).toBe('step "store" references undefined step "promt"');
  });

  it("runs the agents.json linter (document rules): a link to an action the flow does not have", async () => {
    const doc = JSON.parse(example("notes.agents.json"));
    doc.flows[0].links[1].target.actionId = "reed";
    const check = await checkDocument(JSON.stringify(doc, null, 2));
    expect(check.diagnostics.map(at)).toEqual(["48:25 agents-json-lint/link-action-defined /flows/0/links/1/target/actionId"]);
  });

  it("runs apflow's semantic checks: a dependency cycle, and the wire variant's leniency", async () => {
    const tree = JSON.parse(example("weather-report.tree.json"));
    tree.children[0].task.dependencies = [{ id: "9c8b7a6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d" }];
    const cycle = await checkDocument(JSON.stringify(tree, null, 2));
    expect(cycle.diagnostics.map(at)).toEqual(["39:11 apflow-check/dependency-cycle /children/0/task/dependencies/0"]);
    const short = { task: { id: "root", name: "r", status: "pending" } };
    expect((await checkDocument(JSON.stringify(short))).diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(["error uuid"]);
    expect((await checkDocument(JSON.stringify(short), { variant: "wire" })).ok).toBe(true);
  });

  it("validates the other kinds against their schema, with the package's own messages", async () => {
    const check = await checkDocument(example("older-generation.run.json"), { file: "older.json" });
    expect(check.kind?.id).toBe("agent-service:CreateRunCommand");
    expect(check.diagnostics.map(at)).toContain("4:12 schema/schema /input/mode");
    expect(check.diagnostics.map((d) => d.message)).toContain('resourceType "agent" requires input.mode "agent", got none');
  });

  it("takes a chosen kind over detection", async () => {
    const check = await checkDocument('{"id": "t", "name": "n", "status": "pending"}', { kind: "apflow:Task", variant: "wire" });
    expect({ kind: check.kind?.id, detected: check.detected, ok: check.ok }).toEqual({ kind: "apflow:Task", detected: false, ok: true });
    expect((await checkDocument("steps: []", { kind: "stepflow" })).diagnostics.map(at)).toEqual([
      "1:1 schema/schema /schema",
      "1:1 stepflow-check/missing-name /name",
      "1:1 stepflow-check/missing-description /description",
    ]);
  });

  it.each([
    ["a syntax error", "a: [1", {}, "1:6 parse/syntax "],
    ["a duplicate key", '{"a": 1, "a": 2}', {}, "1:10 parse/syntax "],
    ["a document of no kind", '{"x": 1}', {}, "1:1 kind/unknown-kind "],
    ["a text over the size limit", "x".repeat(101), { maxBytes: 100 }, "1:1 parse/too-large "],
    ["a text over the size limit in UTF-8 bytes only", "é".repeat(51), { maxBytes: 100 }, "1:1 parse/too-large "],
  ])("reports %s as one error", async (_name, text, options, expected) => {
    const check = await checkDocument(text, options);
    expect(check.ok).toBe(false);
    expect(check.diagnostics.map(at)).toEqual([expected]);
  });

  it("reads a text exactly at the size limit", async () => {
    expect((await checkDocument(`"${"é".repeat(49)}"`, { maxBytes: 100, kind: "stepflow" })).diagnostics.map(at)).toEqual(["1:1 schema/schema "]);
  });

  it("throws a RangeError for a kind or variant that does not exist", async () => {
    await expect(checkDocument("{}", { kind: "openapi" })).rejects.toThrow(/^unknown kind "openapi"; one of: stepflow, agents-json/);
    await expect(checkDocument("{}", { kind: "apflow", variant: "compat" })).rejects.toThrow('variant "compat" does not exist for apflow:TaskTreeNode; its variants: strict, wire');
  });
});

describe("detectKind", () => {
  it("recognises each spec's documents by keys only that spec uses, broken ones too", () => {
    expect(detectKind({ steps: "not an array" })).toBeUndefined();
    expect(detectKind({ steps: [] })?.id).toBe("stepflow:Flow");
    expect(detectKind({ agentsJson: 1 })?.id).toBe("agents-json:AgentsJson");
    expect(detectKind({ task: {}, children: [] })?.id).toBe("apflow:TaskTreeNode");
    expect(detectKind({ resourceType: "agent", input: {} })?.id).toBe("agent-service:CreateRunCommand");
    expect(KINDS.map((k) => k.id)).toContain("stepflow:FlowResult");
  });
});

describe("findKind", () => {
  it("finds a kind by spec:Root in any case, or by a spec name alone, and nothing else", () => {
    expect(findKind("stepflow")?.id).toBe("stepflow:Flow");
    expect(findKind("APFLOW:task")?.id).toBe("apflow:Task");
    expect(findKind("agent-service")?.id).toBe("agent-service:CreateRunCommand");
    for (const name of ["toString", "constructor", "__proto__", "stepflow:", "openapi"]) expect(findKind(name)).toBeUndefined();
  });

  it("validates with each variant's own validator, and refuses a variant the kind lacks", () => {
    const tree = findKind("apflow")!;
    // Wire mode leaves the uuid format unchecked; strict mode enforces it.
    const task = { id: "t-1", name: "t", status: "pending" };
    expect(tree.validate({ task }, "strict").ok).toBe(false);
    expect(tree.validate({ task }, "wire").ok).toBe(true);
    for (const kind of KINDS) for (const variant of kind.variants) expect(typeof kind.validate({}, variant).ok).toBe("boolean");
    expect(() => tree.validate({ task }, "compat")).toThrow('apflow:TaskTreeNode has no variant "compat"; its variants: strict, wire');
  });
});
