/**
 * The one door to StepFlow's generated validators. Besides the generated API (types,
 * `validateFlow`, `isFlow`, `assertFlow`, `FlowSchema`, …) it validates JSON-RPC traffic by method:
 * the schema's `Message` and `MethodParams` unions cannot (protocol notes §2.2), because
 * `ComponentListParams` and `Initialized` match every object.
 */
import type { Guard, Validate, ValidateOptions, ValidationIssue, ValidationResult } from "@flowspec/runtime";
import * as generated from "./generated/index.js";
import type * as T from "./generated/index.js";

export * from "./generated/index.js";

/** Params and result types of each StepFlow 0.2.x method. `initialized` is a notification. */
export interface MethodTypes {
  initialize: { params: T.InitializeParams; result: T.InitializeResult };
  initialized: { params: T.Initialized; result: never };
  "components/list": { params: T.ComponentListParams; result: T.ListComponentsResult };
  "components/info": { params: T.ComponentInfoParams; result: T.ComponentInfoResult };
  "components/execute": { params: T.ComponentExecuteParams; result: T.ComponentExecuteResult };
  "blobs/put": { params: T.PutBlobParams; result: T.PutBlobResult };
  "blobs/get": { params: T.GetBlobParams; result: T.GetBlobResult };
  "flows/evaluate": { params: T.EvaluateFlowParams; result: T.EvaluateFlowResult };
}

export type Method = keyof MethodTypes;
export type ParamsOf<M extends Method> = MethodTypes[M]["params"];
export type ResultOf<M extends Method> = MethodTypes[M]["result"];

/** Each method's validators, and their type guards (what `methodValidation` runs first). */
const methods: { [M in Method]: { params: Validate<ParamsOf<M>>; isParams: Guard<ParamsOf<M>>; result?: Validate<ResultOf<M>>; isResult?: Guard<ResultOf<M>> } } = {
  initialize: { params: generated.validateInitializeParams, isParams: generated.isInitializeParams, result: generated.validateInitializeResult, isResult: generated.isInitializeResult },
  initialized: { params: generated.validateInitialized, isParams: generated.isInitialized },
  "components/list": {
    params: generated.validateComponentListParams,
    isParams: generated.isComponentListParams,
    result: generated.validateListComponentsResult,
    isResult: generated.isListComponentsResult,
  },
  "components/info": {
    params: generated.validateComponentInfoParams,
    isParams: generated.isComponentInfoParams,
    result: generated.validateComponentInfoResult,
    isResult: generated.isComponentInfoResult,
  },
  "components/execute": {
    params: generated.validateComponentExecuteParams,
    isParams: generated.isComponentExecuteParams,
    result: generated.validateComponentExecuteResult,
    isResult: generated.isComponentExecuteResult,
  },
  "blobs/put": { params: generated.validatePutBlobParams, isParams: generated.isPutBlobParams, result: generated.validatePutBlobResult, isResult: generated.isPutBlobResult },
  "blobs/get": { params: generated.validateGetBlobParams, isParams: generated.isGetBlobParams, result: generated.validateGetBlobResult, isResult: generated.isGetBlobResult },
  "flows/evaluate": {
    params: generated.validateEvaluateFlowParams,
    isParams: generated.isEvaluateFlowParams,
    result: generated.validateEvaluateFlowResult,
    isResult: generated.isEvaluateFlowResult,
  },
};

/** The eight methods of StepFlow 0.2.x; any other method string makes a message unparseable. */
export const METHODS = /* @__PURE__ */ Object.keys(methods) as Method[];

export function isMethod(value: unknown): value is Method {
  return typeof value === "string" && Object.hasOwn(methods, value);
}

/** Validates the `params` of a request or notification against the definition for its method. */
export function validateRequest<M extends Method>(method: M, params: unknown, options?: ValidateOptions): ValidationResult<ParamsOf<M>> {
  if (!isMethod(method)) return unknownMethod(method);
  return methods[method].params(params, options);
}

/**
 * Validates a response's `result` against the definition for the method of the request it answers
 * (the caller knows that method from its pending request with the same id).
 */
export function validateResult<M extends Method>(method: M, result: unknown, options?: ValidateOptions): ValidationResult<ResultOf<M>> {
  if (!isMethod(method)) return unknownMethod(method);
  const validate = methods[method].result as Validate<ResultOf<M>> | undefined;
  if (!validate) {
    return { ok: false, errors: [{ path: "", message: `"${method}" is a notification and has no result`, keyword: "method", params: { method } }] };
  }
  return validate(result, options);
}

function unknownMethod(method: unknown): { ok: false; errors: ValidationIssue[] } {
  return {
    ok: false,
    errors: [{ path: "/method", message: `unknown method ${JSON.stringify(method)}; expected one of ${METHODS.join(", ")}`, keyword: "enum", params: { allowedValues: METHODS } }],
  };
}

/** A JSON-RPC 2.0 message of the StepFlow protocol, classified by its structure. */
export type Envelope =
  | { kind: "request"; id: string | number; method: Method; params: unknown }
  | { kind: "notification"; method: Method; params: unknown }
  | { kind: "result"; id: string | number; result: unknown }
  | { kind: "error"; id: string | number | null; error: { code: number; message: string; data?: unknown } };

/**
 * The structural check of a message, as the 0.2.x runtime enforces it (protocol notes §2.2):
 * `jsonrpc` must be `"2.0"`; `method` + `id` is a request, `method` alone a notification, `id` with
 * exactly one of `result`/`error` a response (`"result": null` counts as absent); the method must be
 * one of the eight. Params and results are then validated by method with `validateRequest` and
 * `validateResult`.
 */
export function parseEnvelope(message: unknown): ValidationResult<Envelope> {
  const fail = (path: string, message: string, keyword = "envelope"): ValidationResult<Envelope> => ({
    ok: false,
    errors: [{ path, message, keyword, params: {} }],
  });
  if (typeof message !== "object" || message === null || Array.isArray(message)) return fail("", "a JSON-RPC message must be a JSON object");
  const m = message as Record<string, unknown>;
  if (m.jsonrpc !== "2.0") return fail("/jsonrpc", `must be "2.0"`);
  const hasId = "id" in m && m.id !== undefined;
  const id = m.id;
  if (hasId && id !== null && typeof id !== "string" && !(typeof id === "number" && Number.isSafeInteger(id))) {
    return fail("/id", "must be a string or an integer");
  }
  if ("method" in m) {
    if (!isMethod(m.method)) return fail("/method", `unknown method ${JSON.stringify(m.method)}; expected one of ${METHODS.join(", ")}`);
    if (hasId) {
      if (id === null) return fail("/id", "a request id must be a string or an integer, not null");
      return { ok: true, value: { kind: "request", id: id as string | number, method: m.method, params: m.params } };
    }
    return { ok: true, value: { kind: "notification", method: m.method, params: m.params } };
  }
  if (!hasId) return fail("", "neither a request (method), a notification (method without id) nor a response (id)");
  const hasResult = "result" in m && m.result !== null && m.result !== undefined;
  const hasError = "error" in m && m.error !== undefined;
  if (hasResult === hasError) return fail("", "a response must carry exactly one of result and error (a null result counts as absent)");
  if (hasResult) {
    if (id === null) return fail("/id", "a result's id must be a string or an integer");
    return { ok: true, value: { kind: "result", id: id as string | number, result: m.result } };
  }
  const error = m.error as Record<string, unknown> | null;
  if (typeof error !== "object" || error === null || !Number.isInteger(error.code) || typeof error.message !== "string") {
    return fail("/error", "must be an object with an integer code and a string message");
  }
  return { ok: true, value: { kind: "error", id: id as string | number | null, error: error as { code: number; message: string; data?: unknown } } };
}

/**
 * The validation hooks a JSON-RPC peer takes (`validateParams`, `validateResult`), by method: issues
 * for the eight StepFlow methods, nothing for any other (the peer answers those -32601 itself).
 */
export const methodValidation = {
  // The guard first, which makes no result object; the issues only for a value it refuses.
  validateParams(method: string, params: unknown): readonly ValidationIssue[] | undefined {
    if (!isMethod(method) || methods[method].isParams(params)) return undefined;
    return failedIssues(validateRequest(method, params));
  },
  validateResult(method: string, result: unknown): readonly ValidationIssue[] | undefined {
    if (!isMethod(method) || methods[method].isResult?.(result)) return undefined;
    return failedIssues(validateResult(method, result));
  },
};

const failedIssues = (result: ValidationResult<unknown>): readonly ValidationIssue[] | undefined => (result.ok ? undefined : result.errors);
