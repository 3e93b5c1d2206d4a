import { describe, expect, it } from "vitest";
import { checkFlow, createRouter, parseFlow, type Diagnostic } from "../src/index.js";
import { flow, fromInput, fromStep, SCHEMA, step } from "./helpers.js";

const named = (steps: unknown[], output?: unknown) => flow(steps, output, { name: "n", description: "d" });
const errors = (diagnostics: Diagnostic[]) => diagnostics.filter((d) => d.level === "error").map((d) => [d.rule, d.path, d.message]);

describe("checkFlow (§2.4, §6.7)", () => {
  it("a clean flow has no diagnostics", () => {
    expect(checkFlow(named([step("a", "/x/a", fromInput("v")), step("b", "/x/b", fromStep("a", "$.out"))], fromStep("b")))).toEqual([]);
  });

  it.each([
    ["empty step id", named([step("  ", "/x/a")]), [["empty-step-id", "/steps/0/id", "step id must not be empty or whitespace"]]],
    [
      "duplicate step id",
      named([step("a", "/x/a"), step("a", "/x/b")], [fromStep("a")]),
      [["duplicate-step-id", "/steps/1/id", 'duplicate step id "a" (first defined at /steps/0)']],
    ],
    ["self reference", named([step("a", "/x/a", { v: fromStep("a") })], fromStep("a")), [["self-reference", "/steps/0/input/v/$from/step", 'step "a" references itself']]],
    [
      "undefined step",
      named([step("a", "/x/a", [fromStep("ghost")])], fromStep("a")),
      [["undefined-step", "/steps/0/input/0/$from/step", 'step "a" references undefined step "ghost"']],
    ],
    [
      "later step (a cycle through $from)",
      named([step("a", "/x/a", { x: fromStep("b") }), step("b", "/x/b", { y: fromStep("a") })], fromStep("b")),
      [["later-step", "/steps/0/input/x/$from/step", 'step "a" references step "b", which is defined later (/steps/1); a step may only reference earlier steps']],
    ],
    ["later step in skipIf", named([step("a", "/x/a", 1, { skipIf: fromStep("b") }), step("b", "/x/b", fromStep("a"))], fromStep("b")), [["later-step", "/steps/0/skipIf/$from/step", expect.any(String)]]],
    ["output undefined step", named([], fromStep("ghost")), [["undefined-step", "/output/$from/step", 'output references undefined step "ghost"']]],
    ["component without /", named([step("a", "x/a")], fromStep("a")), [["component-not-absolute", "/steps/0/component", 'component "x/a" must start with "/"']]],
    [
      "$from not an object",
      named([step("a", "/x/a", { $from: "oops" })], fromStep("a")),
      [["malformed-reference", "/steps/0/input/$from", '$from must be {"workflow": "input"} or {"step": "<step id>"}, not "oops"']],
    ],
    ["$from workflow not input", named([], { $from: { workflow: "output" } }), [["malformed-reference", "/output/$from", expect.stringContaining('not {"workflow":"output"}')]]],
    ["path not a string", named([], { $from: { workflow: "input" }, path: 3 }), [["malformed-reference", "/output/path", "path must be a string, not 3"]]],
    [
      "invalid path",
      named([], fromInput("$[abc]")),
      [["invalid-path", "/output/path", "invalid path \"$[abc]\": Invalid index 'abc' in JSON path. Expected a number or a quoted string."]],
    ],
    ["malformed onSkip", named([], fromInput("a", { action: "default" })), [["malformed-reference", "/output/onSkip", expect.stringContaining("onSkip must be")]]],
  ])("%s", (_name, f, expected) => {
    expect(errors(checkFlow(f))).toEqual(expected);
  });

  it("does not read references inside $literal, onSkip defaults or skipIf objects; onError defaults are not checked", () => {
    const f = named(
      [
        step("a", "/x/a", { $literal: { $from: "anything" } }, { skipIf: { nested: { $from: { step: "ghost" } } }, onError: { action: "useDefault", defaultValue: fromStep("ghost") } }),
      ],
      fromStep("a", undefined, { action: "useDefault", defaultValue: { $from: "x" } }),
    );
    expect(checkFlow(f)).toEqual([]);
  });

  it("reports schema violations with their pointers", () => {
    expect(errors(checkFlow({ steps: [{ id: "a" }] }))).toEqual([
      ["schema", "/schema", 'missing required property "schema"'],
      ["schema", "/steps/0/component", 'missing required property "component"'],
    ]);
  });

  it("warns about unreachable steps and a missing name or description", () => {
    const diagnostics = checkFlow(flow([step("used", "/x/a"), step("lonely", "/x/b", fromStep("used"))], null));
    expect(diagnostics.filter((d) => d.level === "warning").map((d) => [d.rule, d.path])).toEqual([
      ["unreachable-step", "/steps/1"],
      ["missing-name", "/name"],
      ["missing-description", "/description"],
    ]);
  });

  it("checks nested $literal flows on their own, with pointers into the outer flow", () => {
    const inner = { schema: SCHEMA, steps: [step("i", "/x/i", fromStep("outer"))], output: fromStep("i") };
    const f = named([step("outer", "/builtin/eval", { workflow: { $literal: inner }, input: 1 })], fromStep("outer"));
    expect(errors(checkFlow(f))).toEqual([["undefined-step", "/steps/0/input/workflow/$literal/steps/0/input/$from/step", 'step "i" references undefined step "outer"']]);
  });

  it("given a router, reports components no route serves", () => {
    const router = createRouter({ config: { plugins: { builtin: { type: "builtin" } }, routes: { "/builtin/{component}": [{ plugin: "builtin" }] } } });
    const f = named([step("a", "/builtin/create_messages", { user_prompt: "x" }), step("b", "/python/udf", fromStep("a"))], fromStep("b"));
    expect(errors(checkFlow(f, { router }))).toEqual([["unknown-component", "/steps/1/component", expect.stringContaining('no route serves component "/python/udf"')]]);
  });

  it("locates each diagnostic as file:line:column when the flow came from a file", () => {
    const text = `schema: ${SCHEMA}
name: cycle
description: a step that references a later one
steps:
  - id: first
    component: /x/a
    input:
      x: { $from: { step: second } }
  - id: second
    component: /x/b
    input: { $from: { step: first }, path: "$bad" }
output: { $from: { step: second } }
`;
    const source = parseFlow(text.replace('path: "$bad"', 'path: "$.ok"'), { file: "flows/cycle.yaml" }).source;
    const diagnostics = checkFlow(source.value, { source });
    expect(diagnostics.map((d) => `${d.location} ${d.rule}`)).toEqual(["flows/cycle.yaml:8:27 later-step"]);
    const bad = parseFlowNoThrow(text);
    expect(bad).toContain("flows/cycle.yaml:11:44 /steps/1/input/path: invalid path");
  });
});

function parseFlowNoThrow(text: string): string {
  try {
    parseFlow(text, { file: "flows/cycle.yaml" });
    return "";
  } catch (error) {
    return (error as Error).message;
  }
}

describe("parseFlow: a key given twice", () => {
  // JSON.parse alone would keep the second input and drop the first without a word.
  it.each([
    ['{\n  "schema": "https://stepflow.org/schemas/v1/flow.json",\n  "steps": [{ "id": "a", "component": "/x/a", "input": 1, "input": 2 }]\n}', "flows/dup.json", "flows/dup.json:3:59: duplicate key \"input\""],
    ["schema: https://stepflow.org/schemas/v1/flow.json\nsteps:\n  - id: a\n    component: /x/a\n    id: b\n", "flows/dup.yaml", 'flows/dup.yaml:5:5: duplicate key "id"'],
  ])("is refused in %s, naming where", (text, file, message) => {
    expect(() => parseFlow(text, { file })).toThrow(message);
  });
});
