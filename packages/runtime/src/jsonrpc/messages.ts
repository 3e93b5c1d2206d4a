import type { JsonRpcErrorObject } from "./errors.js";

export type RequestId = string | number;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params?: unknown;
}

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: unknown;
}

export interface JsonRpcSuccess {
  jsonrpc: "2.0";
  id: RequestId;
  result: unknown;
}

export interface JsonRpcFailure {
  jsonrpc: "2.0";
  id: RequestId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** A message classified by its shape (JSON-RPC 2.0 §4–§5), or why it is not one. */
export type Classified =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "response"; message: JsonRpcResponse }
  | {
      kind: "invalid";
      id: RequestId | null;
      reason: string;
      /** It has no `method`: if anything, a response (a malformed one fails the call it answers). */
      response: boolean;
    };

/**
 * A string, or an integer JSON reads exactly: one past 2^53 - 1 has already become another number
 * (9007199254740993 reads as …992), and an answer under it would not match its request.
 */
export const isId = (id: unknown): id is RequestId => typeof id === "string" || Number.isSafeInteger(id);

/**
 * The structural check every JSON-RPC 2.0 peer needs: `jsonrpc` is `"2.0"`; `method` + `id` is a
 * request, `method` alone a notification, `id` with exactly one of `result` / `error` a response
 * (a `null` result counts as absent, as StepFlow's runtime reads it).
 */
export function classifyMessage(value: unknown): Classified {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { kind: "invalid", id: null, reason: Array.isArray(value) ? "batches are not supported" : "a message must be a JSON object", response: false };
  }
  const m = value as Record<string, unknown>;
  const id = isId(m.id) ? m.id : null;
  const invalid = (id: RequestId | null, reason: string): Classified => ({ kind: "invalid", id, reason, response: !("method" in m) });
  if (m.jsonrpc !== "2.0") return invalid(id, `"jsonrpc" must be "2.0"`);
  if ("id" in m && m.id !== null && !isId(m.id)) return invalid(null, `"id" must be a string or an integer of at most 2^53 - 1 in size`);
  if ("method" in m) {
    if (typeof m.method !== "string") return invalid(id, `"method" must be a string`);
    if (id !== null) return { kind: "request", message: m as unknown as JsonRpcRequest };
    if ("id" in m) return invalid(null, `a request id must not be null`);
    return { kind: "notification", message: m as unknown as JsonRpcNotification };
  }
  const hasResult = m.result !== undefined && m.result !== null;
  const hasError = m.error !== undefined;
  if (!("id" in m)) return invalid(null, "neither a request, a notification nor a response");
  if (hasResult === hasError) return invalid(id, "a response must carry exactly one of result and error");
  if (hasError) {
    const error = m.error as Record<string, unknown> | null;
    if (typeof error !== "object" || error === null || !Number.isInteger(error.code) || typeof error.message !== "string") {
      return invalid(id, `"error" must be an object with an integer code and a string message`);
    }
  } else if (id === null) {
    return invalid(null, "a result must carry the id of its request");
  }
  return { kind: "response", message: m as unknown as JsonRpcResponse };
}
