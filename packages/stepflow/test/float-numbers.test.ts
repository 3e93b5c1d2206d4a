// serde_json's integer/float distinction (protocol notes §6.9, §7.2, revised 2026-11-27): a number
// whose JSON text has a `.` or an exponent is a float, at every boundary of the engine.
import { createHash } from "node:crypto";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isJsonFloat, jsonFloat, stringifyJson } from "@flowspec/runtime";
import { defineServerComponent, serveHttp } from "../src/server/index.js";
import { blobId, createRouter, deepEqual, isTruthy, parseFlow, runFlow, runTestCases, type StepflowConfig } from "../src/index.js";
import { repoRoot } from "../../../test/support.js";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const config: StepflowConfig = {
  plugins: {
    builtin: { type: "builtin" },
    raw: { type: "stepflow", transport: "stdio", command: process.execPath, args: [join(repoRoot, "packages/stepflow/test/fixtures/raw-floats.mjs")], env: {} },
  },
  routes: { "/builtin/{*component}": [{ plugin: "builtin" }], "/raw/{*component}": [{ plugin: "raw" }] },
};
const router = createRouter({ config });
afterAll(() => router.close());

const flowText = `
schema: https://stepflow.org/schemas/v1/flow.json
steps:
  - id: echo
    component: /raw/echo_text
    input:
      given: { $from: { workflow: input } }
      literal: 2.0
      integer: 2
  - id: store
    component: /builtin/put_blob
    input:
      data: { $from: { step: echo }, path: float }
output:
  received: { $from: { step: echo }, path: received }
  echo: { $from: { step: echo }, path: echo }
  float: { $from: { step: echo }, path: float }
  blob_id: { $from: { step: store }, path: blob_id }
`;

describe("integers and floats through the engine (serde_json numbers)", () => {
  it("sends a float literal and a float input to a component server as floats, and keeps the floats it answers", async () => {
    const { flow } = parseFlow(flowText, { file: "floats.yaml" });
    const input = parseFlow(`schema: https://stepflow.org/schemas/v1/flow.json\nsteps: []\noutput: { x: 1.0, y: 1, z: 1.5 }`).flow.output;
    const result = await runFlow(flow, input, { router });
    expect(result.outcome).toBe("success");
    const output = (result as { result: Record<string, unknown> }).result;
    // What the server read, as text: floats are written as floats, integers as integers.
    expect(output.received).toBe('{"given":{"x":1.0,"y":1,"z":1.5},"literal":2.0,"integer":2}');
    // What it answered is read back with its floats: stored as a blob, 171.0 hashes as "171.0".
    expect(output.blob_id).toBe(sha256("171.0"));
    expect(output.blob_id).not.toBe(sha256("171"));
  });

  it("stepflow test: an expected 1.0 does not match an actual 1, nor an expected 1 an actual 1.0", async () => {
    const cases = `
test:
  cases:
    - name: same numbers
      input: { x: 1.0, y: 1 }
      output:
        outcome: success
        result: { received: '{"given":{"x":1.0,"y":1},"literal":2.0,"integer":2}', echo: { given: { x: 1.0, y: 1 }, literal: 2.0, integer: 2 }, float: 171.0, blob_id: ${sha256("171.0")} }
    - name: expected integer, actual float
      input: { x: 1.0, y: 1 }
      output:
        outcome: success
        result: { received: '{"given":{"x":1.0,"y":1},"literal":2.0,"integer":2}', echo: { given: { x: 1.0, y: 1 }, literal: 2.0, integer: 2 }, float: 171, blob_id: ${sha256("171.0")} }
    - name: expected float, actual integer
      input: { x: 1.0, y: 1 }
      output:
        outcome: success
        result: { received: '{"given":{"x":1.0,"y":1},"literal":2.0,"integer":2}', echo: { given: { x: 1.0, y: 1.0 }, literal: 2.0, integer: 2 }, float: 171.0, blob_id: ${sha256("171.0")} }
`;
    const { flow } = parseFlow(flowText + cases, { file: "floats.yaml" });
    const reports = await runTestCases(flow, { router });
    expect(reports.map((r) => [r.name, r.status])).toEqual([
      ["same numbers", "passed"],
      ["expected integer, actual float", "failed"],
      ["expected float, actual integer", "failed"],
    ]);
  });

  it("JSON flows keep floats as YAML ones do", async () => {
    const text = (expected: string) =>
      `{"schema": "https://stepflow.org/schemas/v1/flow.json", "steps": [], "output": [1.0, 1, 1e2],
        "test": {"cases": [{"name": "c", "input": null, "output": {"outcome": "success", "result": ${expected}}}]}}`;
    const status = async (expected: string) => (await runTestCases(parseFlow(text(expected), { format: "json" }).flow, { router }))[0]!.status;
    expect(await status("[1.0, 1, 100.0]")).toBe("passed");
    expect(await status("[1, 1, 100]")).toBe("failed");
    expect(await status("[1.0, 1.0, 100.0]")).toBe("failed");
  });

  it("deepEqual and isTruthy: a JsonFloat is a float, equal to floats of its value only; 0.0 is falsy", () => {
    expect(deepEqual(jsonFloat(1), jsonFloat(1))).toBe(true);
    expect(deepEqual(jsonFloat(1), 1)).toBe(false);
    expect(deepEqual(1, jsonFloat(1))).toBe(false);
    expect(deepEqual({ a: [jsonFloat(2)] }, { a: [2] })).toBe(false);
    expect(deepEqual(jsonFloat(0.5), 0.5)).toBe(true);
    expect(deepEqual(jsonFloat(1), {})).toBe(false);
    expect(deepEqual(jsonFloat(1), { value: 1 })).toBe(false);
    expect(isTruthy(jsonFloat(0))).toBe(false);
    expect(isTruthy(jsonFloat(3))).toBe(true);
  });

  it("over HTTP, a component that keeps floats gets and answers them as floats; one that does not gets plain numbers", async () => {
    const server = await serveHttp({
      "/keeps": defineServerComponent({ keepFloats: true, handler: (input: { x: unknown }) => ({ x: input.x, float: isJsonFloat(input.x), doubled: jsonFloat(2) }) }),
      "/plain": defineServerComponent({ handler: (input: { x: unknown }) => ({ x: input.x, type: typeof input.x }) }),
    });
    const http = createRouter({ config: { plugins: { h: { type: "stepflow", transport: "http", url: server.url } }, routes: { "/h/{*component}": [{ plugin: "h" }] } } });
    try {
      const { flow } = parseFlow(`schema: https://stepflow.org/schemas/v1/flow.json
steps:
  - { id: keeps, component: /h/keeps, input: { x: { $from: { workflow: input } } } }
  - { id: plain, component: /h/plain, input: { x: { $from: { workflow: input } } } }
output: { keeps: { $from: { step: keeps } }, plain: { $from: { step: plain } } }`);
      const result = await runFlow(flow, jsonFloat(3), { router: http });
      expect(stringifyJson(result)).toBe('{"outcome":"success","result":{"keeps":{"x":3.0,"float":true,"doubled":2.0},"plain":{"x":3,"type":"number"}}}');
    } finally {
      await http.close();
      await server.close();
    }
  });

  it("hashes upstream's alice blob (tests/python/blob_integration.yaml) to upstream's id", async () => {
    const { flow } = parseFlow(
      `schema: https://stepflow.org/schemas/v1/flow.json
steps: []
output: { original: { name: Alice, age: 30, score: 85.5 }, config: { mode: standard, multiplier: 2 }, age_doubled: 60, score_doubled: 171.0 }`,
    );
    expect(await blobId(flow.output)).toBe("f3ab84807a096605614b040dcf8d498ced3fb582a8dfa5fc1cc952710fcb31f5");
  });
});

describe("stepflow-configs are read with plain numbers", () => {
  it("a mock behaviour and a route condition match a float input by its value, as before", async () => {
    const { flow } = parseFlow(`schema: https://stepflow.org/schemas/v1/flow.json
steps:
  - { id: m, component: /m/one, input: { x: 1.0 } }
output: { $from: { step: m } }`);
    const config: StepflowConfig = {
      plugins: { m: { type: "mock", components: { "/one": { behaviors: [[{ x: 1 }, { outcome: "success", result: "matched" }]] } } } },
      routes: { "/m/{*component}": [{ plugin: "m", conditions: [{ path: "$.x", value: 1 }] }] },
    };
    expect(await runFlow(flow, null, { config })).toEqual({ outcome: "success", result: "matched" });
  });
});
