/**
 * A property of the StepFlow engine on random flows: whatever the steps (builtin and mock
 * components, routed or not), references (to earlier, later, missing or own steps, with paths that
 * resolve or not), `skipIf` and `onError` policies, `runFlow` settles, in time, with a FlowResult or
 * an InvalidFlowError, never with another error. Shared by the test (bounded case counts) and
 * `bench/properties.ts` (a hundred times as many).
 */
import fc from "fast-check";
import { createRouter, InvalidFlowError, isFlowResult, runFlow, type Flow, type FlowResult } from "@flowspec/stepflow";

const SCHEMA = "https://stepflow.org/schemas/v1/flow.json";

/** Inputs the mock components answer; any other input is an execution error. */
const ANSWERED = [null, 1, "x", { a: [1, 2] }];
const config = {
  plugins: {
    builtin: { type: "builtin" },
    mock: {
      type: "mock",
      components: {
        "/ok": { behaviors: ANSWERED.map((input) => [input, { outcome: "success", result: { echo: input, list: [input, 2] } }]) },
        "/fail": { behaviors: ANSWERED.map((input) => [input, { outcome: "failed", error: { code: 500, message: "boom" } }]) },
        "/skip": { behaviors: ANSWERED.map((input) => [input, { outcome: "skipped" }]) },
        "/error": { behaviors: ANSWERED.map((input) => [input, { error: "backend down" }]) },
      },
    },
  },
  routes: { "/builtin/{*component}": [{ plugin: "builtin" }], "/mock/{component}": [{ plugin: "mock" }] },
};
const COMPONENTS = ["/mock/ok", "/mock/fail", "/mock/skip", "/mock/error", "/builtin/put_blob", "/builtin/get_blob", "/builtin/create_messages", "/builtin/eval", "/nowhere/thing"];
const PATHS = [undefined, "$", "$.echo", "$.list[0]", "$.list[-1]", "$.missing.deeper", "echo", "$.blob_id"];

/** Mostly `usual`, now and then `odd` (what makes a flow invalid: one in a flow is enough). */
const mostly = (usual: fc.Arbitrary<unknown>, odd: fc.Arbitrary<unknown>) => fc.oneof({ weight: 12, arbitrary: usual }, { weight: 1, arbitrary: odd });

/** A value template: literals, references to steps (by index, maybe out of range) or to the input, nested. */
function template(steps: number): fc.Arbitrary<unknown> {
  const reference = fc.record(
    {
      $from: mostly(fc.oneof(fc.nat({ max: steps + 1 }).map((i) => ({ step: `s${i}` })), fc.constant({ workflow: "input" })), fc.constantFrom({ step: 3 }, {})),
      path: mostly(fc.constantFrom(...PATHS), fc.constant("$[")),
      onSkip: mostly(fc.constantFrom(undefined, undefined, { action: "skip" }, { action: "useDefault", defaultValue: 0 }, { action: "useDefault" }), fc.constant({ action: "explode" })),
    },
    { requiredKeys: ["$from"] },
  );
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom(...ANSWERED, true, false, "text"),
      reference,
      fc.record({ $literal: fc.constantFrom(1, { $from: { step: "s0" } }) }),
      fc.array(tie("value"), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom("a", "b", "data", "blob_id", "workflow", "input", "user_prompt"), tie("value"), { maxKeys: 3 }),
    ),
  }));
  return value;
}

const onError = (steps: number) =>
  fc.oneof(
    fc.constant(undefined),
    mostly(fc.constantFrom({ action: "fail" }, { action: "skip" }, { action: "retry" }, { action: "useDefault" }), fc.constant({ action: "bogus" })),
    template(steps).map((defaultValue) => ({ action: "useDefault", defaultValue })),
  );

/** A nested flow for `/builtin/eval`: one mock step, its result the output. */
const nested = { $literal: { schema: SCHEMA, steps: [{ id: "n", component: "/mock/ok", input: null }], output: { $from: { step: "n" } } } };

export const randomFlow: fc.Arbitrary<Flow> = fc.integer({ min: 0, max: 6 }).chain((count) =>
  fc
    .record({
      steps: fc.array(
        fc.record(
          {
            component: mostly(fc.constantFrom(...COMPONENTS), fc.constantFrom("no-slash", "")),
            input: fc.oneof(template(count), fc.constant({ workflow: nested, input: null })),
            skipIf: fc.oneof(fc.constant(undefined), fc.boolean(), template(count)),
            onError: onError(count),
          },
          { requiredKeys: ["component"] },
        ),
        { minLength: count, maxLength: count },
      ),
      output: fc.oneof(fc.constant(undefined), template(count)),
      duplicateId: mostly(fc.constant(false), fc.constant(true)),
    })
    .map(({ steps, output, duplicateId }) => ({
      schema: SCHEMA,
      steps: steps.map((step, i) => ({ id: duplicateId && i === 1 ? "s0" : `s${i}`, ...withoutUndefined(step) })),
      ...(output === undefined ? {} : { output }),
    }) as Flow),
);

function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

/** How long one run may take before it counts as a hang (every component answers at once). */
const HANG_MS = 10_000;

/**
 * Runs a flow on a fresh router: its FlowResult, or the InvalidFlowError it was refused with.
 * Anything else thrown, or no answer within HANG_MS, fails.
 */
export async function settle(flow: Flow, input: unknown): Promise<FlowResult | InvalidFlowError> {
  const router = createRouter({ config });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer after ${HANG_MS} ms`)), HANG_MS)));
  try {
    const result = await Promise.race([runFlow(flow, input, { router }), hang]);
    if (!isFlowResult(result)) throw new Error(`not a FlowResult: ${JSON.stringify(result)}`);
    return result;
  } catch (error) {
    if (!(error instanceof InvalidFlowError)) throw error;
    return error;
  } finally {
    clearTimeout(timer);
    await router.close();
  }
}

/** The property on `numRuns` random flows: `check` rejects with the shrunk counterexample. */
export const engineProperty = (numRuns: number) => ({
  name: "runFlow on a random flow settles with a FlowResult or an InvalidFlowError, and never hangs",
  check: () =>
    fc.assert(
      fc.asyncProperty(randomFlow, fc.constantFrom(...ANSWERED, { echo: 1 }), async (flow, input) => void (await settle(flow, input))),
      { numRuns },
    ),
});
