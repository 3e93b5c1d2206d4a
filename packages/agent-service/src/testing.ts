/**
 * `@flowspec/agent-service/testing`: a local Agent Service (node:http) for tests and examples.
 * Node-only; the client itself never imports it.
 */
export { startTestServer, canonicalJson, type TestServer, type TestServerOptions } from "./test-server/server.js";
export { echoScript, type RunScript, type RunScriptContext } from "./test-server/script.js";
export type { Fault, ServerRoute } from "./test-server/faults.js";
export type { WebhookLog } from "./test-server/webhooks.js";
