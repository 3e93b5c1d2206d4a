import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseJsonKeepingFloats, parseSourceDocument, plainNumbers, stringifyJson } from "@flowspec/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FlowBuilder, FlowConversionError, flowToBuilderCode } from "../src/index.js";
import { corpusDir, repoRoot } from "../../../test/support.js";
import { normaliseLikeBuilder, SCHEMA } from "./helpers.js";

// Every flow of the corpus and of the repository's examples is converted to a program; the
// programs are written to one folder, run by one tsx process (against the sources, through the
// repository's tsconfig paths) and typechecked by one tsc run.

const filesUnder = (dir: string) => (readdirSync(dir, { recursive: true }) as string[]).map((p) => p.split("\\").join("/")).sort();
const corpus = corpusDir("stepflow");
const corpusFlows = filesUnder(corpus)
  .filter((p) => (/\.ya?ml$/.test(p) && !/stepflow[-_]config/.test(p)) || p.startsWith("load-tests/workflows/"))
  .map((p) => ({ name: `corpus ${p}`, value: parseSourceDocument(readFileSync(join(corpus, p), "utf8"), { file: p }).value }));
const exampleFlows = filesUnder(join(repoRoot, "examples"))
  .filter((p) => /\.(ya?ml|json)$/.test(p) && !p.includes("node_modules") && !p.includes("/schemas/"))
  .map((p) => ({ name: `examples/${p}`, value: parseSourceDocument(readFileSync(join(repoRoot, "examples", p), "utf8"), { file: p }).value }))
  .filter(({ value }) => Array.isArray((value as { steps?: unknown }).steps));

/** What the fluent API writes exactly but only in some forms: raw references, a late onError reference, awkward keys. */
const edge = {
  name: "edge cases",
  value: parseSourceDocument(
    `schema: ${SCHEMA}
name: edges
description: the forms with no typed reference, and keys that need care
input_schema: { type: object }
steps:
  - { id: flow, component: /builtin/create_messages, input: { user_prompt: { $from: { workflow: input }, path: text } } }
  - id: 2nd step
    component: /builtin/put_blob
    skipIf: { $literal: false }
    onError: { action: useDefault, defaultValue: { later: { $from: { step: third }, path: x } } }
    input:
      data:
        whole: { $from: { step: flow }, path: $ }
        skipped: { $from: { step: flow }, path: messages, onSkip: { action: skip } }
        orNull: { $from: { step: flow }, path: "$.messages[0]", onSkip: { action: useDefault } }
        orDefault: { $from: { step: flow }, path: a.b, onSkip: { action: useDefault, defaultValue: { __proto__: 1 } } }
        __proto__: { key with spaces: -0, $from-like: { $literal: { $from: { step: nope } } } }
  - { id: third, component: /builtin/put_blob, input: { data: [1, two, null, true, 1.0, 2.5, -0.0] } }
output: { blob: { $from: { step: 2nd step }, path: blob_id } }
test:
  stepflowConfig: { plugins: { builtin: { type: builtin } } }
  servers: { s: { command: node, args: [x.js] } }
  cases: [{ name: c, input: { text: hi } }]
examples: [{ name: hello, input: { text: hello } }]
`,
    { format: "yaml", keepFloats: true },
  ).value,
};

type Converted = { name: string; value: unknown; code: string; file: string };
const converted: Converted[] = [];
const refused: { name: string; error: unknown }[] = [];
const dir = mkdtempSync(join(tmpdir(), "flowspec-to-code-"));
let built: Record<string, { flow?: unknown; error?: string }> = {};

beforeAll(() => {
  [...corpusFlows, ...exampleFlows, edge].forEach(({ name, value }, i) => {
    try {
      const file = `flow${i}.ts`;
      converted.push({ name, value, code: flowToBuilderCode(value), file });
    } catch (error) {
      refused.push({ name, error });
    }
  });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  for (const { code, file } of converted) writeFileSync(join(dir, file), code);
  writeFileSync(
    join(dir, "run.mjs"),
    `import { stringifyJson } from "@flowspec/runtime";
const out = {};
for (const file of process.argv.slice(2)) {
  try { out[file] = { flow: (await import("./" + file)).default }; } catch (error) { out[file] = { error: String(error?.stack ?? error) }; }
}
console.log(stringifyJson(out));
`,
  );
  const run = spawnSync(process.execPath, ["--import", "tsx", join(dir, "run.mjs"), ...converted.map((c) => c.file)], {
    cwd: repoRoot,
    encoding: "utf8",
    env: { ...process.env, TSX_TSCONFIG_PATH: join(repoRoot, "tsconfig.json") },
  });
  expect(run.status, run.stderr).toBe(0);
  built = parseJsonKeepingFloats(run.stdout) as typeof built;
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("flowToBuilderCode over the corpus and the examples", () => {
  it("converts every flow but the two that FlowBuilder's fluent API cannot write", () => {
    expect(exampleFlows.length).toBeGreaterThanOrEqual(3);
    expect(refused.map(({ name, error }) => [name, error instanceof FlowConversionError ? error.message : String(error)])).toEqual([
      ["corpus load-tests/workflows/rust-builtin-messages.json", 'cannot convert the flow to FlowBuilder code:\n  /schema: missing required property "schema" (FlowBuilder refuses a flow with errors)'],
      [
        "corpus tests/sql-state/simple_workflow.yaml",
        'cannot convert the flow to FlowBuilder code:\n  /input: key "input": the fluent API has no place for keys the runtime ignores (FlowBuilder.load keeps them)',
      ],
    ]);
  });

  it("running each program builds the flow again, as FlowBuilder.load re-emits it (the builder's normalisation)", () => {
    for (const { name, value, file } of converted) {
      const result = built[file]!;
      expect(result.error, name).toBeUndefined();
      // Compared as serde_json would: a float written 1.0 must come back a float (a JsonFloat).
      expect(stringifyJson(result.flow), name).toBe(stringifyJson(FlowBuilder.load(value).build()));
      expect(JSON.parse(JSON.stringify(result.flow)), name).toEqual(JSON.parse(JSON.stringify(normaliseLikeBuilder(plainNumbers(value)))));
    }
  });

  it("the programs typecheck under the repository's strict settings", () => {
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({ extends: join(repoRoot, "tsconfig.json"), compilerOptions: { noEmit: true, baseUrl: repoRoot, typeRoots: [join(repoRoot, "node_modules/@types")] }, include: ["*.ts"] }),
    );
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    const run = spawnSync(process.execPath, [tsc, "-p", join(dir, "tsconfig.json")], { cwd: repoRoot, encoding: "utf8" });
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
  }, 120_000);

  it("writes typed references where they are exact, and the reference as written where the API has no typed form", () => {
    const { code } = converted.find((c) => c.name === "edge cases")!;
    expect(code).toContain('const flowStep = flow.addStep("/builtin/create_messages", { id: "flow", input: { user_prompt: flow.input("text") } });');
    expect(code).toContain('whole: { $from: { step: "flow" }, path: "$" }');
    expect(code).toContain('skipped: { $from: { step: "flow" }, path: "$.messages", onSkip: { action: "skip" } }');
    expect(code).toContain('orNull: flowStep.ref("$.messages[0]").orNull()');
    expect(code).toContain('orDefault: flowStep.ref("$[\\"a.b\\"]").orDefault({ ["__proto__"]: 1 })');
    expect(code).toContain('later: { $from: { step: "third" }, path: "$.x" }');
    expect(code).toContain('["__proto__"]: { "key with spaces": -0, "$from-like": literal({ $from: { step: "nope" } }) }');
    expect(code).toContain("// /input_schema is left out, as FlowBuilder.load leaves it out");
    expect(code).toContain("// /test/stepflowConfig is written as test.config, as FlowBuilder writes it.");
    expect(code).toContain('input: { data: [1, "two", null, true, jsonFloat(1), 2.5, jsonFloat(-0)] }');
    expect(code).toContain('import { FlowBuilder, jsonFloat, literal, onError } from "@flowspec/stepflow";');
    expect(code).toMatch(/^export default flow\.build\(\);$/m);
  });
});

describe("flowToBuilderCode refuses what it cannot write exactly", () => {
  const step = (extra: Record<string, unknown> = {}) => ({ id: "a", component: "/builtin/put_blob", input: { data: 1 }, ...extra });
  const flowWith = (extra: Record<string, unknown>, steps: unknown[] = [step()]) => ({ schema: SCHEMA, name: "n", description: "d", steps, ...extra });
  it.each([
    ["a flow with errors", flowWith({}, [step({ input: { data: { $from: { step: "b" } } } }), { id: "b", component: "/x/y" }]), "/steps/0/input/data/$from/step", 'step "a" references step "b", which is defined later (/steps/1); a step may only reference earlier steps (FlowBuilder refuses a flow with errors)'],
    ["a flow key the runtime ignores", flowWith({ owner: "me" }), "/owner", 'key "owner": the fluent API has no place for keys the runtime ignores (FlowBuilder.load keeps them)'],
    ["a step key the runtime ignores", flowWith({}, [step({ must_execute: true })]), "/steps/0/must_execute", 'key "must_execute": addStep takes id, input, skipIf, onError, inputSchema and outputSchema only (FlowBuilder.load keeps other keys)'],
    [
      "a flow-shaped template outside $literal",
      flowWith({}, [step({ input: { workflow: { schema: SCHEMA, steps: [] } } })]),
      "/steps/0/input/workflow",
      "a flow written without $literal is a template here, and the fluent API would write it under $literal (FlowBuilder.load keeps it as written)",
    ],
    ["a key beside $literal", flowWith({}, [step({ input: { $literal: 1, note: "x" } })]), "/steps/0/input/note", 'key "note" beside $literal: FlowBuilder writes {$literal: value} only'],
    ["a key beside $from", flowWith({ output: { $from: { step: "a" }, note: "x" } }), "/output/note", 'key "note" beside $from: FlowBuilder writes a reference with $from, path and onSkip only'],
    ["an object skipIf", flowWith({}, [step({ skipIf: { always: true } })]), "/steps/0/skipIf", "an object or array skipIf (always truthy) has no typed form; write skipIf: true"],
    [
      "a skipIf reference with no typed form",
      flowWith({}, [step({ skipIf: { $from: { workflow: "input" }, path: "$" } })]),
      "/steps/0/skipIf",
      "this skipIf reference has no typed form (flow.input(…) or step.ref(…)), which is all skipIf takes",
    ],
    ["an onError key of its own", flowWith({}, [step({ onError: { action: "retry", maxAttempts: 3 } })]), "/steps/0/onError/maxAttempts", "onError.fail/skip/retry/useDefault write {action} (and defaultValue) only"],
    ["test: null", flowWith({ test: null }), "/test", "test: null has no fluent form (leave test out, or give it cases)"],
    ["an empty test", flowWith({ test: {} }), "/test", "an empty test section has no fluent form (leave test out)"],
    ["no test cases", flowWith({ test: { cases: [] } }), "/test/cases", "an empty cases list: testCase() adds one case at a time"],
    ["two names for the test config", flowWith({ test: { config: {}, stepflowConfig: {} } }), "/test/stepflowConfig", "test has both config and stepflowConfig: FlowBuilder writes one test.config"],
    ["a test key of its own", flowWith({ test: { cases: [{ name: "c", input: 1 }], retries: 2 } }), "/test/retries", 'key "retries": testConfig, testServer and testCase write config, servers and cases only'],
    ["a test case key of its own", flowWith({ test: { cases: [{ name: "c", input: 1, tags: [] }] } }), "/test/cases/0/tags", 'key "tags": testCase takes name, description, input and output'],
    ["a null test case output", flowWith({ test: { cases: [{ name: "c", input: 1, output: null }] } }), "/test/cases/0/output", "output is null: testCase takes one or none (leave it out)"],
    ["no examples", flowWith({ examples: [] }), "/examples", "an empty examples list: flow.example() adds one example at a time"],
  ])("%s", (_name, flow, path, message) => {
    let error: unknown;
    try {
      flowToBuilderCode(flow);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FlowConversionError);
    expect((error as FlowConversionError).issues).toContainEqual({ path, message });
  });

  it("names every reason at once", () => {
    const flow = flowWith({ owner: "me", test: null }, [step({ must_execute: true })]);
    expect(() => flowToBuilderCode(flow)).toThrow(
      'cannot convert the flow to FlowBuilder code:\n  /owner: key "owner": the fluent API has no place for keys the runtime ignores (FlowBuilder.load keeps them)\n  /steps/0/must_execute: key "must_execute": addStep takes id, input, skipIf, onError, inputSchema and outputSchema only (FlowBuilder.load keeps other keys)\n  /test: test: null has no fluent form (leave test out, or give it cases)',
    );
  });
});
