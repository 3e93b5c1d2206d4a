/**
 * Generated validators against ajv compiling the same schema at run time, on the main document of
 * each spec. Both sides get the same ajv options and formats, read from codegen (support/runtime-ajv.ts).
 * - throughput: `validate<Root>` of the built `/validate` entry (it also builds the result object)
 *   against the compiled ajv function, in alternating rounds (target ≥ 1×);
 * - start-up, as whole processes timed from outside: import the `/validate` entry, read, parse and
 *   validate the document, against importing ajv, compiling the schema and validating the same
 *   (target ≥ 2.5× faster), and against a bare `node` that only reads and parses the document
 *   (the floor; target ≤ 1.15×).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { AgentsJsonSchema } from "@flowspec/agents-json";
import { CreateRunCommandSchema } from "@flowspec/agent-service";
import { TaskTreeNodeSchema } from "@flowspec/apflow";
import { parseSourceDocument, type FlowspecSchema } from "@flowspec/runtime";
import { FlowSchema } from "@flowspec/stepflow";
import { processTime } from "./support/process-time.js";
import { report } from "./support/report.js";
import { alternatingRounds, median, range, ratios } from "./support/rounds.js";
import { runtimeAjv } from "./support/runtime-ajv.js";

const repo = join(import.meta.dirname, "..");
const corpus = join(repo, "..", "shared", "corpus");
const THROUGHPUT_ROUNDS = 9;
const STARTUP_ROUNDS = 15;
const uuid = (i: number) => `0b6f3a4e-8c1d-4f2a-9e3b-${String(i).padStart(12, "0")}`;

function tree(depth: number, fanout: number, parent: string | null = null, counter = { n: 0 }): unknown {
  const id = uuid(counter.n++);
  const task = { id, name: `task ${id}`, status: "pending", parent_id: parent, priority: 2, inputs: { n: counter.n }, dependencies: [] };
  return { task, children: depth === 0 ? [] : Array.from({ length: fanout }, () => tree(depth - 1, fanout, id, counter)) };
}

interface Case {
  spec: string;
  /** The folder under schemas/ whose codegen.json the validators were generated from. */
  schemaDir: string;
  entry: string;
  validateExport: string;
  schema: FlowspecSchema<unknown>;
  document: unknown;
}

const cases: Case[] = [
  {
    spec: "stepflow Flow (tests/mock/conditional_skip.yaml)",
    schemaDir: "stepflow",
    entry: "@flowspec/stepflow/validate",
    validateExport: "validateFlow",
    schema: FlowSchema as FlowspecSchema<unknown>,
    document: parseSourceDocument(readFileSync(join(corpus, "stepflow/tests/mock/conditional_skip.yaml"), "utf8"), { format: "yaml" }).value,
  },
  {
    spec: "agents.json (stripe, 13 flows)",
    schemaDir: "agents-json",
    entry: "@flowspec/agents-json/validate",
    validateExport: "validateAgentsJson",
    schema: AgentsJsonSchema as FlowspecSchema<unknown>,
    document: JSON.parse(readFileSync(join(corpus, "agents-json/agents_json__stripe__agents.json"), "utf8")),
  },
  {
    spec: "apflow TaskTreeNode (121 tasks)",
    schemaDir: "apflow",
    entry: "@flowspec/apflow/validate",
    validateExport: "validateTaskTreeNode",
    schema: TaskTreeNodeSchema as FlowspecSchema<unknown>,
    document: tree(2, 10),
  },
  {
    spec: "agent-service CreateRunCommand (agent)",
    schemaDir: "agent-service",
    entry: "@flowspec/agent-service/validate",
    validateExport: "validateCreateRunCommand",
    schema: CreateRunCommandSchema as FlowspecSchema<unknown>,
    document: {
      resourceType: "agent",
      resourceId: "demo-agent",
      contextId: "ctx-1",
      input: { mode: "agent", messages: [{ id: "m1", role: "user", content: "Summarize the latest deployment status" }], ephemeralTools: [{ name: "deployments.list", description: "List", parametersSchema: { type: "object" } }] },
      webhook: { url: "https://example.com/hook", eventTypes: ["run.status.changed"] },
      idempotencyKey: "k-1",
    },
  },
];

/** Validations per second over about `ms` of calls. */
function opsPerSecond(fn: () => unknown, ms = 250): number {
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 100; i++) fn();
    n += 100;
    now = performance.now();
  }
  return (n / (now - start)) * 1000;
}

const fmt = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n.toFixed(0));
const load = () => `load average ${loadavg()[0]!.toFixed(1)}`;
const temp = mkdtempSync(join(tmpdir(), "flowspec-bench-validators-"));
try {
  for (const c of cases) {
    console.log(`\n${c.spec}`);
    const generated = c.schema.validate;
    const runtimeSide = runtimeAjv(c.schema, c.schemaDir);
    const runtime = runtimeSide.validate;
    if (!generated(c.document).ok || !runtime(c.document)) throw new Error(`${c.spec}: the benchmark document must be valid`);
    for (let i = 0; i < 5000; i++) generated(c.document), runtime(c.document);
    const ops = await alternatingRounds({ generated: () => opsPerSecond(() => generated(c.document)), runtime: () => opsPerSecond(() => runtime(c.document)) }, THROUGHPUT_ROUNDS);
    const throughput = ratios(ops.generated, ops.runtime);
    report({
      name: `generated vs run-time ajv throughput, identical options: ${c.spec}`,
      value: median(throughput),
      unit: "×",
      range: range(throughput),
      rounds: THROUGHPUT_ROUNDS,
      target: { op: ">=", value: 1 },
      baseline: `generated ${fmt(median(ops.generated))}/s, run-time ajv ${fmt(median(ops.runtime))}/s (${load()})`,
    });

    const docFile = join(temp, `${c.schemaDir}.json`);
    writeFileSync(docFile, JSON.stringify(c.document));
    const readDoc = `JSON.parse((await import("node:fs")).readFileSync(${JSON.stringify(docFile)}, "utf8"))`;
    const scripts = {
      generated: `const { ${c.validateExport} } = await import(${JSON.stringify(c.entry)});
        if (!${c.validateExport}(${readDoc}).ok) throw new Error("invalid");`,
      runtime: `${runtimeSide.script(join(temp, `${c.schemaDir}.schema.json`))}
        if (!validate(${readDoc})) throw new Error("invalid");`,
      floor: `${readDoc};`,
    };
    const cpu = { generated: [] as number[], runtime: [] as number[], floor: [] as number[] };
    const run = (name: keyof typeof scripts) => processTime(["--input-type=module", "-e", scripts[name]], repo, cpu[name]);
    for (const name of ["generated", "runtime", "floor"] as const) run(name); // warm the file cache
    for (const side of Object.values(cpu)) side.length = 0;
    const ms = await alternatingRounds({ generated: () => run("generated"), runtime: () => run("runtime"), floor: () => run("floor") }, STARTUP_ROUNDS);
    const faster = ratios(ms.runtime, ms.generated);
    const overFloor = ratios(ms.generated, ms.floor);
    const times =
      `generated ${median(ms.generated).toFixed(1)} ms, run-time ajv ${median(ms.runtime).toFixed(1)} ms; ` +
      `CPU time ${median(cpu.generated).toFixed(0)} ms vs ${median(cpu.runtime).toFixed(0)} ms, ${median(ratios(cpu.runtime, cpu.generated)).toFixed(2)}× faster`;
    const floor = `a bare node that reads and parses the document: ${median(ms.floor).toFixed(1)} ms, CPU ${median(cpu.floor).toFixed(0)} ms (generated ${median(ratios(cpu.generated, cpu.floor)).toFixed(2)}× it in CPU) (${load()})`;
    report({
      name: `whole process, import /validate + first validation vs run-time ajv compile (times faster): ${c.spec}`,
      value: median(faster),
      unit: "×",
      range: range(faster),
      rounds: STARTUP_ROUNDS,
      target: { op: ">=", value: 2.5 },
      baseline: times,
      floor,
      // At best the generated side costs what the floor does: run-time ajv over the floor, per round.
      atFloor: median(ratios(ms.runtime, ms.floor)),
    });
    report({
      name: `whole process, import /validate + first validation vs the floor: ${c.spec}`,
      value: median(overFloor),
      unit: "×",
      range: range(overFloor),
      rounds: STARTUP_ROUNDS,
      target: { op: "<=", value: 1.15 },
      baseline: times,
      floor,
    });
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}
