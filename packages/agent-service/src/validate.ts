/**
 * The one door to Agent Service's generated validators. It adds what the schema says in an if/then
 * rule that ajv reports poorly: `input.mode` must equal `resourceType` (protocol notes §2.2). For a
 * mismatch, the first error is one clear sentence at `/input/mode`, followed by the raw schema errors.
 */
import { ValidationError, type Assert, type Validate, type ValidationIssue, type ValidationResult } from "@flowspec/runtime/validation";
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

function withInputModeCheck<V>(validate: Validate<V>): Validate<V> {
  return (value): ValidationResult<V> => {
    const result = validate(value);
    if (result.ok) return result;
    const issue = inputModeIssue(value);
    return issue ? { ok: false, errors: [issue, ...result.errors] } : result;
  };
}

function assertFrom<V>(validate: Validate<V>, typeName: string): Assert<V> {
  return (value) => {
    const result = validate(value);
    if (!result.ok) throw new ValidationError(typeName, result.errors);
  };
}

export const validateRun: Validate<T.Run> = withInputModeCheck(generated.validateRun);
export const validateRunResponse: Validate<T.Run> = withInputModeCheck(generated.validateRunResponse);
export const validateCreateRunCommand: Validate<T.CreateRunCommand> = withInputModeCheck(generated.validateCreateRunCommand);
export const validateCreateRunCommandResponse: Validate<T.CreateRunCommand> = withInputModeCheck(generated.validateCreateRunCommandResponse);
export const assertRun: Assert<T.Run> = assertFrom(validateRun, "Run");
export const assertRunResponse: Assert<T.Run> = assertFrom(validateRunResponse, "RunResponse");
export const assertCreateRunCommand: Assert<T.CreateRunCommand> = assertFrom(validateCreateRunCommand, "CreateRunCommand");
export const assertCreateRunCommandResponse: Assert<T.CreateRunCommand> = assertFrom(validateCreateRunCommandResponse, "CreateRunCommandResponse");
