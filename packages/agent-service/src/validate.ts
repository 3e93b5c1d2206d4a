/**
 * The one door to Agent Service's generated validators. It adds what the schema says in an if/then
 * rule that ajv reports poorly: `input.mode` must equal `resourceType` (protocol notes §2.2). For a
 * mismatch, the first error is one clear sentence at `/input/mode`, followed by the raw schema errors.
 * When the modes agree, an invalid input is reported by its own mode's schema only: the `oneOf`'s other
 * branches would add errors such as `/input/mode: must equal "tool"` to an agent run.
 */
import { ValidationError, type Assert, type Validate, type ValidateOptions, type ValidationIssue, type ValidationResult } from "@flowspec/runtime/validation";
import * as generated from "./generated/index.js";
import type * as T from "./generated/index.js";

export * from "./generated/index.js";

/** The input mode each resource type requires. */
export type InputOf<R extends T.TaskResourceType> = R extends "agent"
  ? T.AgentRunInput
  : R extends "tool"
    ? T.ToolRunInput
    : R extends "mcp_server"
      ? T.McpServerRunInput
      : never;

/** A Run whose `input` is narrowed by its `resourceType` (what the schema's if/then rules say). */
export type RunOf<R extends T.TaskResourceType> = T.Run & { resourceType: R; input: InputOf<R> };
/** A create-run command whose `input` is narrowed by its `resourceType`. */
export type CreateRunCommandOf<R extends T.TaskResourceType> = T.CreateRunCommand & { resourceType: R; input: InputOf<R> };

/** The issue for an `input.mode` that does not match `resourceType`, if there is one. */
export function inputModeIssue(value: unknown): ValidationIssue | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { resourceType, input } = value as { resourceType?: unknown; input?: unknown };
  if (typeof resourceType !== "string" || typeof input !== "object" || input === null) return undefined;
  const mode = (input as { mode?: unknown }).mode;
  if (mode === resourceType || !["agent", "tool", "mcp_server"].includes(resourceType)) return undefined;
  return {
    path: "/input/mode",
    message: `resourceType ${JSON.stringify(resourceType)} requires input.mode ${JSON.stringify(resourceType)}, got ${mode === undefined ? "none" : JSON.stringify(mode)}`,
    keyword: "inputMode",
    params: { resourceType, mode },
  };
}

type InputValidators = Record<T.TaskResourceType, Validate<unknown>>;

const STRICT_INPUTS: InputValidators = { agent: generated.validateAgentRunInput, tool: generated.validateToolRunInput, mcp_server: generated.validateMcpServerRunInput };
const RESPONSE_INPUTS: InputValidators = {
  agent: generated.validateAgentRunInputResponse,
  tool: generated.validateToolRunInputResponse,
  mcp_server: generated.validateMcpServerRunInputResponse,
};
// A valid input of each mode, standing in for the caller's to find the errors outside `input`.
const VALID_INPUT: Record<T.TaskResourceType, object> = {
  agent: { mode: "agent", messages: [] },
  tool: { mode: "tool", arguments: {} },
  mcp_server: { mode: "mcp_server", clientInfo: {}, clientCapabilities: {} },
};

type Failure = Extract<ValidationResult<unknown>, { ok: false }>;

/** The errors of a value whose `input.mode` equals its `resourceType`: the rest by `validate`, the input by its mode's schema. */
function sameModeFailure(value: unknown, validate: Validate<unknown>, inputs: InputValidators, options: ValidateOptions | undefined): Failure | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { resourceType, input } = value as { resourceType?: unknown; input?: unknown };
  if (typeof resourceType !== "string" || !Object.hasOwn(inputs, resourceType)) return undefined;
  if (typeof input !== "object" || input === null || (input as { mode?: unknown }).mode !== resourceType) return undefined;
  const mode = resourceType as T.TaskResourceType;
  const rest = validate({ ...value, input: VALID_INPUT[mode] }, options);
  const own = inputs[mode](input, options);
  // Only the stand-in's surroundings count: should a schema change make it invalid, its own errors are not the caller's.
  const outside = (issue: ValidationIssue) => issue.path !== "/input" && !issue.path.startsWith("/input/");
  const issues = [
    ...(rest.ok ? [] : rest.errors.filter(outside)),
    ...(own.ok ? [] : own.errors.map((issue) => ({ ...issue, path: `/input${issue.path}` }))),
  ];
  if (issues.length === 0) return undefined;
  const omittedErrors = (rest.ok ? 0 : (rest.omittedErrors ?? 0)) + (own.ok ? 0 : (own.omittedErrors ?? 0));
  return omittedErrors > 0 ? { ok: false, errors: issues, omittedErrors } : { ok: false, errors: issues };
}

function withInputModeCheck<V>(validate: Validate<V>, inputs: InputValidators): Validate<V> {
  return (value, options): ValidationResult<V> => {
    const result = validate(value, options);
    if (result.ok) return result;
    const issue = inputModeIssue(value);
    if (issue) return { ...result, errors: [issue, ...result.errors] };
    return sameModeFailure(value, validate, inputs, options) ?? result;
  };
}

function assertFrom<V>(validate: Validate<V>, typeName: string): Assert<V> {
  return (value, options) => {
    const result = validate(value, options);
    if (!result.ok) throw new ValidationError(typeName, result.errors, result.omittedErrors);
  };
}

// Each wrapper is made by a call marked pure, so that a bundle without it drops it (and the
// validators it holds): a bare top-level call counts as a side effect.
export const validateRun: Validate<T.Run> = /* @__PURE__ */ withInputModeCheck(generated.validateRun, STRICT_INPUTS);
export const validateRunResponse: Validate<T.Run> = /* @__PURE__ */ withInputModeCheck(generated.validateRunResponse, RESPONSE_INPUTS);
export const validateCreateRunCommand: Validate<T.CreateRunCommand> = /* @__PURE__ */ withInputModeCheck(generated.validateCreateRunCommand, STRICT_INPUTS);
export const validateCreateRunCommandResponse: Validate<T.CreateRunCommand> = /* @__PURE__ */ withInputModeCheck(generated.validateCreateRunCommandResponse, RESPONSE_INPUTS);
export const assertRun: Assert<T.Run> = /* @__PURE__ */ assertFrom(validateRun, "Run");
export const assertRunResponse: Assert<T.Run> = /* @__PURE__ */ assertFrom(validateRunResponse, "RunResponse");
export const assertCreateRunCommand: Assert<T.CreateRunCommand> = /* @__PURE__ */ assertFrom(validateCreateRunCommand, "CreateRunCommand");
export const assertCreateRunCommandResponse: Assert<T.CreateRunCommand> = /* @__PURE__ */ assertFrom(validateCreateRunCommandResponse, "CreateRunCommandResponse");
