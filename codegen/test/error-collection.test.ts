import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatIssues, ValidationError, type CompiledValidator } from "@flowspec/runtime";
import { validateRequest } from "@flowspec/stepflow/validate";
import { assertTask, TaskTreeNodeSchema, validateTask, validateTaskTreeNode } from "@flowspec/apflow/validate";
import * as stepflowValidators from "../../packages/stepflow/src/generated/validators.strict.js";
import * as apflowValidators from "../../packages/apflow/src/generated/validators.strict.js";
import { referenceRoots, SCHEMA_SETS } from "./support/reference.js";
import { repoRoot } from "../../test/support.js";

// Generated validators keep at most `maxErrors` error objects (default 100) and count the rest, in
// time linear in the document: ajv's own code concatenated each failing item's errors onto all the
// earlier ones, which took 26 s for 80,000 bad steps and 88 s for 80,000 bad children.

const reference = (set: string, root: string) => referenceRoots(SCHEMA_SETS.find((s) => s.name === set)!).find((r) => r.root === root && r.variant === "strict")!.reference;
/** How many errors ajv finds in a document, compiling the schema at run time. */
const ajvCount = (validate: ReturnType<typeof reference>, value: unknown) => (validate(value) ? 0 : validate.errors!.length);

const FLOW_SCHEMA = "https://stepflow.org/schemas/v1/flow.json";
const evaluateParams = (badSteps: number) => ({ flow: { schema: FLOW_SCHEMA, steps: Array.from({ length: badSteps }, () => ({})) }, input: {} });
const TASK = { id: "0b6f3a4e-8c1d-4f2a-9e3b-5d7c1a2b3c4d", name: "t", status: "pending" };
const treeNode = (badChildren: number) => ({ task: TASK, children: Array.from({ length: badChildren }, () => ({ task: {} })) });

/** Runs `fn` and returns its result with the milliseconds it took. */
function timed<T>(fn: () => T): [T, number] {
  const started = performance.now();
  const result = fn();
  return [result, performance.now() - started];
}

describe.each([
  {
    what: 'validateRequest("flows/evaluate") with 80,000 bad steps',
    compiled: stepflowValidators.EvaluateFlowParams as CompiledValidator,
    ajv: () => reference("stepflow", "EvaluateFlowParams"),
    document: evaluateParams,
    validate: (value: unknown) => validateRequest("flows/evaluate", value),
  },
  {
    what: "validateTaskTreeNode with 80,000 bad children",
    compiled: apflowValidators.TaskTreeNode as CompiledValidator,
    ajv: () => reference("apflow", "TaskTreeNode"),
    document: treeNode,
    validate: (value: unknown) => validateTaskTreeNode(value),
  },
])("$what", ({ compiled, ajv, document, validate }) => {
  const ITEMS = 80_000;

  it("keeps 100 errors and counts every one, in linear time (the quadratic code took minutes here)", () => {
    // ajv's count for the whole document, from small ones: the errors outside the items, plus each item's.
    const outside = ajvCount(ajv(), document(0));
    const perItem = ajvCount(ajv(), document(1)) - outside;
    expect(perItem).toBeGreaterThan(0);
    const big = document(ITEMS);
    const [valid, elapsed] = timed(() => compiled(big));
    expect(valid).toBe(false);
    expect(elapsed, "validating took too long for linear error collection").toBeLessThan(10_000);
    expect(compiled.errors).toHaveLength(100);
    expect(compiled.errorCount).toBe(outside + ITEMS * perItem);
  });

  it("reports the rest as omittedErrors on the result", () => {
    const [result, elapsed] = timed(() => validate(document(ITEMS)));
    expect(elapsed).toBeLessThan(10_000);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.length).toBeLessThanOrEqual(100);
    expect(result.omittedErrors).toBe(compiled.errorCount! - 100);
  });
});

describe("the code that keeps errors", () => {
  it("is one call of a helper the module declares per failing keyword, which builds the error too (less for V8 to compile on first use)", () => {
    for (const dir of ["stepflow", "agents-json", "apflow", "agent-service"]) {
      const folder = join(repoRoot, "packages", dir, "src", "generated");
      for (const file of readdirSync(folder).filter((name) => name.startsWith("validators."))) {
        const code = readFileSync(join(folder, file), "utf8");
        // Neither ajv's seven lines per push nor its object literal per error is left.
        expect(code, `${dir}/${file}`).not.toMatch(/vErrors = \[err\d+\]/);
        expect(code, `${dir}/${file}`).not.toMatch(/^const err\d+ = \{instancePath/m);
        expect(code.match(/^vErrors = add(?:Type|Required)?Error_\(vErrors, .*, errors\+\+, maxErrors\);$/gm)?.length ?? 0, `${dir}/${file}`).toBeGreaterThan(10);
      }
    }
  });
});

describe("the cap on errors", () => {
  const bad = { id: "not-a-uuid", priority: 7, progress: "half", dependencies: [{}, { id: 1 }] };

  it("is maxErrors per call: the first errors are kept, in ajv's order, and the rest counted", () => {
    const all = validateTask(bad, { maxErrors: Infinity });
    expect(all.ok).toBe(false);
    if (all.ok) return;
    expect(all.omittedErrors).toBeUndefined();
    const total = all.errors.length;
    expect(total).toBe(7);
    for (const maxErrors of [1, 2, 5, 6]) {
      const capped = validateTask(bad, { maxErrors });
      expect(capped).toEqual({ ok: false, errors: all.errors.slice(0, maxErrors), omittedErrors: total - maxErrors });
    }
    expect(validateTask(bad, { maxErrors: 7 })).toEqual(all);
    expect(validateTask(bad)).toEqual(all);
  });

  it("never changes the verdict", () => {
    for (const maxErrors of [1, 2, 100, Infinity]) {
      expect(validateTask(TASK, { maxErrors }).ok).toBe(true);
      expect(validateTask(bad, { maxErrors }).ok).toBe(false);
    }
  });

  it('says "… and N more" in formatIssues and in ValidationError messages', () => {
    const capped = validateTask(bad, { maxErrors: 2 });
    if (capped.ok) throw new Error("expected errors");
    expect(formatIssues(capped.errors, capped.omittedErrors)).toBe(
      ['  /name: missing required property "name"', '  /status: missing required property "status"', "  … and 5 more"].join("\n"),
    );
    let thrown: unknown;
    try {
      assertTask(bad, { maxErrors: 2 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).omittedErrors).toBe(5);
    expect((thrown as ValidationError).message).toBe(`Invalid Task:\n${formatIssues(capped.errors, 5)}`);
    expect(formatIssues(capped.errors)).not.toContain("more");
  });

  it("ends a Standard Schema's issues with one that says how many more there are", () => {
    const result = TaskTreeNodeSchema["~standard"].validate(treeNode(150)) as { issues: { message: string; path?: unknown }[] };
    expect(result.issues).toHaveLength(101);
    expect(result.issues.at(-1)).toEqual({ message: "… and 350 more" });
  });

  it.each([0, -1, 1.5, Number.NaN, "10"])("refuses maxErrors %j with a RangeError naming it", (maxErrors) => {
    expect(() => validateTask(bad, { maxErrors: maxErrors as number })).toThrow(RangeError);
    expect(() => validateTask(bad, { maxErrors: maxErrors as number })).toThrow(/maxErrors must be a positive integer or Infinity/);
  });
});
