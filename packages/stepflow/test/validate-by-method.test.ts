import { describe, expect, it } from "vitest";
import { METHODS, methodValidation, parseEnvelope, validateRequest, validateResult } from "../src/index.js";

const flow = { schema: "https://stepflow.org/schemas/v1/flow.json", steps: [] };
const paths = (result: { ok: boolean; errors?: { path: string; keyword: string }[] }) =>
  result.ok ? [] : result.errors!.map((e) => `${e.keyword} ${e.path}`);

describe("validateRequest: params by method (the Message union cannot, protocol notes §2.2)", () => {
  it.each([
    ["initialize", { runtime_protocol_version: 1, protocol_prefix: "python" }, []],
    ["initialize", { runtime_protocol_version: 1 }, []],
    ["initialize", {}, ["required /runtime_protocol_version"]],
    ["initialize", { runtime_protocol_version: 2 ** 32 }, ["format /runtime_protocol_version"]],
    ["initialized", {}, []],
    ["components/list", {}, []],
    ["components/info", { component: "/udf" }, []],
    ["components/info", {}, ["required /component"]],
    ["components/execute", { component: "/udf", input: null }, []],
    ["components/execute", { component: "/udf" }, ["required /input"]],
    ["blobs/put", { data: { a: 1 } }, []],
    ["blobs/get", { blob_id: "abc" }, []],
    ["blobs/get", { blob_id: 1 }, ["type /blob_id"]],
    ["flows/evaluate", { flow, input: 1 }, []],
    ["flows/evaluate", { flow: { steps: [] }, input: 1 }, ["required /flow/schema"]],
  ] as const)("%s %j → %j", (method, params, expected) => {
    expect(paths(validateRequest(method, params))).toEqual(expected);
  });

  it("rejects an unknown method, naming the eight", () => {
    const result = validateRequest("components/run" as never, {});
    expect(!result.ok && result.errors[0]!.message).toBe(`unknown method "components/run"; expected one of ${METHODS.join(", ")}`);
  });
});

describe("validateResult: results by the method of the pending request", () => {
  it.each([
    ["initialize", { server_protocol_version: 1 }, []],
    ["initialize", {}, ["required /server_protocol_version"]],
    ["components/list", { components: [{ component: "/a", input_schema: { type: "object" } }] }, []],
    ["components/execute", { output: 5 }, []],
    ["blobs/put", { blob_id: "x" }, []],
    ["flows/evaluate", { result: { outcome: "failed", error: { code: 500, message: "m" } } }, []],
    ["flows/evaluate", { result: { outcome: "done" } }, ["const /result/outcome"]],
  ] as const)("%s %j → %j", (method, result, expected) => {
    for (const error of expected) expect(paths(validateResult(method, result))).toContain(error);
    expect(validateResult(method, result).ok).toBe(expected.length === 0);
  });

  it("a notification has no result", () => {
    expect(paths(validateResult("initialized", {}))).toEqual(["method "]);
  });
});

describe("parseEnvelope: the structural check of the runtime", () => {
  it.each([
    [{ jsonrpc: "2.0", id: "1", method: "components/list", params: {} }, "request"],
    [{ jsonrpc: "2.0", method: "initialized", params: {} }, "notification"],
    [{ jsonrpc: "2.0", id: 7, result: { output: 1 } }, "result"],
    [{ jsonrpc: "2.0", id: null, error: { code: -32600, message: "bad" } }, "error"],
  ])("%j is a %s", (message, kind) => {
    expect(parseEnvelope(message)).toMatchObject({ ok: true, value: { kind } });
  });

  it.each([
    [[], "a JSON-RPC message must be a JSON object"],
    [{ id: "1", method: "components/list", params: {} }, 'must be "2.0"'],
    [{ jsonrpc: "1.0", id: "1", result: {} }, 'must be "2.0"'],
    [{ jsonrpc: "2.0", id: "1", method: "tools/call", params: {} }, 'unknown method "tools/call"'],
    [{ jsonrpc: "2.0", id: "1", result: null }, "exactly one of result and error"],
    [{ jsonrpc: "2.0", id: "1", result: {}, error: { code: 1, message: "x" } }, "exactly one of result and error"],
    [{ jsonrpc: "2.0", id: 1.5, result: {} }, "must be a string or an integer"],
    [{ jsonrpc: "2.0", params: {} }, "neither a request"],
    [{ jsonrpc: "2.0", id: "1", error: { code: "x" } }, "integer code and a string message"],
  ])("%j is rejected: %s", (message, reason) => {
    const result = parseEnvelope(message);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors[0]!.message).toContain(reason);
  });
});

describe("methodValidation: the peer's hooks", () => {
  it("gives no issues for a valid value or a method it does not know, and validateRequest's issues otherwise", () => {
    const valid = { component: "/echo", input: {} };
    expect(methodValidation.validateParams("components/execute", valid)).toBeUndefined();
    expect(methodValidation.validateParams("custom/method", 5)).toBeUndefined();
    const bad = { input: {} };
    expect(methodValidation.validateParams("components/execute", bad)).toEqual((validateRequest("components/execute", bad) as { errors: unknown }).errors);
    expect(methodValidation.validateParams("components/execute", bad)!.map((e) => `${e.keyword} ${e.path}`)).toEqual(["required /component"]);
  });

  it("checks results the same way, and refuses any result of the notification", () => {
    expect(methodValidation.validateResult("components/execute", { output: null })).toBeUndefined();
    expect(methodValidation.validateResult("components/execute", {})!.map((e) => `${e.keyword} ${e.path}`)).toEqual(["required /output"]);
    expect(methodValidation.validateResult("initialized", {})![0]!.message).toBe('"initialized" is a notification and has no result');
    expect(methodValidation.validateResult("custom/method", 5)).toBeUndefined();
  });
});
