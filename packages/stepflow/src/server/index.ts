/**
 * `@flowspec/stepflow/server`: serve TypeScript functions as StepFlow components over stdio or
 * Streamable HTTP. Node only.
 */
export { defineServerComponent, jsonSchemaOf, type FlowInput, type SchemaSource, type ServerComponent, type ServerComponentContext } from "./components.js";
export { ComponentErrorCode, createComponentServer, FLOW_SCHEMA, FlowFailedError, FlowSkippedError, type Components, type ComponentServer } from "./server.js";
export { serveHttp, serveStdio, type ServeOptions } from "./serve.js";
