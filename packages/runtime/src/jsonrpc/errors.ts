import { isErrorInstance } from "../error-brand.js";

/** The JSON-RPC 2.0 error codes. Protocols add their own (StepFlow: -32000…-32007). */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

/** The `error` member of a JSON-RPC response. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * An error response, received from the other side or to be sent to it: a handler throws one to
 * answer with that code; `request()` rejects with one when the other side answered with an error.
 */
export class JsonRpcError extends Error {
  static readonly "~brand": string = "@flowspec/runtime:JsonRpcError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "JsonRpcError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  toObject(): JsonRpcErrorObject {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

/** The call failed without an answer: the connection closed, the call timed out or was aborted. */
export class JsonRpcTransportError extends Error {
  static readonly "~brand": string = "@flowspec/runtime:JsonRpcTransportError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "JsonRpcTransportError";
}
