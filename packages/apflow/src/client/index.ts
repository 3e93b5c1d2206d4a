export { createApflowClient, settledState, type ApflowClient, type ExecutionStream } from "./client.js";
export { ApflowResponseError, ApflowRpcError, ApflowStreamError, ApflowTransportError, specCodeOf } from "./errors.js";
export { RedirectError, ResponseTooLargeError } from "@flowspec/runtime";
export type * from "./types.js";
