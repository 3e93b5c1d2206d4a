/**
 * The generated API of each spec: a type, validateX (a result), isX (a type guard), assertX (throws)
 * and XSchema (a Standard Schema), on one document per spec.
 */
import { assertCreateRunCommand, upgradeCreateRunBody, validateCreateRunCommand, type CreateRunCommand } from "@flowspec/agent-service";
import { validateAgentsJson, validateAgentsJsonCompat } from "@flowspec/agents-json";
import { isTaskTreeNode, TaskTreeNodeSchema, validateTaskTreeNodeWire, type TaskTreeNode } from "@flowspec/apflow";
import { formatIssues, ValidationError } from "@flowspec/runtime";
import { validateFlow, validateRequest, type Flow } from "@flowspec/stepflow";

// StepFlow: a Flow, and JSON-RPC params validated by method.
const flow: Flow = {
  schema: "https://stepflow.org/schemas/v1/flow.json",
  name: "greet",
  steps: [{ id: "hello", component: "/builtin/create_messages", input: { user_prompt: { $from: { workflow: "input" }, path: "name" } } }],
  output: { $from: { step: "hello" } },
};
console.log("stepflow Flow valid:", validateFlow(flow).ok);
const noSchema = validateFlow({ steps: [] });
console.log("stepflow Flow without schema:", noSchema.ok ? "valid" : `\n${formatIssues(noSchema.errors)}`);
const params = validateRequest("components/execute", { component: "/echo" });
console.log("components/execute params without input:", params.ok ? "valid" : `\n${formatIssues(params.errors)}`);

// agents.json: strict follows the canonical schema; compat tolerates what real files do.
const agents = {
  agentsJson: "0.1.0",
  info: { title: "Demo", version: "1.0.0", description: "A demo API" },
  sources: [{ id: "demo", path: "https://example.com/openapi.json" }],
  flows: [
    {
      id: "search",
      title: "Search",
      description: "Search things",
      actions: [{ id: "search_action", sourceId: "demo", operationId: "search" }],
      links: [],
      fields: { parameters: [{ name: "q", type: "string", enum: ["a", "b"] }], responses: { success: {} } },
    },
  ],
};
const strict = validateAgentsJson(agents);
console.log("agents.json strict:", strict.ok ? "valid" : `\n${formatIssues(strict.errors)}`);
console.log("agents.json compat:", validateAgentsJsonCompat(agents).ok ? "valid" : "invalid");

// apflow: a TaskTreeNode; wire mode accepts the non-UUID ids a v1 server may send.
const tree: TaskTreeNode = {
  task: { id: "0b6f3a4e-8c1d-4f2a-9e3b-5d7c1a2b3c4d", name: "report", status: "pending", parent_id: null },
  children: [{ task: { id: "fetch-1", name: "fetch", status: "pending", parent_id: "0b6f3a4e-8c1d-4f2a-9e3b-5d7c1a2b3c4d" }, children: [] }],
};
console.log("apflow tree, strict guard:", isTaskTreeNode(tree), "| wire:", validateTaskTreeNodeWire(tree).ok);
const standard = await TaskTreeNodeSchema["~standard"].validate(tree);
console.log("apflow tree via Standard Schema:", standard.issues ? `${standard.issues.length} issue(s)` : "valid");

// Agent Service: an older-generation create-run body, rejected, then upgraded and accepted.
const older = { resourceType: "agent", resourceId: "demo-agent", input: { messages: [{ id: "m1", role: "user", content: "Hi" }], tools: [] } };
const before = validateCreateRunCommand(older);
console.log("create-run (older generation):", before.ok ? "valid" : `\n${formatIssues(before.errors.slice(0, 2))}`);
const upgraded: unknown = upgradeCreateRunBody(older);
try {
  assertCreateRunCommand(upgraded);
  const command: CreateRunCommand = upgraded;
  console.log("create-run (upgraded): valid, mode =", (command.input as { mode: string }).mode);
} catch (error) {
  if (error instanceof ValidationError) console.log(error.message);
  throw error;
}
