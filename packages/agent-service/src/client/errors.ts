/**
 * The errors the RunsClient throws (protocol notes §4.4), named as openai-node names them. Catch
 * `AgentServiceError` for all of them, `ApiError` for any HTTP error answer.
 */
import { formatIssues, isErrorInstance, RedirectError, ResponseTooLargeError, ValidationError, type ValidationIssue } from "@flowspec/runtime";

export { RedirectError, ResponseTooLargeError, ValidationError };

/**
 * Base class of every error this package throws (except `ValidationError`, `ResponseTooLargeError` and
 * `RedirectError`, shared with @flowspec/runtime).
 */
export class AgentServiceError extends Error {
  static readonly "~brand": string = "@flowspec/agent-service:AgentServiceError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "AgentServiceError";
}

/** The server answered with an error: a non-2xx status, or a 200 whose envelope `code` is not 0. */
export class ApiError extends AgentServiceError {
  static override readonly "~brand": string = "@flowspec/agent-service:ApiError";
  override name = "ApiError";
  constructor(
    /** HTTP status. */
    readonly status: number,
    /** The envelope's `code`, or undefined when the body was not an envelope. */
    readonly code: number | undefined,
    message: string,
    /** The `x-request-id` response header, when sent. */
    readonly requestId: string | undefined,
    /** The parsed body (or its text when it was not JSON). */
    readonly body: unknown,
    /** `Retry-After` in milliseconds, when sent. */
    readonly retryAfterMs?: number,
  ) {
    super(`${status}${code === undefined ? "" : ` (code ${code})`}: ${message}${requestId ? ` [request ${requestId}]` : ""}`);
  }
  /** The server's message, without status and request id. */
  get serverMessage(): string {
    const body = this.body as { message?: unknown } | undefined;
    return typeof body?.message === "string" ? body.message : this.message;
  }
}
export class BadRequestError extends ApiError {
  static override readonly "~brand": string = "@flowspec/agent-service:BadRequestError";
  override name = "BadRequestError";
}
export class AuthenticationError extends ApiError {
  static override readonly "~brand": string = "@flowspec/agent-service:AuthenticationError";
  override name = "AuthenticationError";
}
export class PermissionDeniedError extends ApiError {
  static override readonly "~brand": string = "@flowspec/agent-service:PermissionDeniedError";
  override name = "PermissionDeniedError";
}
export class NotFoundError extends ApiError {
  static override readonly "~brand": string = "@flowspec/agent-service:NotFoundError";
  override name = "NotFoundError";
}
export class ConflictError extends ApiError {
  static override readonly "~brand": string = "@flowspec/agent-service:ConflictError";
  override name = "ConflictError";
}
export class UnprocessableEntityError extends ApiError {
  static override readonly "~brand": string = "@flowspec/agent-service:UnprocessableEntityError";
  override name = "UnprocessableEntityError";
}
export class RateLimitError extends ApiError {
  static override readonly "~brand": string = "@flowspec/agent-service:RateLimitError";
  override name = "RateLimitError";
}
export class InternalServerError extends ApiError {
  static override readonly "~brand": string = "@flowspec/agent-service:InternalServerError";
  override name = "InternalServerError";
}

const BY_STATUS: Record<number, typeof ApiError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** The typed error for an error answer. */
export function apiErrorFor(
  status: number,
  code: number | undefined,
  message: string,
  requestId: string | undefined,
  body: unknown,
  retryAfterMs?: number,
): ApiError {
  const Class = status >= 500 ? InternalServerError : (BY_STATUS[status] ?? ApiError);
  return new Class(status, code, message, requestId, body, retryAfterMs);
}

/** The request never got an answer: DNS, refused connection, reset socket. */
export class ApiConnectionError extends AgentServiceError {
  static override readonly "~brand": string = "@flowspec/agent-service:ApiConnectionError";
  override name = "ApiConnectionError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The request got no answer within `timeoutMs`. */
export class ApiTimeoutError extends ApiConnectionError {
  static override readonly "~brand": string = "@flowspec/agent-service:ApiTimeoutError";
  override name = "ApiTimeoutError";
  constructor(readonly timeoutMs: number) {
    super(`request timed out after ${timeoutMs} ms`);
  }
}

/** The server answered 2xx, but the body is not the envelope or its `data` is not what the route returns. */
export class ResponseValidationError extends AgentServiceError {
  static override readonly "~brand": string = "@flowspec/agent-service:ResponseValidationError";
  override name = "ResponseValidationError";
  constructor(
    readonly typeName: string,
    readonly errors: readonly ValidationIssue[],
    readonly requestId: string | undefined,
    readonly body: unknown,
  ) {
    super(`invalid ${typeName} in the response${requestId ? ` [request ${requestId}]` : ""}:\n${formatIssues(errors)}`);
  }
}

/** Where a frame sits in a stream's body. */
export interface FramePosition {
  transport: "sse" | "ndjson";
  /** 0-based index of the frame within this connection's body. */
  frameIndex: number;
  /** 1-based line where the frame starts. */
  line: number;
  /** Byte offset of the frame's first byte in this connection's body. */
  byteOffset: number;
}

/** A stream frame that is not JSON, or not a valid envelope, keepalive or terminal. */
export class StreamFrameError extends AgentServiceError {
  static override readonly "~brand": string = "@flowspec/agent-service:StreamFrameError";
  override name = "StreamFrameError";
  constructor(
    readonly position: FramePosition,
    readonly reason: string,
    readonly frame: string,
    readonly errors: readonly ValidationIssue[] = [],
  ) {
    super(
      `bad ${position.transport} frame #${position.frameIndex} at line ${position.line}, byte ${position.byteOffset}: ${reason}` +
        (errors.length > 0 ? `\n${formatIssues(errors)}` : ""),
    );
  }
}

/** A stream frame passed `maxEventBytes`: it was not read further, and the stream ends. */
export class StreamEventTooLargeError extends StreamFrameError {
  static override readonly "~brand": string = "@flowspec/agent-service:StreamEventTooLargeError";
  override name = "StreamEventTooLargeError";
  constructor(
    position: FramePosition,
    readonly limit: number,
    /** The frame's size, or what had arrived of it when reading stopped (unless `whole`). */
    readonly bytesRead: number,
    whole: boolean,
  ) {
    super(position, `the event exceeds maxEventBytes (${whole ? "" : "at least "}${bytesRead} bytes > ${limit})`, "");
  }
}

/** The stream broke its contract: a gap that persists after reconnecting, a foreign run id, too many reconnects. */
export class StreamProtocolError extends AgentServiceError {
  static override readonly "~brand": string = "@flowspec/agent-service:StreamProtocolError";
  override name = "StreamProtocolError";
  constructor(
    message: string,
    readonly details: { expectedSequence?: number; receivedSequence?: number; reconnects?: number; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
  }
}

/** `waitForCompletion` ran out of time; the run was not cancelled. */
export class WaitTimeoutError extends AgentServiceError {
  static override readonly "~brand": string = "@flowspec/agent-service:WaitTimeoutError";
  override name = "WaitTimeoutError";
  constructor(
    readonly runId: string,
    readonly timeoutMs: number,
  ) {
    super(`run ${runId} did not finish within ${timeoutMs} ms (it was not cancelled)`);
  }
}

/** Which check of a webhook delivery failed. */
export type WebhookCheck = "headers" | "timestamp" | "secret" | "signature" | "payload";

/** A webhook delivery failed verification or parsing; `check` names what failed. */
export class WebhookVerificationError extends AgentServiceError {
  static override readonly "~brand": string = "@flowspec/agent-service:WebhookVerificationError";
  override name = "WebhookVerificationError";
  constructor(
    readonly check: WebhookCheck,
    message: string,
  ) {
    super(`webhook ${check} check failed: ${message}`);
  }
}
