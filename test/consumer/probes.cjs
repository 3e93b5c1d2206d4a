// One real call per entry point of every published package, run by the consumer suite's ESM and
// CommonJS scripts against the installed tarballs. Each probe gets the loaded module, throws when
// the call does not do what it should, and returns a short note of what it checked. The entry
// points themselves come from the packed package.json files: one without a probe here fails the
// suite, so a new subpath gets its probe with it.
const assert = require("node:assert/strict");

const flow = { schema: "https://stepflow.org/schemas/v1/flow.json", steps: [{ id: "hello", component: "/builtin/create_messages", input: { user_prompt: "hi" } }] };
const agentsJson = { agentsJson: "0.1.0", info: { title: "t", version: "1", description: "d" }, sources: [], flows: [] };
const task = { id: "0b6f3a4e-8c1d-4f2a-9e3b-5d7c1a2b3c4d", name: "t", status: "pending", created_at: "2025-01-01T00:00:00Z" };
const createRunCommand = { resourceType: "tool", resourceId: "t", input: { mode: "tool", arguments: {} } };

/** A validator accepts a good document and names the JSON Pointer of a bad one's error. */
function validates(validate, good, bad, pointer) {
  assert.equal(validate(good).ok, true, JSON.stringify(validate(good)));
  const result = validate(bad);
  assert.equal(result.ok, false);
  assert.ok(result.errors.some((error) => error.path === pointer), JSON.stringify(result.errors));
}

const probes = {
  "@flowspec/runtime": (m) => {
    const { value } = m.parseSourceDocument("a:\n  b: 1\n", { file: "doc.yaml", format: "yaml" });
    assert.deepEqual(value, { a: { b: 1 } });
    return "parseSourceDocument reads YAML";
  },
  "@flowspec/runtime/validation": (m) => {
    assert.deepEqual(m.parsePointer(m.toPointer(["a", "b/c", 0])), ["a", "b/c", "0"]);
    return "toPointer/parsePointer round-trip";
  },
  "@flowspec/runtime/ajv": (m) => {
    assert.equal(m.equal({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), true);
    return "equal compares deeply";
  },
  "@flowspec/runtime/jsonrpc": (m) => {
    const lines = [];
    const reader = m.createLineReader((line) => lines.push(line), () => assert.fail("no line is too long"));
    reader.push(Buffer.from('{"a":1}\n{"b"'));
    reader.push(Buffer.from(":2}\n"));
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}']);
    return "createLineReader splits lines across chunks";
  },
  "@flowspec/runtime/node": (m) => {
    const found = m.findExecutable("node", process.cwd(), require("node:path").dirname(process.execPath));
    assert.equal(typeof found, "string");
    return "findExecutable finds node";
  },
  "@flowspec/runtime/files": async (m) => {
    const { mkdtempSync, writeFileSync } = require("node:fs");
    const dir = mkdtempSync(require("node:path").join(require("node:os").tmpdir(), "flowspec-probe-"));
    writeFileSync(`${dir}/ok.json`, '{"a":1}');
    writeFileSync(`${dir}/bad.json`, Buffer.from([0x7b, 0xff, 0x7d]));
    assert.equal(await m.readTextFile(`${dir}/ok.json`), '{"a":1}');
    assert.throws(() => m.readTextFileSync(`${dir}/bad.json`), /bad\.json:1:2: invalid UTF-8/);
    assert.throws(() => m.readTextFileSync(`${dir}/ok.json`, { maxBytes: 3 }), m.FileTooLargeError);
    return "reads a bounded, UTF-8-checked file";
  },
  "@flowspec/runtime/json": (m) => {
    const doc = m.parseJsonDocument('{\n  "a": [1, 2.0]\n}', { file: "a.json", keepFloats: true });
    assert.equal(doc.locate("/a/1").line, 2);
    assert.equal(String(doc.value.a[1]), "2.0");
    assert.throws(() => m.parseJsonDocument('{"a": 1, "a": 2}', { file: "b.json" }), m.DocumentParseError);
    assert.equal(m.sourceFormat("a: 1", "c.yaml"), "yaml");
    return "parseJsonDocument locates pointers, keeps floats and refuses duplicate keys";
  },
  "@flowspec/runtime/yaml": (m) => {
    const doc = m.parseDocument("a: [1, {b: two}]\n");
    assert.equal(m.isMap(doc.contents), true);
    assert.deepEqual(doc.toJS(), { a: [1, { b: "two" }] });
    assert.equal(m.stringify({ a: [1] }), "a:\n  - 1\n");
    assert.equal(m.parseDocument("a: [").errors[0].name, "YAMLParseError");
    return "parseDocument and stringify (the bundled yaml)";
  },
  "@flowspec/codegen": (m) => {
    assert.equal(m.dialectOf({ $schema: "http://json-schema.org/draft-07/schema#" }, "a.json"), "draft-07");
    return "dialectOf reads $schema";
  },
  // @flowspec/schema-diff comes with the cli-light branch (the diff split out of codegen).
  // Starts Python (Pyodide from the installed dependency) and runs one UDF, as a flow routed to it would.
  "@flowspec/stepflow-python": async (m) => {
    const blobs = new Map([["udf", { code: "math.floor(input['a'] / input['b'])", input_schema: { type: "object", required: ["a", "b"] } }]]);
    const context = { getBlob: async (id) => blobs.get(id), putBlob: async () => assert.fail("the UDF stores no blob"), signal: new AbortController().signal };
    assert.equal(await m.default["/udf"].handler({ blob_id: "udf", input: { a: 7, b: 2 } }, context), 3);
    await assert.rejects(m.pythonUdf.handler({ blob_id: "udf", input: { a: 7 } }, context), /b/);
    return "/udf runs Python on Pyodide and checks its input_schema";
  },
  "@flowspec/schema-diff": (m) => {
    const before = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { a: { type: "string" } } };
    const { changes } = m.diffSchemas(before, { ...before, required: ["a"] });
    assert.ok(changes.some((change) => change.kind === "required-added" && change.breaking.forNewReader), JSON.stringify(changes));
    return "diffSchemas classifies a new required property";
  },
  "@flowspec/schema-diff/schema-files": (m) => {
    assert.equal(m.dialectOf({ $schema: "https://json-schema.org/draft/2020-12/schema" }, "a.json"), "draft-2020-12");
    return "dialectOf reads $schema";
  },
  "@flowspec/stepflow": (m) => {
    validates(m.validateFlow, flow, { ...flow, steps: [{ id: 1 }] }, "/steps/0/id");
    return "validateFlow";
  },
  "@flowspec/stepflow/validate": (m) => {
    assert.equal(m.parseEnvelope({ jsonrpc: "2.0", id: 1, method: "initialize", params: { runtime_protocol_version: 1 } }).ok, true);
    return "parseEnvelope";
  },
  "@flowspec/stepflow/server": (m) => {
    const server = m.createComponentServer({ "/echo": m.defineServerComponent({ description: "echo", handler: (input) => input }) });
    assert.deepEqual(server.infos().map((info) => info.component), ["/echo"]);
    return "createComponentServer lists its components";
  },
  "@flowspec/stepflow/client": (m) => {
    assert.equal(m.substituteEnv("${A}-x", { A: "a" }), "a-x");
    return "substituteEnv";
  },
  "@flowspec/stepflow/flow": (m) => {
    const code = m.flowToBuilderCode({ ...flow, name: "n", description: "d" });
    assert.match(code, /flow\.addStep\("\/builtin\/create_messages", \{ id: "hello", input: \{ user_prompt: "hi" \} \}\);/);
    assert.equal(m.checkFlow(flow).filter((d) => d.level === "error").length, 0);
    return "flowToBuilderCode; checkFlow";
  },
  "@flowspec/stepflow/node": (m) => {
    // The scripts run in the consumer project, a scratch folder of its own.
    require("node:fs").writeFileSync("probe.flow.json", JSON.stringify(flow));
    assert.equal(m.loadFlowFile("probe.flow.json", { cwd: process.cwd() }).flow.steps[0].id, "hello");
    return "loadFlowFile reads a flow file";
  },
  "@flowspec/agents-json": async (m) => {
    // Loading an OpenAPI source runs the $ref dereferencer (an ESM-only dependency upstream).
    const api = {
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: { "/items/{id}": { get: { operationId: "get_item", parameters: [{ $ref: "#/components/parameters/id" }], responses: { 200: { description: "ok" } } } } },
      components: { parameters: { id: { name: "id", in: "path", required: true, schema: { type: "string" } } } },
    };
    const resolver = m.createSourceResolver({ readFile: async () => JSON.stringify(api) });
    const source = await m.loadOpenApiSource({ id: "api", path: "api.json" }, { resolver });
    assert.equal(source.operations.get("get_item").parameters[0].name, "id");
    validates(m.validateAgentsJson, agentsJson, { ...agentsJson, flows: 1 }, "/flows");
    return "loadOpenApiSource dereferences; validateAgentsJson";
  },
  "@flowspec/agents-json/validate": (m) => {
    validates(m.validateAgentsJson, agentsJson, { ...agentsJson, info: {} }, "/info/title");
    return "validateAgentsJson";
  },
  "@flowspec/apflow": (m) => {
    const tree = m.createTaskTree();
    tree.root("report").child("fetch");
    const built = tree.build();
    assert.equal(built.children[0].task.name, "fetch");
    assert.deepEqual(m.checkTaskTree(built).errors, []);
    return "createTaskTree builds a checked tree";
  },
  "@flowspec/apflow/client": async (m) => {
    const http = require("node:http");
    const server = http.createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => response.setHeader("content-type", "application/json").end(JSON.stringify({ jsonrpc: "2.0", id: JSON.parse(body).id, result: null })));
    });
    await new Promise((listening) => server.listen(0, "127.0.0.1", listening));
    try {
      const client = m.createApflowClient({ baseUrl: `http://127.0.0.1:${server.address().port}` });
      assert.equal((await client.getTask(task.id)).data, null);
    } finally {
      server.close();
    }
    return "createApflowClient calls a server";
  },
  "@flowspec/apflow/validate": (m) => {
    validates(m.validateTask, task, { ...task, status: "lost" }, "/status");
    return "validateTask";
  },
  "@flowspec/agent-service": async (m) => {
    const rawBody = JSON.stringify({ type: "ping" });
    const headers = await m.signWebhook({ id: "msg_1", rawBody, secret: "whsec_" + Buffer.from("secret").toString("base64") });
    await assert.rejects(m.verifyWebhook({ headers, rawBody: rawBody + " ", secret: "whsec_" + Buffer.from("secret").toString("base64") }));
    assert.equal(m.toolRun("tool-search").arguments({ q: "x" }).build().resourceId, "tool-search");
    return "signWebhook/verifyWebhook; toolRun builds";
  },
  "@flowspec/agent-service/testing": (m) => {
    assert.equal(m.canonicalJson({ b: 1, a: [2] }), '{"a":[2],"b":1}');
    return "canonicalJson";
  },
  "@flowspec/agent-service/validate": (m) => {
    validates(m.validateCreateRunCommand, createRunCommand, { ...createRunCommand, resourceType: "car" }, "/resourceType");
    return "validateCreateRunCommand";
  },
  "@flowspec/documents": async (m) => {
    const check = await m.checkDocument("schema: https://stepflow.org/schemas/v1/flow.json\nsteps:\n  - { id: a, component: /x/a, input: { $from: { step: b } } }\n");
    assert.deepEqual(check.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.line}:${d.column} ${d.code}`), ["3:55 undefined-step"]);
    return "checkDocument locates a checkFlow error";
  },
  "@flowspec/documents/kinds": (m) => {
    assert.equal(m.detectKind(agentsJson).id, "agents-json:AgentsJson");
    return "detectKind";
  },
  "@flowspec/documents/graph": (m) => {
    const svg = m.toSvg(m.stepflowGraph(flow));
    assert.match(svg, /<g class="node" data-id="step:hello" data-tone="step" data-pointer="\/steps\/0">/);
    return "toSvg draws a flow";
  },
  "@flowspec/cli": (m) => {
    assert.equal(m.detectKind(flow).id, "stepflow:Flow");
    return "detectKind";
  },
};

/**
 * Loads each entry point with `load` (`import` or `require`), checks that none of its exports is
 * undefined, runs its probe, and prints one JSON report: per entry its export names and the probe's
 * note, or the error it met.
 */
async function runProbes(entries, load) {
  const report = {};
  for (const entry of entries) {
    try {
      const loaded = await load(entry);
      const exports = Object.keys(loaded).filter((name) => name !== "__esModule").sort();
      const undefinedExports = exports.filter((name) => loaded[name] === undefined);
      if (undefinedExports.length > 0) throw new Error(`exports that are undefined: ${undefinedExports.join(", ")}`);
      if (!(entry in probes)) throw new Error(`no probe for ${entry}: add one to test/consumer/probes.cjs`);
      report[entry] = { exports, note: await probes[entry](loaded) };
    } catch (error) {
      report[entry] = { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
    }
  }
  console.log(JSON.stringify(report));
}

module.exports = { probes, runProbes };
