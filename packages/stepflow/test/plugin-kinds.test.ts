import { describe, expect, it } from "vitest";
import { createRouter, runFlow, runTestCases, type Plugin, type PluginFactory, type StepflowConfig } from "../src/index.js";
import { join } from "node:path";
import { deferred, fail500, flow, fromStep, ok, step } from "./helpers.js";
import { repoRoot } from "../../../test/support.js";

const config: StepflowConfig = {
  plugins: { remote: { type: "stepflow", transport: "stdio", command: "node", args: [] } },
  routes: { "/remote/{*component}": [{ plugin: "remote" }] },
};
const f = flow([step("a", "/remote/echo", { v: 1 }), step("b", "/remote/echo", fromStep("a"))], fromStep("b"), {
  test: { cases: [{ name: "echo", input: null, output: ok({ v: 1 }) }] },
});

describe("plugin kinds: how external component servers slot in", () => {
  it("a factory registered for a type serves it; init runs once, lazily, before the first call; close closes it", async () => {
    const events: string[] = [];
    const stepflow: PluginFactory = (name, entry, environment) => {
      events.push(`create ${name} ${entry.command} in ${environment.workingDirectory}`);
      return {
        kind: "stepflow",
        init: async () => void events.push("init"),
        execute: async (component, input, context) => {
          events.push(`execute ${component} ${context.stepId}`);
          return ok(input);
        },
        close: async () => void events.push("close"),
      } satisfies Plugin;
    };
    const router = createRouter({ config, pluginKinds: { stepflow }, workingDirectory: "/work" });
    expect(events).toEqual(["create remote node in /work"]);
    expect(await runFlow(f, null, { router })).toEqual(ok({ v: 1 }));
    await router.close();
    expect(events).toEqual(["create remote node in /work", "init", "execute /echo a", "execute /echo b", "close"]);
  });

  it("a plugin that starts and then fails makes the run (and the test case) fail, not skip", async () => {
    const broken: PluginFactory = () => ({
      kind: "stepflow",
      init: async () => {
        throw new Error("initialize: server exited with code 1");
      },
      execute: async () => ok(null),
    });
    expect(await runFlow(f, null, { config, pluginKinds: { stepflow: broken } })).toEqual(fail500('step "a" failed'));
    const [report] = await runTestCases(f, { config, pluginKinds: { stepflow: broken } });
    expect(report).toMatchObject({ status: "failed", detail: expect.stringContaining("server exited with code 1") });
  });

  it("a plugin that cannot run here (its command is not installed) makes the test case skip, with its reason", async () => {
    const missing: PluginFactory = () => ({ kind: "stepflow", unavailableReason: async () => 'command "uv" not found', execute: async () => ok(null) });
    const [report] = await runTestCases(f, { config, pluginKinds: { stepflow: missing } });
    expect(report).toMatchObject({ status: "skipped", reason: 'needs components no configured plugin can serve: "/remote/echo": command "uv" not found' });
  });

  it("without a factory, the default stepflow type skips when its command is not installed", async () => {
    const absent = await runTestCases(f, { config: { ...config, plugins: { remote: { type: "stepflow", transport: "stdio", command: "no-such-command-here", args: [] } } } });
    expect(absent[0]!.reason).toContain('needs the command "no-such-command-here", which is not installed');
  });

  it("without a factory, the default stepflow type runs the component server over stdio", async () => {
    const serve = { type: "stepflow", transport: "stdio", command: process.execPath, args: ["--import", "tsx", join(repoRoot, "packages/stepflow/test/fixtures/serve.ts"), join(repoRoot, "examples/stepflow-components/components.ts")], env: { PATH: "${PATH}" } };
    const [report] = await runTestCases(f, { config: { ...config, plugins: { remote: serve } }, workingDirectory: repoRoot });
    expect(report).toMatchObject({ status: "passed" });
  });

  it("a server's flows/evaluate is not tied to the run that first called the plugin (it may have failed)", async () => {
    const serve = { type: "stepflow", transport: "stdio", command: process.execPath, args: ["--import", "tsx", join(repoRoot, "packages/stepflow/test/fixtures/serve.ts"), join(repoRoot, "examples/stepflow-components/components.ts")], env: { PATH: "${PATH}" } };
    const router = createRouter({ config: { ...config, plugins: { remote: serve } }, workingDirectory: repoRoot });
    try {
      // The first run ends on an execution error, which aborts its steps' signal.
      expect(await runFlow(flow([step("a", "/remote/fail", { message: "no" })], fromStep("a")), null, { router })).toEqual(fail500('step "a" failed'));
      const nested = { schema: "https://stepflow.org/schemas/v1/flow.json", steps: [], output: { $from: { workflow: "input" } } };
      const second = flow([step("e", "/remote/eval_flow", { flow: { $literal: nested }, input: 7 })], fromStep("e"));
      expect(await runFlow(second, null, { router })).toEqual(ok(ok(7)));
    } finally {
      await router.close();
    }
  });

  it("a component server that dies mid-run fails the run with its command, exit code and last stderr lines", async () => {
    const dies = { type: "stepflow", transport: "stdio", command: process.execPath, args: ["--import", "tsx", join(repoRoot, "packages/stepflow/test/fixtures/serve.ts"), join(repoRoot, "packages/stepflow/test/fixtures/dies.ts")], env: { PATH: "${PATH}" } };
    const dying = flow([step("a", "/remote/echo", { v: 1 }), step("b", "/remote/die", fromStep("a"))], fromStep("b"), { test: { cases: [{ name: "dies", input: null, output: ok(null) }] } });
    const [report] = await runTestCases(dying, { config: { ...config, plugins: { remote: dies } }, workingDirectory: repoRoot });
    expect(report).toMatchObject({ status: "failed" });
    expect(report!.detail).toContain(JSON.stringify(process.execPath));
    expect(report!.detail).toContain("code 3");
    expect(report!.detail).toContain("lost the connection to the database");
  });

  it("a stepflow plugin entry without what its transport needs is a config error naming the field", () => {
    expect(() => createRouter({ config: { ...config, plugins: { remote: { type: "stepflow", transport: "http" } } } })).toThrow(/\/plugins\/remote\/url: a stepflow plugin with transport http needs a url/);
    expect(() => createRouter({ config: { ...config, plugins: { remote: { type: "stepflow", transport: "tcp" } } } })).toThrow(/transport must be stdio or http/);
  });
});

describe("review: calls back from a component server", () => {
  const serveModule = (module: string) => ({
    type: "stepflow",
    transport: "stdio",
    command: process.execPath,
    args: ["--import", "tsx", join(repoRoot, "packages/stepflow/test/fixtures/serve.ts"), module],
    env: { PATH: "${PATH}" },
  });
  const SCHEMA = "https://stepflow.org/schemas/v1/flow.json";

  it("a flows/evaluate made for one run is not stopped when another run using the same server fails", async () => {
    const gates = { a: deferred(), b: deferred() };
    const started = { a: deferred(), b: deferred() };
    const components = {
      "/ts/hold": async ({ gate }: { gate: "a" | "b" }) => {
        started[gate].resolve();
        await gates[gate].promise;
        return gate;
      },
      // Fails run B once run A's nested flow is under way.
      "/ts/boom": async () => {
        await started.a.promise;
        throw new Error("boom");
      },
    };
    const router = createRouter({ config: { ...config, plugins: { remote: serveModule(join(repoRoot, "examples/stepflow-components/components.ts")) } }, components, workingDirectory: repoRoot });
    const nested = (gate: string) => ({ $literal: { schema: SCHEMA, steps: [{ id: "h", component: "/ts/hold", input: { gate } }], output: { $from: { step: "h" } } } });
    try {
      const runB = runFlow(flow([step("b1", "/remote/eval_flow", { flow: nested("b"), input: null }), step("b2", "/ts/boom")], fromStep("b1")), null, { router });
      await started.b.promise;
      // Run A's call back arrives while both runs have a call to the server in flight.
      const runA = runFlow(flow([step("a1", "/remote/eval_flow", { flow: nested("a"), input: null })], fromStep("a1")), null, { router });
      expect(await runB).toEqual(fail500('step "b2" failed'));
      gates.a.resolve();
      gates.b.resolve();
      expect(await runA).toEqual(ok(ok("a")));
    } finally {
      await router.close();
    }
  });

  it("flows/evaluate of a flow the runtime cannot read (a malformed $from) is answered -32602, not a failure to evaluate", async () => {
    const router = createRouter({ config: { ...config, plugins: { remote: serveModule(join(repoRoot, "packages/stepflow/test/fixtures/callbacks.ts")) } }, workingDirectory: repoRoot });
    try {
      const bad = { $literal: { schema: SCHEMA, steps: [], output: { $from: "oops" } } };
      const result = await runFlow(flow([step("e", "/remote/eval_or_error", { flow: bad, input: null })], fromStep("e")), null, { router });
      expect(result).toEqual(ok({ code: -32602, message: expect.stringMatching(/Invalid params for flows\/evaluate: \/flow\/output\/\$from: \$from must be/) }));
    } finally {
      await router.close();
    }
  });
});
