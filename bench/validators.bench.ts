/**
 * Generated validators against ajv compiling the same schema at run time, one document per spec:
 * - throughput (validations/s) of each, as a ratio (target: generated ≥ 1× run-time ajv);
 * - import-to-first-validation time in a fresh process, as a ratio (target: generated ≥ 5× faster).
 * Uses the built packages (npm run bench builds first), through their light `/validate` entries.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { AgentsJsonSchema } from "@flowspec/agents-json";
import { CreateRunCommandSchema } from "@flowspec/agent-service";
import { TaskTreeNodeSchema } from "@flowspec/apflow";
import { parseSourceDocument, type FlowspecSchema } from "@flowspec/runtime";
import { formats } from "@flowspec/runtime/ajv";
import { FlowSchema } from "@flowspec/stepflow";
import { median } from "./support/rounds.js";

const require = createRequire(import.meta.url);
const repo = join(import.meta.dirname, "..");
const corpus = join(repo, "..", "shared", "corpus");
const uuid = (i: number) => `0b6f3a4e-8c1d-4f2a-9e3b-${String(i).padStart(12, "0")}`;

function tree(depth: number, fanout: number, parent: string | null = null, counter = { n: 0 }): unknown {
  const id = uuid(counter.n++);
  const task = { id, name: `task ${id}`, status: "pending", parent_id: parent, priority: 2, inputs: { n: counter.n }, dependencies: [] };
  return { task, children: depth === 0 ? [] : Array.from({ length: fanout }, () => tree(depth - 1, fanout, id, counter)) };
}

const cases: { spec: string; packageName: string; exportName: string; schema: FlowspecSchema<unknown>; document: unknown; keywords: string[] }[] = [
  {
    spec: "stepflow Flow (tests/mock/conditional_skip.yaml)",
    packageName: "@flowspec/stepflow/validate",
    exportName: "FlowSchema",
    schema: FlowSchema as FlowspecSchema<unknown>,
    document: parseSourceDocument(readFileSync(join(corpus, "stepflow/tests/mock/conditional_skip.yaml"), "utf8"), { format: "yaml" }).value,
    keywords: ["example", "discriminator"],
  },
  {
    spec: "agents.json (stripe, 13 flows)",
    packageName: "@flowspec/agents-json/validate",
    exportName: "AgentsJsonSchema",
    schema: AgentsJsonSchema as FlowspecSchema<unknown>,
    document: JSON.parse(readFileSync(join(corpus, "agents-json/agents_json__stripe__agents.json"), "utf8")),
    keywords: [],
  },
  {
    spec: "apflow TaskTreeNode (121 tasks)",
    packageName: "@flowspec/apflow/validate",
    exportName: "TaskTreeNodeSchema",
    schema: TaskTreeNodeSchema as FlowspecSchema<unknown>,
    document: tree(2, 10),
    keywords: [],
  },
  {
    spec: "agent-service CreateRunCommand (agent)",
    packageName: "@flowspec/agent-service/validate",
    exportName: "CreateRunCommandSchema",
    schema: CreateRunCommandSchema as FlowspecSchema<unknown>,
    document: {
      resourceType: "agent",
      resourceId: "demo-agent",
      contextId: "ctx-1",
      input: { mode: "agent", messages: [{ id: "m1", role: "user", content: "Summarize the latest deployment status" }], ephemeralTools: [{ name: "deployments.list", description: "List", parametersSchema: { type: "object" } }] },
      webhook: { url: "https://example.com/hook", eventTypes: ["run.status.changed"] },
      idempotencyKey: "k-1",
    },
    keywords: ["x-provisional"],
  },
];

function compileAtRunTime(schema: FlowspecSchema<unknown>, keywords: string[]) {
  const Ajv = schema.dialect === "draft-07" ? require("ajv").default : require("ajv/dist/2020").default;
  const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true, keywords });
  for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format);
  return ajv.compile(schema.jsonSchema) as (value: unknown) => boolean;
}

function opsPerSecond(fn: () => unknown, ms = 1500): number {
  for (let i = 0; i < 2000; i++) fn();
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 200; i++) fn();
    n += 200;
    now = performance.now();
  }
  return (n / (now - start)) * 1000;
}

/** ms from the start of the script to the first validation result, in a fresh Node process. */
function startupMs(script: string): number {
  const runs = Array.from({ length: 7 }, () => Number(execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: repo, encoding: "utf8" }).trim()));
  return median(runs);
}

const temp = mkdtempSync(join(tmpdir(), "flowspec-bench-"));
const rows: string[] = [];
let worstThroughput = Infinity;
let worstStartup = Infinity;
for (const c of cases) {
  const generated = c.schema.validate;
  const runtime = compileAtRunTime(c.schema, c.keywords);
  if (!generated(c.document).ok || !runtime(c.document)) throw new Error(`${c.spec}: the benchmark document must be valid`);
  const generatedOps = opsPerSecond(() => generated(c.document));
  const runtimeOps = opsPerSecond(() => runtime(c.document));

  const schemaFile = join(temp, `${c.exportName}.json`);
  writeFileSync(schemaFile, JSON.stringify(c.schema.jsonSchema));
  const docFile = join(temp, `${c.exportName}.doc.json`);
  writeFileSync(docFile, JSON.stringify(c.document));
  const generatedStartup = startupMs(
    `const t = performance.now(); const m = await import(${JSON.stringify(c.packageName)}); const fs = await import("node:fs");
     const doc = JSON.parse(fs.readFileSync(${JSON.stringify(docFile)}, "utf8")); if (!m.${c.exportName}.validate(doc).ok) throw new Error("invalid");
     console.log(performance.now() - t);`,
  );
  const ajvModule = c.schema.dialect === "draft-07" ? "ajv" : "ajv/dist/2020.js";
  const runtimeStartup = startupMs(
    `const t = performance.now(); const { default: Ajv } = await import(${JSON.stringify(ajvModule)}); const { formats } = await import("@flowspec/runtime/ajv"); const fs = await import("node:fs");
     const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true, keywords: ${JSON.stringify(c.keywords)} });
     for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format);
     const validate = ajv.compile(JSON.parse(fs.readFileSync(${JSON.stringify(schemaFile)}, "utf8")));
     const doc = JSON.parse(fs.readFileSync(${JSON.stringify(docFile)}, "utf8")); if (!validate(doc)) throw new Error("invalid");
     console.log(performance.now() - t);`,
  );
  const throughputRatio = generatedOps / runtimeOps;
  const startupRatio = runtimeStartup / generatedStartup;
  worstThroughput = Math.min(worstThroughput, throughputRatio);
  worstStartup = Math.min(worstStartup, startupRatio);
  rows.push(
    `| ${c.spec} | ${fmt(generatedOps)}/s vs ${fmt(runtimeOps)}/s | **${throughputRatio.toFixed(2)}×** | ${generatedStartup.toFixed(1)} ms vs ${runtimeStartup.toFixed(1)} ms | **${startupRatio.toFixed(1)}× faster** |`,
  );
}
rmSync(temp, { recursive: true, force: true });

function fmt(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n.toFixed(0);
}

console.log("| document | throughput: generated vs run-time ajv | ratio | import → first validation: generated vs run-time compile | ratio |");
console.log("|---|---|---|---|---|");
for (const row of rows) console.log(row);
console.log(`\nworst throughput ratio ${worstThroughput.toFixed(2)}× (target ≥ 1×), worst startup ratio ${worstStartup.toFixed(1)}× (target ≥ 5×)`);
