/**
 * StepFlow with the typed builder: build a flow, check it, run it on the local engine with the
 * builtins and a TypeScript component, then run the test cases it carries.
 */
import {
  builtins,
  checkFlow,
  componentTable,
  defineComponent,
  FlowBuilder,
  formatDiagnostics,
  onError,
  runFlow,
  runTestCases,
  type StepflowConfig,
} from "@flowspec/stepflow";

// Components: the builtins under /builtin/…, and one written in TypeScript, served in-process.
const b = builtins("/builtin");
const wordCount = defineComponent("/ts/word_count", async ({ text }: { text: string }) => {
  const words = text.split(/\s+/).filter(Boolean);
  return { words: words.length, longest: words.reduce((a, w) => (w.length > a.length ? w : a), "") };
});
const config: StepflowConfig = {
  plugins: { builtin: { type: "builtin" } },
  routes: { "/builtin/{*component}": [{ plugin: "builtin" }] },
};
const components = componentTable(wordCount);

// The flow: typed input, typed step handles; references only from handles or input().
const flow = new FlowBuilder<{ text: string; quiet: boolean }>({ name: "summarise", description: "Counts words, builds a prompt and stores it" });
const count = flow.addStep(wordCount, { id: "count", input: { text: flow.input("text") } });
const prompt = flow.addStep(b.createMessages, {
  id: "prompt",
  skipIf: flow.input("quiet"),
  input: { system_instructions: "Summarise briefly.", user_prompt: flow.input("text") },
});
const store = flow.addStep(b.putBlob, {
  id: "store",
  input: { data: { messages: prompt.ref("messages"), words: count.ref("words") } },
  onError: onError.useDefault(),
});
flow
  .output({
    words: count.ref("words"),
    longest: count.ref("$.longest"),
    first: prompt.ref("$.messages[1].content").orDefault("(quiet)"),
    blob: store.ref("blob_id").orNull(),
  })
  .testConfig(config)
  .testCase({
    name: "counts words",
    input: { text: "the quick brown fox", quiet: true },
    output: { outcome: "success", result: { words: 4, longest: "quick", first: "(quiet)", blob: null } },
  })
  .testCase({
    name: "builds the prompt",
    input: { text: "hello there", quiet: false },
    output: {
      outcome: "success",
      result: { words: 2, longest: "hello", first: "hello there", blob: "56100d8888c5a06fa2a82fb37b2d03c79ea8cad6cef58946f84b70e372a42210" },
    },
  });

const built = flow.build();
console.log(`built "${built.name}": ${built.steps.length} steps, schema ${built.schema}`);
console.log("step 'prompt' as emitted:", JSON.stringify(built.steps[1]));

// Static checks: warnings (if any) with JSON Pointers.
const diagnostics = checkFlow(built);
console.log(`checkFlow: ${diagnostics.length === 0 ? "no findings" : `\n${formatDiagnostics(diagnostics)}`}`);

// Run it: eager, parallel scheduling; `count` and `prompt` run concurrently.
for (const input of [{ text: "flows are fun to build", quiet: false }, { text: "quiet please", quiet: true }]) {
  const result = await runFlow(built, input, { config, components });
  console.log(`run ${JSON.stringify(input)} ->`, JSON.stringify(result));
}
const failed = await runFlow(built, { quiet: false }, { config, components, onExecutionError: (e) => console.log(`  (execution error at ${e.pointer}: ${e.detail})`) });
console.log("run without text ->", JSON.stringify(failed));

// Its own tests, as `flowspec stepflow test` would run them.
const reports = await runTestCases(built, { config: built.test!.config as StepflowConfig, components });
for (const report of reports) {
  console.log(`${report.status.toUpperCase().padEnd(7)} ${report.name}${report.status === "failed" ? ` — got ${JSON.stringify(report.actual)}` : ""}`);
}
const passed = reports.filter((r) => r.status === "passed").length;
console.log(`${passed} passed, ${reports.length - passed} failed, 0 skipped`);
process.exitCode = passed === reports.length ? 0 : 1;
