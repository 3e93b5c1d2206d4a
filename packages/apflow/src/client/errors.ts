import type { Issue } from "../checks/issue.js";
import { isErrorInstance } from "@flowspec/runtime";
import { clip } from "../redact.js";

/** How much of a server's error message (and string `data`) an ApflowRpcError's `message` repeats; the fields keep all of it. */
const SHOWN_CHARS = 300;

/**
 * A JSON-RPC error response, whatever the HTTP status it came with (notes §6.7). `message` repeats
 * at most 300 characters of the server's message and of string `data`; `rpcMessage` and `data` are whole.
 */
export class ApflowRpcError extends Error {
  static readonly "~brand": string = "@flowspec/apflow:ApflowRpcError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "ApflowRpcError";
  constructor(
    readonly method: string,
    readonly code: number,
    readonly rpcMessage: string,
    readonly data: unknown,
    readonly httpStatus: number,
    /** The Spec's code for this situation, read from `data` (a v1 server sends -32603 for most). */
    readonly specCode: number | undefined,
  ) {
    super(`${method} failed: ${clip(rpcMessage, SHOWN_CHARS)} (code ${code}, HTTP ${httpStatus})${typeof data === "string" && data ? `: ${clip(data, SHOWN_CHARS)}` : ""}`);
  }
}

/** The exchange itself failed: network error, timeout, abort, or a body that is not a JSON-RPC response. */
export class ApflowTransportError extends Error {
  static readonly "~brand": string = "@flowspec/apflow:ApflowTransportError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "ApflowTransportError";
  constructor(
    message: string,
    readonly httpStatus?: number,
    /** The start of the body when it was not JSON. */
    readonly body?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A response whose task dicts fail the wire-mode checks (`validateResponses`). */
export class ApflowResponseError extends Error {
  static readonly "~brand": string = "@flowspec/apflow:ApflowResponseError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "ApflowResponseError";
  constructor(
    readonly method: string,
    readonly issues: readonly Issue[],
  ) {
    super(`${method} answered with invalid task data:\n${issues.map((i) => `  ${i.path || "/"}: [${i.code}] ${i.message}`).join("\n")}`);
  }
}

/** A streaming `tasks.execute` broke off mid-body; poll `tasks.tree` with `rootTaskId` to see where it got. */
export class ApflowStreamError extends Error {
  static readonly "~brand": string = "@flowspec/apflow:ApflowStreamError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "ApflowStreamError";
  constructor(
    message: string,
    readonly rootTaskId: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const SPEC_CODES: [RegExp, number][] = [
  [/circular/i, -32002],
  [/\broot\b|\btree\b|\bempty\b/i, -32012],
  [/parent/i, -32010],
  [/dependenc/i, -32011],
  [/name|duplicate|already exists/i, -32005],
  [/delete/i, -32009],
];

/** Maps a v1 error to the Spec's code (notes §6.7): by `data` fragments, first match wins; then HTTP 401. */
export function specCodeOf(code: number, data: unknown, httpStatus: number): number | undefined {
  if (typeof data === "string") for (const [pattern, specCode] of SPEC_CODES) if (pattern.test(data)) return specCode;
  if (httpStatus === 401) return -32004;
  if (code === -32601 || code === -32602 || code === -32600 || code === -32700) return code;
  return undefined;
}
