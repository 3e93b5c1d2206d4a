/** The Node-only parts of @flowspec/stepflow: flows and configs from files, and the test runner over files. */
export {
  loadFlowFile,
  loadConfigFile,
  loadConfigOverlay,
  resolveConfig,
  createConfiguredRouter,
  type LoadedOverlay,
  type ResolvedConfig,
  type ResolveConfigOptions,
} from "./files/files.js";
export { testFlow, testPaths, findFlowFiles, FLOW_SCHEMA_URL, type FlowTestReport, type TestOptions, type TestSummary } from "./files/test-files.js";
export { updateTestOutputs, withTestOutputs, type OutputUpdate } from "./files/update-outputs.js";
