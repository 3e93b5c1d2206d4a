import { formatDiagnostic, type Diagnostic } from "./diagnostics.js";
import type { TraceStep } from "./executor/trace.js";
import { isErrorInstance } from "@flowspec/runtime";

/** The base of every error this package throws, so callers can catch them all at once. */
export class AgentsJsonError extends Error {
  static readonly "~brand": string = "@flowspec/agents-json:AgentsJsonError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "AgentsJsonError";
}

/** The input is not an agents.json document (other formats share the name, e.g. `/.well-known/agents.json`). */
export class NotAgentsJsonError extends AgentsJsonError {
  static override readonly "~brand": string = "@flowspec/agents-json:NotAgentsJsonError";
  override name = "NotAgentsJsonError";
}

/** `load()` found errors: schema errors, deviations in strict mode, malformed fieldPaths or media-type keys. */
export class AgentsJsonLoadError extends AgentsJsonError {
  static override readonly "~brand": string = "@flowspec/agents-json:AgentsJsonLoadError";
  override name = "AgentsJsonLoadError";
  constructor(readonly diagnostics: readonly Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === "error");
    super(`agents.json document has ${errors.length} error(s):\n${errors.map((d) => `  ${formatDiagnostic(d)}`).join("\n")}`);
  }
}

/** A source path could not be read through the resolver (missing file, URL not allowed, timeout, too large). */
export class SourceResolutionError extends AgentsJsonError {
  static override readonly "~brand": string = "@flowspec/agents-json:SourceResolutionError";
  override name = "SourceResolutionError";
}

/** A source is not an OpenAPI 3.0.x/3.1.x document (Swagger 2.0, a Google discovery document, …) or is malformed. */
export class SourceFormatError extends AgentsJsonError {
  static override readonly "~brand": string = "@flowspec/agents-json:SourceFormatError";
  override name = "SourceFormatError";
}

/** An override names an unknown source or operation, or its fieldPath cannot be applied (§5). */
export class OverrideError extends AgentsJsonError {
  static override readonly "~brand": string = "@flowspec/agents-json:OverrideError";
  override name = "OverrideError";
  constructor(
    message: string,
    /** The index of the override in the document's `overrides` array. */
    readonly overrideIndex: number,
  ) {
    super(`/overrides/${overrideIndex}: ${message}`);
  }
}

/** The builder was asked for something the protocol notes forbid. */
export class AgentsJsonBuildError extends AgentsJsonError {
  static override readonly "~brand": string = "@flowspec/agents-json:AgentsJsonBuildError";
  override name = "AgentsJsonBuildError";
}

/** A flow cannot be exported as an LLM tool (bad name, `$ref` in fields) or a tool call cannot be parsed. */
export class ToolExportError extends AgentsJsonError {
  static override readonly "~brand": string = "@flowspec/agents-json:ToolExportError";
  override name = "ToolExportError";
}

/** The fields every run error carries: which action failed and the trace up to it. */
export interface RunErrorDetails {
  actionId?: string;
  operationId?: string;
  trace?: TraceStep[];
  cause?: unknown;
}

/** The base of errors raised by `runFlow`: they name the action and carry the trace so far. */
export class FlowRunError extends AgentsJsonError {
  static override readonly "~brand": string = "@flowspec/agents-json:FlowRunError";
  override name = "FlowRunError";
  readonly actionId: string | undefined;
  readonly operationId: string | undefined;
  trace: TraceStep[];
  constructor(message: string, details: RunErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.actionId = details.actionId;
    this.operationId = details.operationId;
    this.trace = details.trace ?? [];
  }
}

/** No flow has the requested id. */
export class UnknownFlowError extends FlowRunError {
  static override readonly "~brand": string = "@flowspec/agents-json:UnknownFlowError";
  override name = "UnknownFlowError";
}

/** Two flows share the requested id (§4.3). */
export class AmbiguousFlowError extends FlowRunError {
  static override readonly "~brand": string = "@flowspec/agents-json:AmbiguousFlowError";
  override name = "AmbiguousFlowError";
}

/** The plan check of §4.3 failed: nothing was sent. */
export class PlanError extends FlowRunError {
  static override readonly "~brand": string = "@flowspec/agents-json:PlanError";
  override name = "PlanError";
  constructor(
    readonly diagnostics: readonly Diagnostic[],
    flowId: string,
  ) {
    super(`flow "${flowId}" cannot run:\n${diagnostics.map((d) => `  ${formatDiagnostic(d)}`).join("\n")}`);
  }
}

/** The arguments do not match the flow's input schema (§4.1): nothing was sent. */
export class FlowInputError extends FlowRunError {
  static override readonly "~brand": string = "@flowspec/agents-json:FlowInputError";
  override name = "FlowInputError";
  constructor(
    message: string,
    readonly issues: readonly { path: string; message: string }[],
  ) {
    super(message);
  }
}

/** Reading `responses.success…` met a missing or empty intermediate value (§3.5). */
export class LinkResolutionError extends FlowRunError {
  static override readonly "~brand": string = "@flowspec/agents-json:LinkResolutionError";
  override name = "LinkResolutionError";
}

/** Writing a link target would leave a hole in an array or write through a scalar (§3.6). */
export class LinkWriteError extends FlowRunError {
  static override readonly "~brand": string = "@flowspec/agents-json:LinkWriteError";
  override name = "LinkWriteError";
}

/** A required operation parameter has no value (§4.5). */
export class MissingParameterError extends FlowRunError {
  static override readonly "~brand": string = "@flowspec/agents-json:MissingParameterError";
  override name = "MissingParameterError";
}

/** Strict mode: a parameter the operation does not declare (§4.5). */
export class UndeclaredParameterError extends FlowRunError {
  static override readonly "~brand": string = "@flowspec/agents-json:UndeclaredParameterError";
  override name = "UndeclaredParameterError";
}

/** Neither the caller nor the OpenAPI document gives a server (§4.5). */
export class NoServerError extends FlowRunError {
  static override readonly "~brand": string = "@flowspec/agents-json:NoServerError";
  override name = "NoServerError";
}

/** The body cannot be serialised for its media type (§4.5), or a body goes to an operation without one. */
export class UnsupportedMediaTypeError extends FlowRunError {
  static override readonly "~brand": string = "@flowspec/agents-json:UnsupportedMediaTypeError";
  override name = "UnsupportedMediaTypeError";
}

/** No security requirement can be satisfied with the given credentials (§6). */
export class MissingCredentialsError extends FlowRunError {
  static override readonly "~brand": string = "@flowspec/agents-json:MissingCredentialsError";
  override name = "MissingCredentialsError";
}

/** A security scheme this executor cannot apply without a `sign` hook (§6). */
export class UnsupportedSecuritySchemeError extends FlowRunError {
  static override readonly "~brand": string = "@flowspec/agents-json:UnsupportedSecuritySchemeError";
  override name = "UnsupportedSecuritySchemeError";
}

/** A response said JSON but did not parse (§4.6). */
export class ResponseParseError extends FlowRunError {
  static override readonly "~brand": string = "@flowspec/agents-json:ResponseParseError";
  override name = "ResponseParseError";
  constructor(
    message: string,
    readonly status: number,
    readonly bodyStart: string,
    details: RunErrorDetails,
  ) {
    super(message, details);
  }
}

/** A response body exceeded `maxResponseBytes` (§4.6). */
export class ResponseTooLargeError extends FlowRunError {
  static override readonly "~brand": string = "@flowspec/agents-json:ResponseTooLargeError";
  override name = "ResponseTooLargeError";
}

/** A non-success HTTP status (§4.6). */
export class HttpError extends FlowRunError {
  static override readonly "~brand": string = "@flowspec/agents-json:HttpError";
  override name = "HttpError";
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
    details: RunErrorDetails,
  ) {
    super(message, details);
  }
}

/** A network failure, a timeout or an abort (§4.6). */
export class TransportError extends FlowRunError {
  static override readonly "~brand": string = "@flowspec/agents-json:TransportError";
  override name = "TransportError";
}
