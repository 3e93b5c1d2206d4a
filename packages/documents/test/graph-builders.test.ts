import { describe, expect, it } from "vitest";
import { agentsJsonGraph, apflowGraph, stepflowGraph, type Graph } from "@flowspec/documents/graph";
import { digestFlow as flow } from "../../../test/support.js";

// The graph builders (moved here from @flowspec/cli, with their tests): what each spec's document
// becomes, independent of the output format.
const edges = (graph: Graph) => graph.edges.map((e) => `${e.from} -> ${e.to} [${e.label ?? ""}] ${e.style} ${e.tone}`);


describe("graph builders", () => {
  it("stepflow: steps, $from references, skip and error edges; $literal is data", () => {
    const graph = stepflowGraph(flow);
    expect(edges(graph)).toEqual([
      "input -> step:fetch [url] solid data",
      "step:fetch -> step:summarise [body] solid data",
      "step:fetch -> step:summarise [title onSkip: useDefault] solid skip",
      "input -> step:summarise [skipIf quiet] dashed skip",
      "step:fetch -> step:summarise [onError default] dotted error",
      "step:summarise -> step:store [] solid data",
      "step:ghost -> step:store [] solid data",
      "step:summarise -> output [] solid data",
    ]);
    expect(graph.nodes.find((n) => n.id === "step:summarise")!.label).toEqual(["summarise", "/llm/summary", "onError: useDefault"]);
    expect(graph.nodes.find((n) => n.id === "step:ghost")!.tone).toBe("missing");
    expect(graph.warnings).toEqual([{ pointer: "/steps/2/input/extra/$from/step", message: 'references step "ghost", which the flow does not define' }]);
  });

  it("agents.json: actions and links per flow; null, absent or the flow's own id is the flow itself", () => {
    const doc = {
      agentsJson: "0.1.0",
      info: { title: "Demo", version: "1", description: "d" },
      sources: [{ id: "api", path: "openapi.json" }],
      flows: [
        {
          id: "search",
          actions: [{ id: "find", sourceId: "api", operationId: "search" }, { id: "fetch", sourceId: "api", operationId: "get" }],
          links: [
            { origin: { actionId: null, fieldPath: "parameters.q" }, target: { actionId: "find", fieldPath: "parameters.query" } },
            { origin: { actionId: "find", fieldPath: "responses.success.id" }, target: { actionId: "fetch", fieldPath: "parameters.id" } },
            { origin: { actionId: "fetch", fieldPath: "responses.success" }, target: { actionId: "search", fieldPath: "responses.success" } },
            { origin: { actionId: "lost", fieldPath: "x" }, target: { fieldPath: "y" } },
          ],
        },
        { id: "other", actions: [], links: [] },
      ],
    };
    const graph = agentsJsonGraph(doc, "search");
    expect(edges(graph)).toEqual([
      "flow0:input -> flow0:action:find [parameters.q → parameters.query] solid data",
      "flow0:action:find -> flow0:action:fetch [responses.success.id → parameters.id] solid data",
      "flow0:action:fetch -> flow0:output [responses.success → responses.success] solid data",
      "flow0:action:lost -> flow0:output [x → y] solid data",
    ]);
    expect(graph.clusters.map((c) => c.label)).toEqual(["flow search"]);
    expect(graph.warnings.map((w) => w.pointer)).toEqual(["/flows/0/links/3/origin/actionId"]);
    expect(agentsJsonGraph(doc).clusters.map((c) => c.label)).toEqual(["flow search", "flow other"]);
    expect(() => agentsJsonGraph(doc, "nope")).toThrow('no flow "nope"; the flows are: search, other');
  });

  it("apflow: parent edges dotted, required dependencies solid, optional dashed", () => {
    const tree = {
      task: { id: "r", name: "report", status: "pending" },
      children: [
        { task: { id: "a", name: "sales", status: "completed", parent_id: "r" } },
        { task: { id: "b", name: "costs", status: "failed", parent_id: "r" } },
        { task: { id: "c", name: "sum", status: "pending", parent_id: "r", dependencies: [{ id: "a" }, { id: "b", required: false }, { id: "x", required: true }] } },
      ],
    };
    const graph = apflowGraph(tree);
    expect(edges(graph)).toEqual([
      "task:r -> task:a [] dotted muted",
      "task:r -> task:b [] dotted muted",
      "task:r -> task:c [] dotted muted",
      "task:a -> task:c [requires] solid data",
      "task:b -> task:c [optional] dashed data",
      "task:x -> task:c [requires] solid data",
    ]);
    expect(graph.nodes.find((n) => n.id === "task:b")!.label).toEqual(["costs", "failed"]);
    expect(graph.warnings.map((w) => w.pointer)).toEqual(["/children/2/task/dependencies/2/id"]);
  });

  it.each([
    ["stepflow: a step without id", () => stepflowGraph({ steps: [{ component: "/x" }] }), "/steps/0/id"],
    ["stepflow: a duplicate step id", () => stepflowGraph({ steps: [{ id: "a" }, { id: "a" }] }), "/steps/1/id"],
    ["stepflow: a malformed $from", () => stepflowGraph({ steps: [{ id: "a", input: { x: { $from: "oops" } } }] }), "/steps/0/input/x/$from"],
    ["agents.json: a link without target", () => agentsJsonGraph({ flows: [{ id: "f", actions: [], links: [{ origin: {} }] }] }), "/flows/0/links/0"],
    ["apflow: a child without task", () => apflowGraph({ task: { id: "r" }, children: [{}] }), "/children/0/task"],
  ])("refuses %s, naming the pointer", (_name, run, pointer) => {
    expect(run).toThrow(expect.objectContaining({ pointer }));
  });
});
