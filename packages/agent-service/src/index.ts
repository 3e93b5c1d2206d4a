export * from "./validate.js";
export { upgradeCreateRunBody } from "./upgrade.js";
export * from "./client/errors.js";
export { RunsClient, type RunsClientOptions, type CallOptions, type RunListFilters, type RunPage, type EventPage } from "./client/runs-client.js";
export type { RunStream, StreamOptions, UnknownFrame } from "./client/stream.js";
export type { RetryOptions } from "./client/retry.js";
export type { FetchLike } from "./client/http.js";
export {
  ROUTES,
  QUERY,
  STREAM_CHANNELS,
  STREAM_CONTENT_TYPES,
  TERMINAL_STATUSES,
  DEFAULTS,
  isTerminalRun,
  type StreamTransport,
} from "./routes.js";
export {
  createRun,
  agentRun,
  toolRun,
  mcpServerRun,
  type RunCommandBuilder,
  type RunCommandBuilderBase,
  type AgentRunMethods,
  type ToolRunMethods,
  type McpServerRunMethods,
  type BuildOptions,
} from "./builder/run-builder.js";
export { callable, bindingModeFor } from "./builder/callable.js";
export { verifyWebhook, parseWebhookDelivery, type WebhookDelivery, type WebhookHeaders, type VerifyWebhookOptions } from "./webhooks/verify.js";
export { signWebhook, type WebhookBody } from "./webhooks/signature.js";
