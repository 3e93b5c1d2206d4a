/**
 * Detect, check and draw documents of StepFlow, agents.json, apflow and Agent Service Spec, in
 * Node or in a browser. `@flowspec/documents/kinds` (kinds and validation alone) and
 * `@flowspec/documents/graph` (pictures alone) are lighter entries to parts of this one.
 */
export * from "./kinds.js";
export * from "./graph/index.js";
export { checkDocument, DEFAULT_MAX_DOCUMENT_BYTES, type CheckDocumentOptions, type DocumentCheck, type DocumentDiagnostic } from "./check.js";
