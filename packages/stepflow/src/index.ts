// Everything about the Flow document (validate, check, build, convert) is in ./flow.js, also
// published alone as @flowspec/stepflow/flow for browsers; the rest needs Node or runs flows.
export * from "./flow.js";
export { blobId, createBlobStore, BlobNotFoundError, type BlobStore } from "./blobs.js";
export { runFlow, type RunOptions } from "./engine/run.js";
export { ExecutionError } from "./engine/errors.js";
export { success, failed, skipped } from "./engine/result.js";
export { createRouter, DEFAULT_PLUGIN_KINDS, RoutingError, type Route, type Router, type RouterOptions } from "./router/router.js";
export {
  ConfigError,
  defaultConfig,
  parseConfigDocument,
  parseStepflowConfig,
  parseStepflowConfigText,
  type ConfigDocument,
  type PluginConfig,
  type RouteCondition,
  type RouteRule,
  type StepflowConfig,
} from "./router/config.js";
export { listComponents, routesTo, type ComponentListing, type ListComponentsOptions, type ListedComponent, type RouteMatch } from "./router/list.js";
export { layerConfig, parseConfigOverlay, type ConfigOverlay } from "./router/overlay.js";
export { builtinPlugin, BUILTIN_COMPONENTS } from "./plugins/builtin.js";
export { mockPlugin, type MockBehavior, type MockComponent, type MockPluginConfig } from "./plugins/mock.js";
export { functionsPlugin, componentName, type ComponentFunction } from "./plugins/functions.js";
export { findCommand } from "./plugins/external.js";
export { ComponentError } from "./plugins/errors.js";
export type { ComponentContext, Plugin, PluginEnvironment, PluginFactory } from "./plugins/types.js";
export { runTestCases, unservableReason, neededComponents, type CaseReport, type TestCasesOptions } from "./testing/test-cases.js";
export { normalizeValue, normalizeResult, resultsMatch, ZERO_RUN_ID } from "./testing/compare.js";
