/**
 * The Flow document, without the engine: validate, check, build and convert flows. Nothing here
 * loads plugins, spawns processes or reads files, so this entry bundles for browsers and edge
 * runtimes (`@flowspec/stepflow/flow`); the package root re-exports all of it.
 */
export * from "./validate.js";
export { parsePath, isValidPath, formatPath, toDollarPath, normalizePath, selectPath, PathSyntaxError, PathResolutionError, type PathSegment } from "./path.js";
export { deepEqual, isTruthy } from "./values.js";
// Floats written `1.0` stay floats (serde_json's model); `flowToBuilderCode` writes them with `jsonFloat`.
export { jsonFloat, isJsonFloat, JsonFloat } from "@flowspec/runtime";
export { FATAL_RULES, isFatal, formatDiagnostics, type Diagnostic, type DiagnosticRule } from "./diagnostics.js";
export { InvalidFlowError } from "./engine/errors.js";
export { parseFlow, readFlow, type FlowDocument } from "./flow-document.js";
export { checkFlow, type CheckOptions } from "./check.js";
export { FlowBuilder, FlowBuildError, StepHandle, onError, FLOW_SCHEMA, type TemplateOf, type StepSpec, type OnErrorPolicy } from "./builder/flow-builder.js";
export { Ref, Literal, literal, type RefOrigin } from "./builder/ref.js";
export { defineComponent, componentTable, builtins, type Component, type ComponentDefinition, type NestedFlow, type Message } from "./builder/components.js";
export type { PathValue, ValidPath, InvalidPath, PathSegments, RefValue } from "./builder/path-types.js";
export { flowToBuilderCode, FlowConversionError, type FlowToBuilderCodeOptions } from "./builder/to-code.js";
